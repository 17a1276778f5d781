// statprobe calls one stat-family syscall directly (no libc wrapper, so the
// interposer could not answer it) and prints the result:
//   statprobe stat|lstat|statx|access|accessw|readlink|fstat|opath|fstatpipe PATH
// prints "ok size=N ino=N", "ok link=TARGET" or "errno=NAME".
//   statprobe race ALLOWED HIDDEN HIDDEN_INO N
// flips a path buffer between ALLOWED and HIDDEN from a sibling thread while
// the main thread stats it N times; prints LEAK and exits 3 if a stat ever
// reports the hidden file's inode.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *name(int e) {
	switch (e) {
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ELOOP: return "ELOOP";
	case EBADF: return "EBADF";
	case ENOSYS: return "ENOSYS";
	}
	return "other";
}

static int fail(void) {
	printf("errno=%s\n", name(errno));
	return 0;
}

static int show(struct stat *st) {
	printf("ok size=%lld ino=%llu\n", (long long)st->st_size, (unsigned long long)st->st_ino);
	return 0;
}

static char buf[4096];
static const char *allowed, *hidden;
static volatile int stop;

static void *flipper(void *arg) {
	(void)arg;
	while (!stop) {
		strcpy(buf, hidden);
		strcpy(buf, allowed);
	}
	return NULL;
}

static int race(int argc, char **argv) {
	if (argc != 6) return 2;
	allowed = argv[2];
	hidden = argv[3];
	unsigned long long ino = strtoull(argv[4], NULL, 10);
	long n = atol(argv[5]), ok = 0;
	strcpy(buf, allowed);
	pthread_t th;
	pthread_create(&th, NULL, flipper, NULL);
	for (long i = 0; i < n; i++) {
		struct stat st;
		if (syscall(SYS_newfstatat, AT_FDCWD, buf, &st, 0) != 0) continue;
		ok++;
		if (st.st_ino == ino) {
			printf("LEAK after %ld stats\n", i + 1);
			return 3;
		}
	}
	stop = 1;
	pthread_join(th, NULL);
	printf("stats=%ld ok=%ld\n", n, ok);
	return 0;
}

int main(int argc, char **argv) {
	if (argc >= 2 && strcmp(argv[1], "race") == 0) return race(argc, argv);
	if (argc != 3) return 2;
	const char *op = argv[1], *path = argv[2];
	struct stat st;
	if (strcmp(op, "stat") == 0) {
		if (syscall(SYS_stat, path, &st) != 0) return fail();
		return show(&st);
	}
	if (strcmp(op, "lstat") == 0) {
		if (syscall(SYS_lstat, path, &st) != 0) return fail();
		return show(&st);
	}
	if (strcmp(op, "newfstatat") == 0) {
		if (syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0) != 0) return fail();
		return show(&st);
	}
	if (strcmp(op, "statx") == 0) {
		struct statx sx;
		if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx) != 0) return fail();
		printf("ok size=%llu ino=%llu\n", (unsigned long long)sx.stx_size, (unsigned long long)sx.stx_ino);
		return 0;
	}
	if (strcmp(op, "statfs") == 0) {
		struct statfs sf;
		if (syscall(SYS_statfs, path, &sf) != 0) return fail();
		printf("ok type=%lx\n", (unsigned long)sf.f_type);
		return 0;
	}
	if (strcmp(op, "access") == 0) {
		if (syscall(SYS_access, path, F_OK) != 0) return fail();
		printf("ok\n");
		return 0;
	}
	if (strcmp(op, "accessw") == 0) {
		if (syscall(SYS_faccessat2, AT_FDCWD, path, W_OK, AT_EACCESS) != 0) return fail();
		printf("ok\n");
		return 0;
	}
	if (strcmp(op, "readlink") == 0) {
		char link[4096];
		long n = syscall(SYS_readlink, path, link, sizeof link - 1);
		if (n < 0) return fail();
		link[n] = 0;
		printf("ok link=%s\n", link);
		return 0;
	}
	if (strcmp(op, "fstat") == 0) {
		int fd = open(path, O_RDONLY);
		if (fd < 0) return fail();
		if (syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH) != 0) return fail();
		return show(&st);
	}
	if (strcmp(op, "opath") == 0) { // O_PATH open, then fstat of it
		int fd = open(path, O_PATH);
		if (fd < 0) return fail();
		if (syscall(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH) != 0) return fail();
		return show(&st);
	}
	if (strcmp(op, "fstatpipe") == 0) {
		int p[2];
		if (pipe(p) != 0 || write(p[1], "abc", 3) != 3) return fail();
		if (syscall(SYS_newfstatat, p[0], "", &st, AT_EMPTY_PATH) != 0) return fail();
		printf("ok fifo=%d\n", S_ISFIFO(st.st_mode));
		return 0;
	}
	if (strcmp(op, "badbuf") == 0) {
		if (syscall(SYS_newfstatat, AT_FDCWD, path, (void *)8, 0) != 0) return fail();
		printf("ok\n");
		return 0;
	}
	return 2;
}
