// technique: connect 11,000 blocking unix sockets to a listener whose backlog is full and which never accepts (the broker performs each connect and blocks), then read the key
// timeout: 60
#include "liveness.h"
#include <sys/socket.h>
#include <sys/un.h>

static struct sockaddr_un addr = {.sun_family = AF_UNIX};

static void connect_full(int idx) {
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s < 0) { tally_result(-1, errno); return; }
	int rc = connect(s, (struct sockaddr *)&addr, sizeof addr);
	tally_result(rc, errno);
}

static void body(void) {
	char cwd[512];
	if (!getcwd(cwd, sizeof cwd)) return;
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s/flood.sock", cwd);
	int l = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(l, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(l, 0) < 0) {
		printf("listen: %s\n", strerror(errno));
		return;
	}
	flood(connect_full, 11000, 500, 40000);
	probe("after the connect flood");
	try_open("secret", AT_FDCWD, adv("SECRET"), O_RDONLY);
	close(l); // the blocked connects fail with ECONNREFUSED
	flood_kill();
	probe("after the flood ended");
}

int main(void) { return controller(body); }
