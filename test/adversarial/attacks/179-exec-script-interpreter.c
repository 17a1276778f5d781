// technique: run a program on exec.deny as the interpreter of a script: "#!<denied>" in a file the policy lets execute; the broker decides the script's name only and adds the interpreter to the exec check's allowed identities without deciding it (no race)
// timeout: 30
#include "exec_race.h"
#include <sys/wait.h>

// script writes exec_dir/name with the #! line line, mode 0755.
static void script(const char *name, const char *line) {
	char p[1200];
	snprintf(p, sizeof p, "%s/%s", exec_dir, name);
	unlink(p);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd < 0) { printf("create %s: %s\n", p, strerror(errno)); exit(2); }
	dprintf(fd, "#!%s\n", line);
	close(fd);
}

// run executes exec_dir/name and returns what it printed (first line).
static void run(const char *name, char *out, size_t n) {
	char p[1200];
	snprintf(p, sizeof p, "%s/%s", exec_dir, name);
	int pfd[2];
	pipe(pfd);
	pid_t c = fork();
	if (c == 0) {
		dup2(pfd[1], 1);
		execl(p, name, (char *)0);
		printf("exec %s: %s\n", name, strerror(errno));
		_exit(13);
	}
	close(pfd[1]);
	ssize_t k = read(pfd[0], out, n - 1);
	out[k > 0 ? k : 0] = 0;
	close(pfd[0]);
	int st;
	waitpid(c, &st, 0);
	exec_status(st);
}

int main(int argc, char **argv) {
	exec_role(argc, argv);
	exec_setup();
	char out[4096], line[1200];
	// The case's own denied copy (basename sudo) as the interpreter.
	snprintf(line, sizeof line, "%s/sudo", exec_dir);
	script("run.sh", line);
	run("run.sh", out, sizeof out);
	printf("%s", out); // the denied copy prints the marker itself when it ran
	// A denied system binary itself (exec.deny: systemd-run), named by its
	// real path: not a copy.
	if (access("/usr/bin/systemd-run", X_OK) == 0) {
		script("sr.sh", "/usr/bin/systemd-run --version");
		run("sr.sh", out, sizeof out);
		if (!strncmp(out, "systemd ", 8))
			printf("%s: /usr/bin/systemd-run (exec.deny) ran as a script interpreter: %.40s\n", EXEC_MARKER, out);
		else
			printf("systemd-run as interpreter: %s\n", out);
	}
	printf("exec attempts: %d refused, %d allowed image ran, %d denied image ran, %d killed, %d other\n",
	       exec_refused, exec_allowed, exec_won, exec_killed, exec_other);
	return 0;
}
