// technique: stall the supervisor with the new traps: getxattr, listxattr and readlink on a FIFO without a writer, on devices (/dev/tty, /dev/ptmx, /dev/zero) and through O_PATH descriptors of them, then eight threads flooding getxattr and readlink for two seconds while the main thread times its opens (prints the worst latency); every call must return
// build: static
#include "adv.h"
#include <pthread.h>
#include <sys/xattr.h>
#include <time.h>
static volatile int stop;
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static void *flood(void *arg) {
	(void)arg;
	char buf[256];
	long n = 0;
	while (!stop) {
		getxattr("fifo", "user.x", buf, sizeof buf);
		readlink("README.md", buf, sizeof buf);
		listxattr("/dev/zero", buf, sizeof buf);
		n++;
	}
	return (void *)n;
}
int main(void) {
	alarm(60);
	char buf[4096];
	unlink("fifo");
	if (mkfifo("fifo", 0600) < 0) perror("mkfifo");
	const char *paths[] = { "fifo", "/dev/tty", "/dev/ptmx", "/dev/zero", "/dev/stdin" };
	for (int i = 0; i < 5; i++) {
		double t0 = now();
		long a = getxattr(paths[i], "user.x", buf, sizeof buf);
		long b = listxattr(paths[i], buf, sizeof buf);
		long c = readlink(paths[i], buf, sizeof buf);
		int o = open(paths[i], O_PATH);
		char p[64];
		snprintf(p, sizeof p, "/proc/self/fd/%d", o);
		long d = getxattr(p, "user.x", buf, sizeof buf);
		printf("%s: %ld %ld %ld %ld in %.3fs\n", paths[i], a, b, c, d, now() - t0);
		close(o);
	}
	pthread_t t[8];
	for (int i = 0; i < 8; i++) pthread_create(&t[i], NULL, flood, NULL);
	double worst = 0, end = now() + 2;
	int opens = 0;
	while (now() < end) {
		double t0 = now();
		int fd = open("README.md", O_RDONLY);
		if (fd >= 0) close(fd);
		double dt = now() - t0;
		if (dt > worst) worst = dt;
		opens++;
	}
	stop = 1;
	long total = 0;
	for (int i = 0; i < 8; i++) { void *r; pthread_join(t[i], &r); total += (long)r; }
	printf("flood: %ld rounds, %d opens, worst open %.3fs\n", total, opens, worst);
	return 0;
}
