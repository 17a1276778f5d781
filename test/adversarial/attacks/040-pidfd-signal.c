// technique: pidfd_open + pidfd_send_signal to the broker and to a process outside the sandbox
#include "adv.h"
#include <signal.h>
int main(void) {
	int pids[] = {atoi(adv("VICTIM_PID")), getppid()};
	for (int i = 0; i < 2; i++) {
		int fd = syscall(SYS_pidfd_open, pids[i], 0);
		printf("pidfd_open %d: %d %s\n", pids[i], fd, fd < 0 ? strerror(errno) : "");
		if (fd < 0) continue;
		long r = syscall(SYS_pidfd_send_signal, fd, SIGKILL, 0, 0);
		printf("pidfd_send_signal: %ld %s\n", r, r ? strerror(errno) : "SENT");
		r = syscall(SYS_pidfd_getfd, fd, 3, 0);
		printf("pidfd_getfd: %ld %s\n", r, r < 0 ? strerror(errno) : "GOT FD");
	}
	return 0;
}
