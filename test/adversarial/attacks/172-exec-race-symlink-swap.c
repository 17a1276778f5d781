// technique: RENAME_EXCHANGE of two symlinks (to an allowed binary and to one on exec.deny) while execve runs the first name
// timeout: 60
#include "exec_race.h"
static char link1[1200], link2[1200];
static void attempt(void) {
	pid_t sw = fork();
	if (sw == 0) {
		for (;;) syscall(SYS_renameat2, AT_FDCWD, link1, AT_FDCWD, link2, 2 /* RENAME_EXCHANGE */);
	}
	char *argv[] = {"okay", 0};
	int code = 13;
	for (int i = 0; i < 50 && code != 42; i++) {
		pid_t p = fork();
		if (p == 0) { execve(link1, argv, (char *[]){0}); _exit(13); }
		int st;
		waitpid(p, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 42) code = 42;
		else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) code = 9;
	}
	kill(sw, SIGKILL);
	waitpid(sw, 0, 0);
	if (code == 9) raise(SIGKILL); // report a kill by the broker as one
	_exit(code);
}
int main(int argc, char **argv) {
	exec_role(argc, argv);
	exec_setup();
	snprintf(link1, sizeof link1, "%s/l-okay", exec_dir);
	snprintf(link2, sizeof link2, "%s/l-sudo", exec_dir);
	unlink(link1); unlink(link2);
	if (symlink("okay", link1) || symlink("sudo", link2)) { printf("symlink: %s\n", strerror(errno)); return 0; }
	exec_race(attempt, 60);
	return 0;
}
