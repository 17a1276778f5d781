// technique: connect to an outside unix socket through magic links and symlinks: /proc/self/fd/N of an O_PATH descriptor, a project symlink, /proc/self/root, a relative path after fchdir
#include "adv.h"
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
static void talk(const char *label, const char *path) {
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	strncpy(a.sun_path, path, sizeof a.sun_path - 1);
	if (connect(s, (struct sockaddr *)&a, sizeof a) < 0) { printf("%s connect: %s\n", label, strerror(errno)); close(s); return; }
	dump(label, s);
	close(s);
}
int main(void) {
	const char *sock = adv("SOCK_RUN");
	char p[256];
	int fd = open(sock, O_PATH);
	printf("O_PATH: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	talk("magic link", p);
	symlink(sock, "s.link");
	talk("symlink", "s.link");
	snprintf(p, sizeof p, "/proc/self/root%s", sock);
	talk("proc root", p);
	int dir = open(adv("RUNDIR"), O_PATH | O_DIRECTORY);
	fchdir(dir);
	talk("relative after fchdir", "agent.sock");
	return 0;
}
