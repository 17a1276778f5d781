// metabench times argv[3] calls of one metadata syscall on argv[2] and
// prints the median and 99th percentile in nanoseconds: "p50=... p99=...".
// argv[1] is the call: getxattr-missing (ENODATA, what ls -l asks),
// getxattr (a user.a value), listxattr, readlink, readlink-einval
// (realpath's probe of a component that is no link), stat.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) {
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	if (argc != 4) return 2;
	const char *op = argv[1], *path = argv[2];
	int n = atoi(argv[3]);
	long *ns = calloc(n, sizeof *ns);
	char buf[4096];
	struct stat st;
	for (int i = 0; i < n; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (!strcmp(op, "getxattr-missing")) getxattr(path, "system.posix_acl_access", NULL, 0);
		else if (!strcmp(op, "getxattr")) getxattr(path, "user.a", buf, sizeof buf);
		else if (!strcmp(op, "listxattr")) listxattr(path, buf, sizeof buf);
		else if (!strncmp(op, "readlink", 8)) readlink(path, buf, sizeof buf);
		else if (!strcmp(op, "stat")) stat(path, &st);
		else return 2;
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns[i] = (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
	}
	qsort(ns, n, sizeof *ns, cmp);
	printf("p50=%ld p99=%ld\n", ns[n / 2], ns[n * 99 / 100]);
	return 0;
}
