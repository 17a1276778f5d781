// technique: another process toggles the execve path through a shared mapping (no sibling thread: the caller is single-threaded)
// timeout: 60
#include "exec_race.h"
#include <sys/mman.h>
#include <sys/prctl.h>
static char *path;
static void attempt(void) {
	snprintf(path, 1200, "%s/okay", exec_dir);
	pid_t w = fork();
	if (w == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); // ends with the exec'ing process, whatever it runs
		if (getppid() == 1) _exit(0);
		char *p = path + strlen(exec_dir) + 1;
		for (;;) { memcpy(p, "sudo", 4); exec_spin(300); memcpy(p, "okay", 4); exec_spin(300); }
	}
	char *argv[] = {"okay", 0};
	execve(path, argv, (char *[]){0});
	kill(w, SIGKILL);
}
int main(int argc, char **argv) {
	exec_role(argc, argv);
	exec_setup();
	path = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	exec_race(attempt, 300);
	return 0;
}
