// lifetime.h: shared helpers of the process-lifetime attacks (140-149).
// A survivor holds a descriptor on the project's README.md, opened while
// the session runs (after it, every trapped call fails), waits until the
// agent is gone, then writes through it: the judge sees the write, and the
// process, after the session.
#include "adv.h"
#include <signal.h>
#include <time.h>
#include <sys/wait.h>

static int lt_readme = -1;

// lt_prepare opens README.md for appending; call it in the agent before
// forking, so every descendant inherits the descriptor.
static void lt_prepare(void) {
	lt_readme = open("README.md", O_WRONLY | O_APPEND);
	if (lt_readme < 0) perror("open README.md");
}

static void lt_sleep_ms(long ms) {
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
}

// lt_quiet detaches from the runner's output, so that its pipes close
// when aixbroker exits.
static void lt_quiet(void) {
	int fd = open("/dev/null", O_RDWR);
	if (fd >= 0) { dup2(fd, 0); dup2(fd, 1); dup2(fd, 2); if (fd > 2) close(fd); }
}

// lt_survive waits for the agent to be gone, then 3 s more, then writes
// into README.md for a few seconds and stays 30 s more.
static void lt_survive(pid_t agent, const char *label) {
	lt_quiet();
	for (int i = 0; i < 600 && kill(agent, 0) == 0; i++) lt_sleep_ms(50);
	lt_sleep_ms(3000);
	char msg[256];
	int n = snprintf(msg, sizeof msg, "written after the session by a survivor (%s, pid %d)\n", label, getpid());
	for (int i = 0; i < 5; i++) {
		if (lt_readme >= 0) write(lt_readme, msg, n);
		lt_sleep_ms(1000);
	}
	lt_sleep_ms(30000); // still there when the judge looks, however slow the teardown
	_exit(0);
}
