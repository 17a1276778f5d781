// technique: fchdir to an O_PATH descriptor of ~/.ssh, then a relative open; also from a thread after unshare(CLONE_FS)
#include "adv.h"
#include <pthread.h>
#include <sched.h>
static int dfd;
static void *th(void *a) {
	unshare(CLONE_FS);
	fchdir(dfd);
	try_open("thread after CLONE_FS fchdir", AT_FDCWD, "id_rsa", O_RDONLY);
	return a;
}
int main(void) {
	char p[1024];
	snprintf(p, sizeof p, "%s/.ssh", adv("HOME"));
	dfd = open(p, O_PATH | O_DIRECTORY);
	pthread_t t;
	pthread_create(&t, 0, th, 0);
	pthread_join(t, 0);
	printf("fchdir: %d\n", fchdir(dfd));
	try_open("relative", AT_FDCWD, "id_rsa", O_RDONLY);
	try_open("dotdot", AT_FDCWD, "../.aws/credentials", O_RDONLY);
	return 0;
}
