// technique: a churning forker (each process forks two children in new sessions and exits: up to 200 alive, 20000 forks in all, for 4 s) outlives the session
// timeout: 40
#include "lifetime.h"
#include <sys/mman.h>
#include <sys/resource.h>

#define ALIVE 200
#define FORKS 20000
#define SECONDS 4

static long elapsed_ms(const struct timespec *t0) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(void) {
	pid_t agent = getpid();
	struct rlimit rl = {ALIVE * 4, ALIVE * 4};
	setrlimit(RLIMIT_NPROC, &rl); // the machine survives (ignored as root: the counts bound it)
	int *alive = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (alive == MAP_FAILED) { perror("mmap"); return 1; }
	int *forks = alive + 1;
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	lt_prepare();
	*alive = 1;
	if (fork() == 0) {
		lt_quiet();
	born:
		for (int children = 0; children < 2;) {
			if (elapsed_ms(&t0) > SECONDS * 1000 || __atomic_load_n(forks, __ATOMIC_SEQ_CST) >= FORKS) lt_survive(agent, "fork bomb");
			if (__atomic_load_n(alive, __ATOMIC_SEQ_CST) >= ALIVE) { sched_yield(); continue; }
			__atomic_add_fetch(alive, 1, __ATOMIC_SEQ_CST);
			__atomic_add_fetch(forks, 1, __ATOMIC_SEQ_CST);
			pid_t pid = fork();
			if (pid == 0) { setsid(); goto born; }
			if (pid < 0) { __atomic_sub_fetch(alive, 1, __ATOMIC_SEQ_CST); lt_sleep_ms(1); continue; }
			children++;
		}
		__atomic_sub_fetch(alive, 1, __ATOMIC_SEQ_CST);
		_exit(0);
	}
	lt_sleep_ms(700);
	printf("forker started (%d forks so far, %d alive); the agent exits\n", __atomic_load_n(forks, __ATOMIC_SEQ_CST), __atomic_load_n(alive, __ATOMIC_SEQ_CST));
	return 0;
}
