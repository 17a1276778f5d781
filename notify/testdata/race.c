// race flips a path buffer between an allowed file and the secret from a
// sibling thread while the main thread opens it, for argv[3] seconds. It
// prints LEAK and exits 3 if it ever reads the secret's marker.
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
#include <unistd.h>

static char buf[4096];
static const char *allowed, *secret;
static volatile int stop;

static void *flipper(void *arg) {
	(void)arg;
	while (!stop) {
		strcpy(buf, secret);
		strcpy(buf, allowed);
	}
	return NULL;
}

int main(int argc, char **argv) {
	if (argc != 4) return 2;
	allowed = argv[1];
	secret = argv[2];
	strcpy(buf, allowed);
	pthread_t th;
	pthread_create(&th, NULL, flipper, NULL);
	time_t end = time(NULL) + atoi(argv[3]);
	long opens = 0, ok = 0;
	while (time(NULL) < end) {
		int fd = openat(AT_FDCWD, buf, O_RDONLY);
		opens++;
		if (fd < 0) continue;
		ok++;
		char data[64] = {0};
		read(fd, data, sizeof data - 1);
		close(fd);
		if (strstr(data, "SECRET")) {
			printf("LEAK after %ld opens\n", opens);
			return 3;
		}
	}
	stop = 1;
	pthread_join(th, NULL);
	printf("opens=%ld ok=%ld\n", opens, ok);
	return 0;
}
