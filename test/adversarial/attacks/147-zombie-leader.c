// technique: a process whose main thread left with SYS_exit while a second thread runs shows as a zombie (State Z) in /proc/PID/stat; the tree walk skips it, and its thread outlives the session and writes README.md
// timeout: 40
#include "lifetime.h"
#include <pthread.h>

static pid_t agent;

static void *survivor(void *arg) {
	(void)arg;
	lt_survive(agent, "thread of a zombie leader");
	return NULL;
}

int main(void) {
	agent = getpid();
	lt_prepare();
	for (int i = 0; i < 3; i++) {
		pid_t pid = fork();
		if (pid < 0) { perror("fork"); break; }
		if (pid == 0) {
			if (i == 1) setsid();
			if (i == 2 && fork() != 0) _exit(0); // an orphan: re-parented to the guardian
			lt_quiet();
			pthread_t th;
			if (pthread_create(&th, NULL, survivor, NULL) != 0) _exit(1);
			syscall(SYS_exit, 0); // the leader alone: the process goes on in its thread
		}
	}
	lt_sleep_ms(800);
	char path[64], st[256];
	for (int i = 0; i < 1; i++) {
		snprintf(path, sizeof path, "/proc/%d/stat", agent + 1);
		int fd = open(path, O_RDONLY);
		if (fd >= 0) { ssize_t n = read(fd, st, sizeof st - 1); if (n > 0) { st[n] = 0; printf("first child: %.60s\n", st); } close(fd); }
	}
	printf("three zombie-leader processes started; the agent exits\n");
	return 0;
}
