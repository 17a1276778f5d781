// technique: the exec path race of 174, with a denied static image that forks and exits at once (before the watch's first look, 500 us): the watch sees the process gone and drops the check, and the children, reparented, are never checked: they act as the denied program
// build: static
// timeout: 60
//
// The denied image (.adv/sudo) is machine code written by fork_elf: it
// forks 3 children and exits 0; each child spins ~20 ms without a syscall
// (the parent is gone and reaped meanwhile), then makes a trapped syscall
// (an O_CREAT open of .adv/denied-ran) and, when it is served, prints the
// marker. execImageOK looks for the parent of a caller in the pending
// checks; the parent is gone, the child's parent is now the subreaper,
// and the check was dropped when the watch saw the exit.
#include "exec_race.h"
#include <sys/mman.h>
#include <sys/auxv.h>

static char *shared;

static void fork_elf(void) {
	static const unsigned char prog[] = {
		0x41, 0xbc, 0x03, 0x00, 0x00, 0x00, 0xb8, 0x39, 0x00, 0x00, 0x00, 0x0f,
		0x05, 0x85, 0xc0, 0x74, 0x0e, 0x41, 0xff, 0xcc, 0x75, 0xf0, 0xb8, 0xe7,
		0x00, 0x00, 0x00, 0x31, 0xff, 0x0f, 0x05, 0xb9, 0x00, 0x00, 0x00, 0x03,
		0x48, 0xff, 0xc9, 0x75, 0xfb, 0xb8, 0x02, 0x00, 0x00, 0x00, 0x48, 0x8d,
		0x3d, 0xa1, 0x00, 0x00, 0x00, 0xbe, 0x41, 0x00, 0x00, 0x00, 0xba, 0xa4,
		0x01, 0x00, 0x00, 0x0f, 0x05, 0x85, 0xc0, 0x78, 0x18, 0xb8, 0x01, 0x00,
		0x00, 0x00, 0xbf, 0x01, 0x00, 0x00, 0x00, 0x48, 0x8d, 0x35, 0x10, 0x00,
		0x00, 0x00, 0xba, 0x70, 0x00, 0x00, 0x00, 0x0f, 0x05, 0xb8, 0xe7, 0x00,
		0x00, 0x00, 0x31, 0xff, 0x0f, 0x05, 0x41, 0x49, 0x58, 0x41, 0x44, 0x56,
		0x2d, 0x44, 0x45, 0x4e, 0x49, 0x45, 0x44, 0x2d, 0x45, 0x58, 0x45, 0x43,
		0x2d, 0x52, 0x41, 0x4e, 0x3a, 0x20, 0x61, 0x20, 0x63, 0x68, 0x69, 0x6c,
		0x64, 0x20, 0x6f, 0x66, 0x20, 0x74, 0x68, 0x65, 0x20, 0x64, 0x65, 0x6e,
		0x69, 0x65, 0x64, 0x20, 0x69, 0x6d, 0x61, 0x67, 0x65, 0x20, 0x28, 0x69,
		0x74, 0x73, 0x20, 0x70, 0x61, 0x72, 0x65, 0x6e, 0x74, 0x20, 0x65, 0x78,
		0x69, 0x74, 0x65, 0x64, 0x20, 0x62, 0x65, 0x66, 0x6f, 0x72, 0x65, 0x20,
		0x74, 0x68, 0x65, 0x20, 0x77, 0x61, 0x74, 0x63, 0x68, 0x20, 0x6c, 0x6f,
		0x6f, 0x6b, 0x65, 0x64, 0x29, 0x20, 0x61, 0x63, 0x74, 0x65, 0x64, 0x20,
		0x75, 0x6e, 0x63, 0x68, 0x65, 0x63, 0x6b, 0x65, 0x64, 0x0a,
	};
	unsigned char b[1600] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
	unsigned long base = 0x400000, code = 120;
	char mark[1200];
	snprintf(mark, sizeof mark, "%s/denied-ran", exec_dir);
	size_t total = code + sizeof prog + strlen(mark) + 1;
	if (total > sizeof b) { printf("path too long\n"); exit(2); }
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
	memcpy(b + code + sizeof prog, mark, strlen(mark) + 1); // the path the code opens
	char p[1200];
	snprintf(p, sizeof p, "%s/sudo", exec_dir);
	unlink(p);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0 || write(fd, b, total) != (ssize_t)total) { printf("write %s: %s\n", p, strerror(errno)); exit(2); }
	close(fd);
}

static volatile int stop;
static void *flip(void *a) {
	char *p = shared + strlen(exec_dir) + 1;
	while (!stop) { memcpy(p, "sudo", 4); exec_spin(300); memcpy(p, "okay", 4); exec_spin(300); }
	return a;
}

int main(int argc, char **argv) {
	const char *self = (const char *)getauxval(AT_EXECFN); // not readlink: trapped
	if (self && argc > 1 && !strcmp(argv[1], "quiet")) _exit(0); // okay: the allowed image
	exec_role(argc, argv);
	exec_setup();
	fork_elf();
	shared = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	snprintf(shared, 1200, "%s/okay", exec_dir);
	pthread_t t;
	pthread_create(&t, 0, flip, 0);
	char mark[1200];
	snprintf(mark, sizeof mark, "%s/denied-ran", exec_dir);
	time_t end = time(0) + 30;
	for (int i = 0; i < 3000 && time(0) < end && access(mark, F_OK) != 0; i++) {
		pid_t p = fork();
		if (p == 0) {
			char *av[] = {"okay", "quiet", 0};
			execve(shared, av, (char *[]){0});
			_exit(errno == EACCES ? 13 : 14);
		}
		int st;
		waitpid(p, &st, 0);
		exec_status(st);
	}
	stop = 1;
	usleep(300000); // the children's spin and open
	printf("exec attempts: %d refused, %d image ran and exited 0, %d killed, %d other; %s\n",
	       exec_refused, exec_allowed, exec_killed, exec_other,
	       access(mark, F_OK) == 0 ? "denied-ran exists" : "no denied-ran");
	return 0;
}
