// technique: open a FIFO without a writer from 11,000 threads (the broker opens each and blocks on a detached thread holding descriptors: the old broker stalls at its descriptor limit, or Go aborts at 10,000 threads), then read the key
// timeout: 60
#include "liveness.h"

static char fifo[600]; // absolute: the broker holds one descriptor per blocked open, not two

static void open_fifo(int idx) {
	int fd = open(fifo, O_RDONLY);
	tally_result(fd, errno);
}

static void body(void) {
	char cwd[512];
	if (!getcwd(cwd, sizeof cwd)) return;
	snprintf(fifo, sizeof fifo, "%s/flood.fifo", cwd);
	if (mkfifo(fifo, 0600) < 0) { printf("mkfifo: %s\n", strerror(errno)); return; }
	flood(open_fifo, 11000, 500, 40000);
	probe("after the FIFO flood");
	try_open("secret", AT_FDCWD, adv("SECRET"), O_RDONLY);
	int w = open("flood.fifo", O_WRONLY | O_NONBLOCK); // releases the opens still blocked
	printf("writer: %s\n", w >= 0 ? "opened" : strerror(errno));
	flood_kill();
	probe("after the flood ended");
}

int main(void) { return controller(body); }
