// technique: a fast forker (every process forks a child every 200 ms and stays, children at once: 800 processes in a deep tree, each in its own session) outlives the session
// timeout: 40
#include "lifetime.h"
#include <sys/mman.h>
#include <sys/resource.h>

#define PROCS 800

int main(void) {
	pid_t agent = getpid();
	struct rlimit rl = {PROCS + 300, PROCS + 300};
	setrlimit(RLIMIT_NPROC, &rl); // the machine survives (ignored as root: the count bounds it)
	int *count = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (count == MAP_FAILED) { perror("mmap"); return 1; }
	lt_prepare();
	if (fork() == 0) {
		lt_quiet();
		for (;;) {
			if (__atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST) > PROCS) break;
			pid_t pid = fork();
			if (pid == 0) { setsid(); continue; } // the child forks on at once
			if (pid < 0) break;
			lt_sleep_ms(200);                     // the parent too, later
		}
		lt_survive(agent, "fork bomb");
	}
	lt_sleep_ms(700);
	printf("forker started (%d processes so far); the agent exits\n", __atomic_load_n(count, __ATOMIC_SEQ_CST));
	return 0;
}
