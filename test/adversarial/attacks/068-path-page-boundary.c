// technique: a path that straddles a page boundary, and one running into an unmapped page (broker's page-bounded reads)
#include "adv.h"
#include <sys/mman.h>
int main(void) {
	char *m = mmap(0, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *s = adv("SECRET");
	size_t n = strlen(s);
	char *p = m + 4096 - n / 2;
	memcpy(p, s, n + 1);
	try_open("straddling", AT_FDCWD, p, O_RDONLY);
	munmap(m + 2 * 4096, 4096);
	char *q = m + 2 * 4096 - n;
	memcpy(q, s, n); /* no terminator: the next page is unmapped */
	long fd = syscall(SYS_openat, AT_FDCWD, q, O_RDONLY);
	printf("unterminated: %ld %s\n", fd, fd < 0 ? strerror(errno) : "");
	if (fd >= 0) dump("unterminated", fd);
	return 0;
}
