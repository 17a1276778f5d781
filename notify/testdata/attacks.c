// attacks runs one escape attempt named by argv[1] and prints what the
// kernel answered. Built static so no LD_PRELOAD or libc wrapper is involved.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void report(const char *what, long r) {
	if (r < 0)
		printf("%s: errno=%s\n", what, strerrorname_np(errno));
	else
		printf("%s: ok\n", what);
}

static long readfd(long fd) {
	char data[64] = {0};
	if (fd >= 0) {
		read(fd, data, sizeof data - 1);
		if (strstr(data, "SECRET")) printf("LEAK\n");
	}
	return fd;
}

static long o2(int dirfd, const char *path, unsigned long long resolve) {
	struct open_how how = {.flags = O_RDONLY, .resolve = resolve};
	return syscall(SYS_openat2, dirfd, path, &how, sizeof how);
}

int main(int argc, char **argv) {
	const char *what = argv[1];
	if (!strcmp(what, "raw-openat")) { // argv[2]: path
		report("raw-openat", readfd(syscall(SYS_openat, AT_FDCWD, argv[2], O_RDONLY)));
	} else if (!strcmp(what, "openat2")) { // run in the project, argv[2]: secret relative
		int dir = open(".", O_PATH | O_DIRECTORY);
		report("beneath-escape", readfd(o2(dir, argv[2], RESOLVE_BENEATH)));
		report("beneath-inside", readfd(o2(dir, "README", RESOLVE_BENEATH)));
		report("in-root-abs", readfd(o2(dir, "/README", RESOLVE_IN_ROOT)));
		report("no-symlinks", readfd(o2(dir, "innocent", RESOLVE_NO_SYMLINKS)));
		report("plain-symlink", readfd(o2(dir, "innocent", 0)));
		struct open_how big[2] = {{.flags = O_RDONLY}};
		((char *)big)[40] = 1;
		report("e2big", syscall(SYS_openat2, dir, "README", big, sizeof big));
	} else if (!strcmp(what, "io_uring")) {
		struct io_uring_params p = {0};
		report("io_uring_setup", syscall(SYS_io_uring_setup, 4, &p));
	} else if (!strcmp(what, "unshare")) {
		report("unshare-user", syscall(SYS_unshare, 0x10000000));
	} else if (!strcmp(what, "int80")) {
		long r;
		// i386 open("/etc/passwd") via int 0x80: the filter kills the process.
		__asm__ volatile("int $0x80" : "=a"(r) : "a"(5), "b"(0), "c"(0) : "memory");
		printf("int80 returned %ld\n", r);
	}
	return 0;
}
