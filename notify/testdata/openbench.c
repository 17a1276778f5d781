// openbench opens, reads and closes argv[2] distinct small files named
// f0..fN-1 in directory argv[1], timing each round trip, and prints the
// median and 99th percentile in nanoseconds: "p50=... p99=...". With a third
// argument "path" it opens with O_PATH and reads nothing: the broker's
// shortest path for a trapped open (decided after the reply, see
// handleOpen).
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) {
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv) {
	if (argc != 3 && argc != 4) return 2;
	int opath = argc == 4 && !strcmp(argv[3], "path");
	int n = atoi(argv[2]);
	long *ns = calloc(n, sizeof *ns);
	char path[4096], buf[256];
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "%s/f%d", argv[1], i);
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		int fd = open(path, opath ? O_PATH : O_RDONLY);
		if (fd < 0) { perror(path); return 1; }
		if (!opath && read(fd, buf, sizeof buf) < 0) return 1;
		close(fd);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns[i] = (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
	}
	qsort(ns, n, sizeof *ns, cmp);
	printf("p50=%ld p99=%ld\n", ns[n / 2], ns[n * 99 / 100]);
	return 0;
}
