// technique: bind the socket names outside clients connect to (an X display, ICE, D-Bus, tmux, ssh-agent, gpg-agent, a bus in the runtime directory), as paths and as abstract names, so that they connect in to the agent
#include "adv.h"
#include <sys/socket.h>
#include <sys/un.h>
#include <stddef.h>
static void try(const char *name, int abstract) {
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	socklen_t len;
	if (abstract) { strncpy(a.sun_path + 1, name, sizeof a.sun_path - 2); len = offsetof(struct sockaddr_un, sun_path) + 1 + strlen(name); }
	else { strncpy(a.sun_path, name, sizeof a.sun_path - 1); len = sizeof a; }
	if (bind(s, (struct sockaddr *)&a, len) == 0 && listen(s, 1) == 0) {
		printf("AIXADV-BOUND-SERVICE-NAME %s%s\n", abstract ? "@" : "", name);
		if (!abstract) unlink(name);
	} else printf("bind %s%s: %s\n", abstract ? "@" : "", name, strerror(errno));
	close(s);
}
int main(void) {
	char p[512], d[512];
	int n = 900 + getpid() % 90;
	mkdir("/tmp/.X11-unix", 01777);
	mkdir("/tmp/.ICE-unix", 01777);
	snprintf(p, sizeof p, "/tmp/.X11-unix/X%d", n); try(p, 0); try(p, 1);
	snprintf(p, sizeof p, "/tmp/.ICE-unix/%d", getpid()); try(p, 0); try(p, 1);
	snprintf(p, sizeof p, "/tmp/dbus-adv%d", getpid()); try(p, 0); try(p, 1);
	snprintf(d, sizeof d, "/tmp/tmux-%d", getuid()); mkdir(d, 0700);
	snprintf(p, sizeof p, "%s/adv%d", d, getpid()); try(p, 0);
	snprintf(d, sizeof d, "/tmp/ssh-adv%d", getpid()); mkdir(d, 0700);
	snprintf(p, sizeof p, "%s/agent.%d", d, getpid()); try(p, 0); rmdir(d);
	snprintf(d, sizeof d, "%s/gnupg", adv("PROJECT")); mkdir(d, 0700);
	snprintf(p, sizeof p, "%s/S.gpg-agent", d); try(p, 0);
	snprintf(p, sizeof p, "%s/bus", adv("PROJECT")); try(p, 0);
	const char *run = getenv("XDG_RUNTIME_DIR");
	if (run) { snprintf(p, sizeof p, "%s/bus", run); try(p, 0); }
	snprintf(p, sizeof p, "/run/user/%d/bus", getuid()); try(p, 0);
	snprintf(p, sizeof p, "%s/abstract-outside.sock", adv("HOME")); try(p, 1);
	return 0;
}
