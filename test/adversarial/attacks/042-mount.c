// technique: the mount family directly: bind mount, open_tree + move_mount, fsopen, chroot
#include "adv.h"
#include <sys/mount.h>
int main(void) {
	char p[1024];
	snprintf(p, sizeof p, "%s/.ssh", adv("HOME"));
	printf("mount bind: %d %s\n", mount(p, "src", 0, MS_BIND, 0), strerror(errno));
	long t = syscall(SYS_open_tree, AT_FDCWD, p, 1 /*OPEN_TREE_CLONE*/);
	printf("open_tree: %ld %s\n", t, t < 0 ? strerror(errno) : "");
	if (t >= 0) try_open("via tree", t, "id_rsa", O_RDONLY);
	printf("fsopen: %ld %s\n", syscall(SYS_fsopen, "tmpfs", 0), strerror(errno));
	printf("chroot: %d %s\n", chroot(adv("HOME")), strerror(errno));
	try_open("after chroot", AT_FDCWD, "/.ssh/id_rsa", O_RDONLY);
	return 0;
}
