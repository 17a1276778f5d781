/* bench.c: the interposer's micro-benchmarks (docs/PERFORMANCE.md,
 * "Interposer"); run.sh runs it in each configuration.
 *
 *	bench stat PATH N        stat(PATH) N times: ns per call
 *	bench open PATH N        open(PATH, O_RDONLY) N times: ns per call
 *	bench fstat PATH N       fstat of PATH opened once, N times: ns per call
 *	                         (median of 5 batches for the three)
 *	bench spawn N PROG...    posix_spawn PROG and wait, N times each without
 *	                         and with LD_PRELOAD=$BENCH_PRELOAD, interleaved
 *	                         (a loaded machine slows both alike): medians
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double mean(const double *v, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += v[i];
	return s / n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: bench stat|open PATH N | bench spawn N PROG...\n");
		return 2;
	}
	if (!strcmp(argv[1], "spawn")) {
		int n = atoi(argv[2]), ne = 0;
		const char *lib = getenv("BENCH_PRELOAD");
		static char pre[4200];
		char **without = calloc(4096, sizeof(char *)), **with = calloc(4096, sizeof(char *));
		for (char **e = environ; *e && ne < 4000; e++)
			if (strncmp(*e, "LD_PRELOAD=", 11))
				without[ne] = with[ne] = *e, ne++;
		snprintf(pre, sizeof pre, "LD_PRELOAD=%s", lib ? lib : "");
		with[ne] = pre;
		/* wall time, and the child's own CPU time (user+sys, from wait4),
		 * which a loaded machine disturbs far less */
		double *t[2], *c[2];
		for (int k = 0; k < 2; k++) {
			t[k] = calloc((size_t)n, sizeof(double));
			c[k] = calloc((size_t)n, sizeof(double));
		}
		for (int i = 0; i < 2 * n; i++) {
			pid_t pid;
			int st, k = i & 1;
			struct rusage ru;
			double t0 = now();
			if (posix_spawn(&pid, argv[3], NULL, NULL, argv + 3, k ? with : without))
				return 1;
			wait4(pid, &st, 0, &ru);
			t[k][i / 2] = now() - t0;
			c[k][i / 2] = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
		}
		for (int k = 0; k < 2; k++) {
			qsort(t[k], (size_t)n, sizeof(double), cmp);
			qsort(c[k], (size_t)n, sizeof(double), cmp);
		}
		printf("spawn %s: wall median %.0f / %.0f us, min %.0f / %.0f us; child CPU mean %.0f / %.0f us, min %.0f / %.0f us (without / with the library)\n",
		       argv[3], t[0][n / 2] / 1e3, t[1][n / 2] / 1e3, t[0][0] / 1e3, t[1][0] / 1e3,
		       mean(c[0], n) / 1e3, mean(c[1], n) / 1e3, c[0][0] / 1e3, c[1][0] / 1e3);
		return 0;
	}
	const char *path = argv[2];
	int n = atoi(argv[3]), ok = 0;
	struct stat st;
	double per[5];
	int held = -1;
	if (!strcmp(argv[1], "fstat") && (held = open(path, O_RDONLY)) < 0)
		return 1;
	for (int round = 0; round < 5; round++) { /* median of 5 batches of n */
		double t0 = now();
		for (int i = 0; i < n; i++) {
			if (!strcmp(argv[1], "stat")) {
				ok += stat(path, &st) == 0;
			} else if (held >= 0) {
				ok += fstat(held, &st) == 0;
			} else {
				int fd = open(path, O_RDONLY);
				if (fd >= 0) {
					ok++;
					close(fd);
				}
			}
		}
		per[round] = (now() - t0) / n;
	}
	qsort(per, 5, sizeof(double), cmp);
	printf("%s %s: %.0f ns per call (%s)\n", argv[1], path, per[2], ok ? "found" : "not found");
	return 0;
}
