// technique: a static binary (no interposer possible) issuing raw open, openat and creat-style syscalls on the key
// build: static
// fast: yes
#include "adv.h"
int main(void) {
	const char *s = adv("SECRET");
	long fd = syscall(SYS_open, s, O_RDONLY);
	printf("raw open: %ld\n", fd); if (fd >= 0) dump("open", fd);
	fd = syscall(SYS_openat, AT_FDCWD, s, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	printf("raw openat: %ld\n", fd); if (fd >= 0) dump("openat", fd);
	fd = syscall(SYS_openat, AT_FDCWD, s, O_RDWR);
	printf("raw openat rdwr: %ld\n", fd); if (fd >= 0) dump("openat rdwr", fd);
	return 0;
}
