// technique: ptrace the broker (the parent) and a sibling; PTRACE_TRACEME in a child
#include "adv.h"
#include <sys/ptrace.h>
#include <sys/wait.h>
int main(void) {
	pid_t pp = getppid();
	long r = ptrace(PTRACE_ATTACH, pp, 0, 0);
	printf("attach broker %d: %ld %s\n", pp, r, r ? strerror(errno) : "ATTACHED");
	r = ptrace(PTRACE_SEIZE, pp, 0, 0);
	printf("seize broker: %ld %s\n", r, r ? strerror(errno) : "SEIZED");
	pid_t c = fork();
	if (c == 0) { pause(); _exit(0); }
	r = ptrace(PTRACE_ATTACH, c, 0, 0);
	printf("attach sibling: %ld %s\n", r, r ? strerror(errno) : "ATTACHED");
	kill(c, 9);
	waitpid(c, 0, 0);
	return 0;
}
