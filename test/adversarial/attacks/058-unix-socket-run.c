// technique: connect to a unix socket of an outside service outside every allowed folder ($XDG_RUNTIME_DIR)
#include "adv.h"
#include <sys/socket.h>
#include <sys/un.h>
#include <stddef.h>
static void talk(const char *label, const char *path, int abstract) {
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	socklen_t len;
	if (abstract) { strncpy(a.sun_path + 1, path, sizeof a.sun_path - 2); len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(path); }
	else { strncpy(a.sun_path, path, sizeof a.sun_path - 1); len = sizeof a; }
	if (connect(s, (struct sockaddr *)&a, len) < 0) { printf("%s connect: %s\n", label, strerror(errno)); close(s); return; }
	dump(label, s);
	close(s);
}
int main(void) {
	talk("run socket", adv("SOCK_RUN"), 0);
	return 0;
}
