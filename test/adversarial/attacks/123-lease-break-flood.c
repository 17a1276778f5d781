// technique: hold a read lease on a file in the project and open it for writing from 11,000 threads (the broker's open waits for the lease break, up to lease-break-time), then read the key
// timeout: 90
#include "liveness.h"

static void open_leased(int idx) {
	int fd = open("leased.txt", O_WRONLY);
	tally_result(fd, errno);
}

static void body(void) {
	signal(SIGIO, SIG_IGN); // the lease break notice
	int fd = open("leased.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) close(fd);
	fd = open("leased.txt", O_RDONLY);
	if (fd < 0 || fcntl(fd, F_SETLEASE, F_RDLCK) < 0) { printf("lease: %s\n", strerror(errno)); return; }
	flood(open_leased, 11000, 500, 40000);
	probe("after the lease flood");
	try_open("secret", AT_FDCWD, adv("SECRET"), O_RDONLY);
	fcntl(fd, F_SETLEASE, F_UNLCK); // releases the opens still waiting
	close(fd);
	flood_kill();
	probe("after the flood ended");
}

int main(void) { return controller(body); }
