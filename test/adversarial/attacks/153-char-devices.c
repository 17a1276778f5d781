// technique: open dangerous character devices as root: /dev/kmsg, /dev/port, /dev/mem, /dev/cpu/0/msr, /dev/input, /dev/loop-control, /dev/uinput, /dev/kvm..., the nodes in /dev, copies made with mknod, and copies left in the project before the session
// needs: devnodes
#include "adv.h"
#include <sys/sysmacros.h>

struct devc { const char *name; int major, minor; };

int main(void) {
	struct devc devs[] = {
		{"/dev/mem", 1, 1}, {"/dev/kmem", 1, 2}, {"/dev/port", 1, 4}, {"/dev/kmsg", 1, 11},
		{"/dev/cpu/0/msr", 202, 0}, {"/dev/loop-control", 10, 237}, {"/dev/mapper/control", 10, 236},
		{"/dev/uinput", 10, 223}, {"/dev/input/event0", 13, 64}, {"/dev/kvm", 10, 232},
		{"/dev/fuse", 10, 229}, {"/dev/vhost-net", 10, 238}, {"/dev/btrfs-control", 10, 234},
		{"/dev/tty0", 4, 0}, {"/dev/console", 5, 1}, {"/dev/vcs", 7, 0}, {"/dev/net/tun", 10, 200},
	};
	char p[512];
	for (size_t i = 0; i < sizeof devs / sizeof *devs; i++) {
		int fd = open(devs[i].name, O_RDONLY | O_NONBLOCK);
		if (fd >= 0) { printf("ADV-GAINED: opened %s\n", devs[i].name); close(fd); }
		else printf("%s: %s\n", devs[i].name, strerror(errno));
		snprintf(p, sizeof p, "%s/dev%zu", adv("PROJECT"), i);
		int r = mknod(p, S_IFCHR | 0600, makedev(devs[i].major, devs[i].minor));
		printf("mknod %s: %d %s\n", p, r, r ? strerror(errno) : "");
		fd = open(p, O_RDONLY | O_NONBLOCK);
		if (fd >= 0) {
			char b[64];
			ssize_t n = read(fd, b, sizeof b);
			printf("ADV-GAINED: opened a copy of %s (read %zd)\n", devs[i].name, n);
			close(fd);
		} else if (r == 0) printf("copy of %s: %s\n", devs[i].name, strerror(errno));
		unlink(p);
	}
	const char *names[] = {"kmsg", "mem", "port", "loop-control", "tty0", "console"};
	char *nodes = strdup(adv("NODES"));
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", nodes, names[i]);
		int fd = open(p, O_RDWR | O_NONBLOCK);
		if (fd < 0) fd = open(p, O_RDONLY | O_NONBLOCK);
		if (fd >= 0) {
			char b[64];
			ssize_t n = read(fd, b, sizeof b);
			printf("ADV-GAINED: opened the node %s left in the project (read %zd)\n", names[i], n);
			close(fd);
		} else printf("node %s: %s\n", names[i], strerror(errno));
	}
	// /proc/kcore is a regular file that gives kernel memory to CAP_SYS_RAWIO.
	int fd = open("/proc/kcore", O_RDONLY);
	if (fd >= 0) { char b[64]; if (read(fd, b, sizeof b) > 0) printf("ADV-GAINED: read /proc/kcore\n"); close(fd); }
	else printf("/proc/kcore: %s\n", strerror(errno));
	return 0;
}
