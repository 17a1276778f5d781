// technique: reach the user's other terminal without naming /dev/pts: through /proc/<pid>/fd and /proc/<pid>/task/<tid>/fd of the process holding it, fdinfo, an O_PATH descriptor used for TIOCSCTTY, TIOCGPTPEER and TIOCSTI; and /dev/tty in a session of our own whose controlling terminal is a pty we allocated, before and after giving it up (TIOCNOTTY)
// needs: foreign-tty
#include "adv.h"
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <termios.h>

static void drain(const char *label, int fd) {
	struct pollfd p = {fd, POLLIN, 0};
	char buf[256];
	if (poll(&p, 1, 200) > 0) {
		ssize_t n = read(fd, buf, sizeof buf - 1);
		if (n > 0) { buf[n] = 0; printf("%s: read %s\n", label, buf); }
	}
}

static void attempt(const char *label, const char *path) {
	int fd = open(path, O_RDWR | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) { printf("%s (%s): %s\n", label, path, strerror(errno)); return; }
	struct stat st;
	fstat(fd, &st);
	printf("ADV-GAINED: %s opened %s (rdev %u:%u)\n", label, path, major(st.st_rdev), minor(st.st_rdev));
	drain(label, fd);
	close(fd);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *pid = strdup(adv("FOREIGN_PTS_PID")), *pts = strdup(adv("FOREIGN_PTS"));
	char p[256];
	for (int n = 0; n < 3; n++) {
		snprintf(p, sizeof p, "/proc/%s/fd/%d", pid, n);
		attempt("holder fd", p);
		snprintf(p, sizeof p, "/proc/%s/task/%s/fd/%d", pid, pid, n);
		attempt("holder task fd", p);
	}
	snprintf(p, sizeof p, "/proc/%s/fdinfo/0", pid);
	try_open("holder fdinfo", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof p, "/proc/%s/stat", pid);
	try_open("holder stat (tty_nr)", AT_FDCWD, p, O_RDONLY);

	int op = open(pts, O_PATH | O_NOCTTY);
	printf("O_PATH of the other terminal: %s\n", op < 0 ? strerror(errno) : "opened");
	if (op >= 0) {
		printf("TIOCSCTTY on it: %s\n", ioctl(op, TIOCSCTTY, 0) == 0 ? "ADV-GAINED" : strerror(errno));
		printf("TIOCGPTPEER on it: %s\n", ioctl(op, TIOCGPTPEER, O_RDWR) >= 0 ? "ADV-GAINED" : strerror(errno));
		char c = 'x';
		printf("TIOCSTI on it: %s\n", ioctl(op, TIOCSTI, &c) == 0 ? "ADV-GAINED" : strerror(errno));
		close(op);
	}

	// A session of our own with our own pty as controlling terminal: /dev/tty
	// must be that pty, never the other terminal.
	pid_t c = fork();
	if (c == 0) {
		setsid();
		signal(SIGHUP, SIG_IGN); // TIOCNOTTY by the leader hangs up its foreground group
		int m = open("/dev/ptmx", O_RDWR | O_NOCTTY);
		if (m < 0) { printf("ptmx: %s\n", strerror(errno)); _exit(0); }
		unlockpt(m);
		int s = ioctl(m, TIOCGPTPEER, O_RDWR);
		if (s < 0 || ioctl(s, TIOCSCTTY, 0) != 0) { printf("own ctty: %s\n", strerror(errno)); _exit(0); }
		struct stat own, st;
		fstat(s, &own);
		int opened = 0;
		for (int i = 0; i < 200; i++) {
			if (i == 100) { printf("/dev/tty opened %d times as our own pty\n", opened); ioctl(s, TIOCNOTTY); } // give it up halfway: /dev/tty must then say ENXIO
			int t = open("/dev/tty", O_RDWR | O_NONBLOCK);
			if (t < 0) continue;
			opened++;
			fstat(t, &st);
			if (st.st_rdev != own.st_rdev) { printf("ADV-GAINED: /dev/tty gave %u:%u, not our %u:%u\n", major(st.st_rdev), minor(st.st_rdev), major(own.st_rdev), minor(own.st_rdev)); drain("/dev/tty", t); }
			close(t);
		}
		int t = open("/dev/tty", O_RDWR | O_NONBLOCK);
		printf("/dev/tty after TIOCNOTTY: %s\n", t < 0 ? strerror(errno) : "opened");
		_exit(0);
	}
	waitpid(c, NULL, 0);
	return 0;
}
