// technique: set-user-ID and set-group-ID bits through every raw mode-taking syscall: open, creat, openat2 with O_CREAT, mknodat S_IFREG, fchmod, chmod, fchmodat, fchmodat2, on a fresh file each
#include "adv.h"
#include <linux/openat2.h>

static char *name(const char *dir, const char *n) {
	static char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, n);
	return p;
}

int main(void) {
	const char *dirs[] = {strdup(adv("PROJECT")), strdup(adv("SCRATCH"))};
	for (int i = 0; i < 2; i++) {
		const char *d = dirs[i];
		int fd = open(name(d, "r1"), O_CREAT | O_WRONLY | O_EXCL, 04755);
		printf("open O_CREAT 04755: %d\n", fd); close(fd);
		fd = creat(name(d, "r2"), 06755);
		printf("creat 06755: %d\n", fd); close(fd);
		struct open_how how = {.flags = O_CREAT | O_WRONLY, .mode = 04755};
		fd = syscall(SYS_openat2, AT_FDCWD, name(d, "r3"), &how, sizeof how);
		printf("openat2 04755: %d\n", fd); close(fd);
		printf("mknodat S_IFREG|04755: %d\n", mknodat(AT_FDCWD, name(d, "r4"), S_IFREG | 04755, 0));
		fd = open(name(d, "r5"), O_CREAT | O_WRONLY, 0755);
		printf("fchmod 04755: %d\n", fchmod(fd, 04755)); close(fd);
		fd = open(name(d, "r6"), O_CREAT | O_RDONLY, 0755); close(fd);
		printf("chmod 02755: %d\n", chmod(name(d, "r6"), 02755));
		fd = open(name(d, "r7"), O_CREAT | O_RDONLY, 0755); close(fd);
		printf("fchmodat 04711: %d\n", fchmodat(AT_FDCWD, name(d, "r7"), 04711, 0));
		fd = open(name(d, "r8"), O_CREAT | O_RDONLY, 0755); close(fd);
		printf("fchmodat2 06755: %ld\n", syscall(452, AT_FDCWD, name(d, "r8"), 06755, 0));
		// A read-only descriptor is enough for fchmod of a file we own.
		fd = open(name(d, "r9"), O_CREAT | O_WRONLY, 0755); close(fd);
		fd = open(name(d, "r9"), O_RDONLY);
		printf("fchmod on read-only fd: %d\n", fchmod(fd, 04755)); close(fd);
	}
	return 0;
}
