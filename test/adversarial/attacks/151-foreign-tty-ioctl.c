// technique: act on another terminal's processes: write into it, TIOCSWINSZ (SIGWINCH), TIOCVHANGUP, vhangup after TIOCSCTTY steal, TIOCCONS, TIOCSETD, on any descriptor the agent can get
// needs: foreign-tty
#include "adv.h"
#include <termios.h>
#include <sys/ioctl.h>

static void act(const char *label, int fd) {
	struct winsize ws = {5, 5, 0, 0};
	printf("%s write: %zd\n", label, write(fd, "ADV-WRITTEN\n", 12));
	printf("%s TIOCSWINSZ: %d %s\n", label, ioctl(fd, TIOCSWINSZ, &ws), strerror(errno));
	int ldisc = 2; // N_MOUSE
	printf("%s TIOCSETD: %d %s\n", label, ioctl(fd, TIOCSETD, &ldisc), strerror(errno));
	printf("%s TIOCCONS: %d %s\n", label, ioctl(fd, TIOCCONS), strerror(errno));
	printf("%s TIOCVHANGUP: %d %s\n", label, ioctl(fd, TIOCVHANGUP), strerror(errno));
}

int main(void) {
	const char *pts = adv("FOREIGN_PTS");
	int fd = open(pts, O_RDWR | O_NONBLOCK | O_NOCTTY);
	printf("open: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
	if (fd >= 0) act("open", fd);
	// Steal it as the controlling terminal of a new session (root can,
	// with argument 1), then hang up the session's terminal.
	if (fork() == 0) {
		setsid();
		int f = open(pts, O_RDWR | O_NONBLOCK);
		if (f < 0) f = fd;
		printf("TIOCSCTTY 1: %d %s\n", ioctl(f, TIOCSCTTY, 1), strerror(errno));
		printf("vhangup: %d %s\n", vhangup(), strerror(errno));
		_exit(0);
	}
	sleep(1);
	// Our own terminals must stay usable: these run on a pty we allocate.
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m >= 0 && grantpt(m) == 0 && unlockpt(m) == 0) {
		struct winsize ws = {10, 10, 0, 0};
		printf("own TIOCSWINSZ: %d\n", ioctl(m, TIOCSWINSZ, &ws));
		printf("own TIOCVHANGUP: %d %s\n", ioctl(m, TIOCVHANGUP), strerror(errno));
	}
	return 0;
}
