// technique: open a FIFO without a reader for writing from 11,000 threads (the broker's open blocks on each), then read the key
// timeout: 60
#include "liveness.h"

static void open_fifo(int idx) {
	int fd = open("flood.fifo", O_WRONLY);
	tally_result(fd, errno);
}

static void body(void) {
	if (mkfifo("flood.fifo", 0600) < 0) { printf("mkfifo: %s\n", strerror(errno)); return; }
	flood(open_fifo, 11000, 500, 40000);
	probe("after the FIFO flood");
	try_open("secret", AT_FDCWD, adv("SECRET"), O_RDONLY);
	int r = open("flood.fifo", O_RDONLY | O_NONBLOCK); // releases the opens still blocked
	printf("reader: %s\n", r >= 0 ? "opened" : strerror(errno));
	flood_kill();
	probe("after the flood ended");
}

int main(void) { return controller(body); }
