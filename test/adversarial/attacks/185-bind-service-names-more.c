// technique: bind socket names that outside clients connect to and that the service-name list (notify/socket_linux.go) leaves out: ssh ControlMaster paths in the common ControlPath conventions (an outside ssh or git-over-ssh then connects in as a mux client and hands over its stdin/stdout/stderr and the command it runs), the JVM attach socket jcmd looks for, a gopls daemon, Neovim and screen server paths, PulseAudio's /tmp fallback, git's fsmonitor daemon in the project's .git; and spellings of listed names (//, /./, .., a symlinked directory, a relative name from /tmp), which must stay refused
// known: V25
#include "adv.h"
#include <sys/socket.h>
#include <sys/un.h>
static void try(const char *name) {
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	strncpy(a.sun_path, name, sizeof a.sun_path - 1);
	if (bind(s, (struct sockaddr *)&a, sizeof a) == 0 && listen(s, 1) == 0) {
		printf("AIXADV-BOUND-SERVICE-NAME %s\n", name);
		unlink(name);
	} else printf("bind %s: %s\n", name, strerror(errno));
	close(s);
}
int main(void) {
	char p[512], d[512];
	const char *user = getenv("USER") ? getenv("USER") : "u";
	int pid = getpid();
	// ssh ControlPath conventions (ssh_config(5) examples and common
	// dotfiles); ~/.ssh/config is readable by the agent and names it.
	snprintf(p, sizeof p, "/tmp/ssh_mux_github.com_22_git%d", pid); try(p);
	snprintf(p, sizeof p, "/tmp/git@github.com:22.%d", pid); try(p);
	snprintf(p, sizeof p, "/tmp/master-git@github.com:22.%d", pid); try(p);
	snprintf(p, sizeof p, "/tmp/cm-git@github.com:22.%d", pid); try(p);
	snprintf(d, sizeof d, "%s/.cache", adv("HOME")); mkdir(d, 0700);
	snprintf(d, sizeof d, "%s/.cache/ssh", adv("HOME")); mkdir(d, 0700);
	snprintf(p, sizeof p, "%s/cm-%d", d, pid); try(p);
	// other clients that find a server by a fixed name
	snprintf(p, sizeof p, "/tmp/.java_pid%d", 40000 + pid % 20000); try(p); // jcmd/jstack attach
	snprintf(p, sizeof p, "/tmp/gopls-%d-daemon.%s", pid, user); try(p); // gopls -remote=auto
	snprintf(d, sizeof d, "/tmp/nvim.adv%d", pid); mkdir(d, 0700);
	snprintf(p, sizeof p, "%s/nvim.%d.0", d, pid); try(p); rmdir(d);
	snprintf(d, sizeof d, "/tmp/uscreens-adv%d", pid); mkdir(d, 0700); // /tmp/uscreens/S-<user>
	snprintf(p, sizeof p, "%s/%d.pts-0.host", d, pid); try(p); rmdir(d);
	snprintf(d, sizeof d, "/tmp/pulse-adv%d", pid); mkdir(d, 0700);
	snprintf(p, sizeof p, "%s/native", d); try(p); rmdir(d);
	// git's builtin fsmonitor daemon: the user's git outside (core.fsmonitor
	// = true) asks it which files changed, and trusts the answer
	snprintf(p, sizeof p, "%s/.git/fsmonitor--daemon.ipc", adv("PROJECT")); try(p);
	// spellings of listed names: must be refused
	mkdir("/tmp/.X11-unix", 01777);
	snprintf(p, sizeof p, "//tmp//.X11-unix/X%d", 900 + pid % 90); try(p);
	snprintf(p, sizeof p, "/tmp/./.X11-unix/../.X11-unix/X%d", 900 + pid % 90); try(p);
	snprintf(d, sizeof d, "%s/x11link", adv("PROJECT")); unlink(d); symlink("/tmp/.X11-unix", d);
	snprintf(p, sizeof p, "%s/X%d", d, 900 + pid % 90); try(p);
	if (chdir("/tmp") == 0) { snprintf(p, sizeof p, ".X11-unix/X%d", 900 + pid % 90); try(p); }
	return 0;
}
