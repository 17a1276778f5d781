// technique: leave the walk's tree or its stop-then-kill by re-parenting and signal tricks: a child subreaper whose orphans re-parent to it (killed first), clone(CLONE_PARENT) (a sibling of the agent: a child of the guardian), a custom exit signal, a vfork child that never execs (its parent waits, unstoppable), a self-stopped process, a process blocking every signal, one in a new process group and session; each holds README.md and writes it after the session
// timeout: 40
#include "lifetime.h"
#include <sched.h>
#include <sys/prctl.h>

static pid_t agent;

static void survive(const char *label) {
	lt_survive(agent, label);
}

static int clone_parent_child(void *arg) {
	(void)arg;
	setsid();
	survive("CLONE_PARENT child");
	return 0;
}

int main(void) {
	agent = getpid();
	lt_prepare();
	printf("agent %d, parent %d\n", agent, getppid());
	// 1. a subreaper: its grandchildren's parent dies, they re-parent to it
	if (fork() == 0) {
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		for (int i = 0; i < 3; i++) {
			if (fork() == 0) {
				if (fork() == 0) { setsid(); survive("orphan of a subreaper"); }
				_exit(0);
			}
		}
		lt_quiet();
		survive("subreaper");
	}
	// 2. CLONE_PARENT: the child's parent is the agent's parent (the guardian)
	static char stack[64 * 1024];
	int cp = clone(clone_parent_child, stack + sizeof stack, CLONE_PARENT, NULL);
	printf("CLONE_PARENT: %s\n", cp > 0 ? "child started" : strerror(errno));
	// 3. a custom exit signal (SIGKILL to its parent when it ends)
	int cs = clone(clone_parent_child, stack + sizeof stack / 2, SIGKILL, NULL);
	printf("exit signal SIGKILL: %s\n", cs > 0 ? "child started" : strerror(errno));
	// 4. vfork child that never execs: its parent waits for it, killable only
	if (fork() == 0) {
		setsid();
		if (vfork() == 0) { survive("vfork child"); }
		survive("vfork parent");
	}
	// 5. stops itself; 6. blocks every signal; both in new sessions
	if (fork() == 0) {
		setsid();
		if (fork() == 0) { lt_quiet(); raise(SIGSTOP); survive("self-stopped"); }
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		survive("all signals blocked");
	}
	// 7. a new process group only
	if (fork() == 0) { setpgid(0, 0); survive("own process group"); }
	lt_sleep_ms(800);
	printf("the agent exits\n");
	return 0;
}
