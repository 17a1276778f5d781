// technique: copy /bin/cat into a memfd and execveat it (AT_EMPTY_PATH): an exec with no path at all
#include "adv.h"
#include <sys/mman.h>
int main(void) {
	int m = memfd_create("cat", MFD_CLOEXEC * 0);
	int src = open("/bin/cat", O_RDONLY);
	char buf[65536];
	ssize_t n;
	while ((n = read(src, buf, sizeof buf)) > 0) write(m, buf, n);
	char *argv[] = {"cat", (char *)adv("SECRET"), 0};
	char *envp[] = {0};
	fflush(stdout);
	syscall(SYS_execveat, m, "", argv, envp, AT_EMPTY_PATH);
	printf("execveat memfd: %s\n", strerror(errno));
	char p[64];
	snprintf(p, sizeof p, "/proc/self/fd/%d", m);
	execve(p, argv, envp);
	printf("execve /proc/self/fd: %s\n", strerror(errno));
	return 0;
}
