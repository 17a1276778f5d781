/* sockrace connects an AF_UNIX socket to the allowed path argv[1] while a
 * sibling thread keeps rewriting the sockaddr buffer to the forbidden path
 * argv[2]. It prints how many connects succeeded; the forbidden server
 * counts what reached it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static struct sockaddr_un addr;
static const char *good, *bad;
static volatile int stop;

static void *flip(void *arg) {
	(void)arg;
	while (!stop) {
		strncpy(addr.sun_path, bad, sizeof(addr.sun_path) - 1);
		strncpy(addr.sun_path, good, sizeof(addr.sun_path) - 1);
	}
	return NULL;
}

int main(int argc, char **argv) {
	if (argc != 4)
		return 2;
	good = argv[1];
	bad = argv[2];
	int rounds = atoi(argv[3]), ok = 0;
	addr.sun_family = AF_UNIX;
	strncpy(addr.sun_path, good, sizeof(addr.sun_path) - 1);
	pthread_t t;
	pthread_create(&t, NULL, flip, NULL);
	for (int i = 0; i < rounds; i++) {
		int s = socket(AF_UNIX, SOCK_STREAM, 0);
		if (connect(s, (struct sockaddr *)&addr, sizeof(addr)) == 0)
			ok++;
		close(s);
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("connected %d\n", ok);
	return 0;
}
