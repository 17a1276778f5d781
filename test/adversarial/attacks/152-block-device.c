// technique: read a block device (a loop device holding a canary image) as root: the node in /dev, a node left in the project, new nodes made with mknod, a hard link
// needs: loopdev
#include "adv.h"
#include <sys/sysmacros.h>

int main(void) {
	char p[512];
	if (geteuid() != 0) { printf("not root: no block device to reach\n"); return 0; }
	int maj = atoi(adv("LOOP_MAJOR")), mnr = atoi(adv("LOOP_MINOR"));
	dev_t dev = makedev(maj, mnr);
	try_open("dev-node", AT_FDCWD, adv("LOOP_DEV"), O_RDONLY);
	try_open("project-node", AT_FDCWD, adv("LOOP_NODE"), O_RDONLY);
	try_open("project-node-rw", AT_FDCWD, adv("LOOP_NODE"), O_RDWR);
	snprintf(p, sizeof p, "%s/blk", adv("PROJECT"));
	printf("mknod project: %d %s\n", mknod(p, S_IFBLK | 0600, dev), strerror(errno));
	try_open("mknod-project", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof p, "%s/blk", adv("SCRATCH"));
	printf("mknodat scratch: %d %s\n", mknodat(AT_FDCWD, p, S_IFBLK | 0600, dev), strerror(errno));
	try_open("mknod-scratch", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof p, "%s/blk-link", adv("PROJECT"));
	printf("link: %d %s\n", link(adv("LOOP_DEV"), p), strerror(errno));
	try_open("link", AT_FDCWD, p, O_RDONLY);
	return 0;
}
