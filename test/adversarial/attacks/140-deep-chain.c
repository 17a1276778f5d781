// technique: a chain of 300 processes, each forking the next in a new session, outlives the session and writes README.md after it
// timeout: 40
#include "lifetime.h"

#define DEPTH 300

int main(void) {
	pid_t agent = getpid();
	lt_prepare();
	for (int depth = 1; depth <= DEPTH; depth++) {
		pid_t pid = fork();
		if (pid < 0) { perror("fork"); break; }
		if (pid > 0) {
			if (depth == 1) {
				lt_sleep_ms(1500); // let the chain grow, then end the session
				printf("chain of %d started; the agent exits\n", DEPTH);
				return 0;
			}
			lt_quiet();
			lt_survive(agent, "chain link");
		}
		setsid();
	}
	lt_survive(agent, "chain end");
}
