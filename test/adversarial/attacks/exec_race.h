// exec_race.h: shared part of the exec race attacks (170-175). The case
// binary copies itself to $PROJECT/.adv/okay (allowed) and
// $PROJECT/.adv/sudo (on the generic profile's exec.deny: denied by
// basename), then races an exec of the allowed name into the denied one.
// The copies tell which they are by /proc/self/exe: the denied one tries a
// trapped syscall (an O_CREAT open in the project) and, for the static
// variants, spins without any syscall for a while, then prints the marker
// the judge looks for (judge_exec_linux.go). A held attack prints nothing
// of the kind: the broker killed the denied image first.
#include "adv.h"
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>

#define EXEC_MARKER "AIXADV-DENIED-EXEC-RAN"

static char exec_dir[1024];

// exec_copy copies this program to exec_dir/name, mode 0755.
static void exec_copy(const char *name) {
	char dst[1200], buf[65536];
	snprintf(dst, sizeof dst, "%s/%s", exec_dir, name);
	unlink(dst);
	int in = open("/proc/self/exe", O_RDONLY), out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0) { printf("copy %s: %s\n", name, strerror(errno)); exit(2); }
	ssize_t n;
	while ((n = read(in, buf, sizeof buf)) > 0) write(out, buf, n);
	close(in); close(out);
}

// exec_role runs the copy's part when this is not the original: the
// denied copy tries to act and reports it; the allowed one exits at once.
// It returns when this is the original.
static void exec_role(int argc, char **argv) {
	char self[1024];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n <= 0) return;
	self[n] = 0;
	const char *base = strrchr(self, '/') ? strrchr(self, '/') + 1 : self;
	if (!strcmp(base, "okay")) {
		int args = 0;
		for (int i = 1; i < argc; i++) if (!strcmp(argv[i], "--force")) args = 1;
		if (args) { printf("%s: okay ran with a denied argv (push --force)\n", EXEC_MARKER); fflush(stdout); _exit(42); }
		_exit(0);
	}
	if (strcmp(base, "sudo") && strcmp(base, "git")) return;
	if (!strcmp(base, "git")) {
		for (int i = 1; i < argc; i++)
			if (!strcmp(argv[i], "--force")) { printf("%s: git push --force ran\n", EXEC_MARKER); fflush(stdout); _exit(42); }
		_exit(0);
	}
	char mark[1200];
	snprintf(mark, sizeof mark, "%s/.adv/denied-ran", adv("PROJECT"));
	int fd = open(mark, O_WRONLY | O_CREAT, 0644); // a trapped syscall
	if (fd >= 0) { printf("%s: %s opened %s\n", EXEC_MARKER, self, mark); fflush(stdout); close(fd); }
	// no syscall at all for 300 ms: only an asynchronous check stops this
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0); // vDSO: no syscall
	do clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 300000000L);
	static const char msg[] = EXEC_MARKER ": the denied program ran 300 ms without a trapped syscall\n";
	write(1, msg, sizeof msg - 1);
	_exit(42);
}

// exec_setup copies the program to its two names.
static void exec_setup(void) {
	snprintf(exec_dir, sizeof exec_dir, "%s/.adv", adv("PROJECT"));
	exec_copy("okay");
	exec_copy("sudo");
}

// exec_status sorts one child's end: 13 refused, 0 the allowed image
// ran, 42 the denied one ran to its end, SIGKILL killed (by the broker).
static int exec_refused, exec_allowed, exec_won, exec_killed, exec_other;
static void exec_status(int st) {
	if (WIFEXITED(st) && WEXITSTATUS(st) == 13) exec_refused++;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) exec_allowed++;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 42) exec_won++;
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) exec_killed++;
	else if (exec_other++ < 3) printf("exec attempt ended with status %#x\n", st);
}

// exec_spin waits about n iterations without a syscall.
static void exec_spin(int n) {
	__asm__ volatile("" ::: "memory"); // the store before is not dead
	for (volatile int i = 0; i < n; i++);
	__asm__ volatile("" ::: "memory");
}

// exec_race runs attempt() in a fresh child up to tries times or 20 s,
// until the denied copy ran to its end once, and reports the counts.
static void exec_race(void (*attempt)(void), int tries) {
	time_t end = time(0) + 20;
	for (int i = 0; i < tries && time(0) < end && !exec_won; i++) {
		pid_t p = fork();
		if (p == 0) {
			attempt();
			if (errno != EACCES && i < 3) { printf("exec: %s\n", strerror(errno)); fflush(stdout); }
			_exit(errno == EACCES ? 13 : 14);
		}
		int st;
		waitpid(p, &st, 0);
		exec_status(st);
	}
	printf("exec attempts: %d refused, %d allowed image ran, %d denied image ran, %d killed, %d other\n",
	       exec_refused, exec_allowed, exec_won, exec_killed, exec_other);
}
