// technique: new user+mount namespaces (unshare, clone), then a bind mount of ~/.ssh over the project
#include "adv.h"
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
static int child(void *a) {
	char p[1024];
	snprintf(p, sizeof p, "%s/.ssh", adv("HOME"));
	printf("child mount: %d %s\n", mount(p, "src", 0, MS_BIND, 0), strerror(errno));
	try_open("child", AT_FDCWD, "src/id_rsa", O_RDONLY);
	return 0;
}
int main(void) {
	printf("unshare user|mnt: %d %s\n", unshare(CLONE_NEWUSER | CLONE_NEWNS), strerror(errno));
	printf("unshare mnt: %d %s\n", unshare(CLONE_NEWNS), strerror(errno));
	char *stack = malloc(1 << 16);
	int pid = clone(child, stack + (1 << 16), CLONE_NEWUSER | CLONE_NEWNS | SIGCHLD, 0);
	printf("clone NEWUSER: %d %s\n", pid, pid < 0 ? strerror(errno) : "");
	if (pid > 0) waitpid(pid, 0, 0);
	fflush(stdout);
	long r = syscall(SYS_clone3, 0, 0);
	printf("clone3: %ld %s\n", r, strerror(errno));
	return 0;
}
