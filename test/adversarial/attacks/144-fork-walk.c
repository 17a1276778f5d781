// technique: a process that forks and exits at once, over and over (a new pid, re-parented, every few microseconds), outlives the session
// timeout: 40
#include "lifetime.h"

int main(void) {
	pid_t agent = getpid();
	lt_prepare();
	if (fork() == 0) {
		lt_quiet();
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (long gen = 0;; gen++) {
			pid_t pid = fork();
			if (pid > 0) _exit(0); // the parent exits: the child is an orphan
			if (pid < 0) lt_sleep_ms(1);
			setsid();
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec >= 4) break; // walk through the teardown
		}
		lt_survive(agent, "fork walker");
	}
	lt_sleep_ms(500);
	printf("walker started; the agent exits\n");
	return 0;
}
