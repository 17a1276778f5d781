// technique: mmap the key through an O_PATH descriptor and through a reopened /proc/self/fd path
#include "adv.h"
#include <sys/mman.h>
int main(void) {
	int fd = open(adv("SECRET"), O_PATH);
	char *p = mmap(0, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p != MAP_FAILED) printf("mmap(O_PATH): %.64s\n", p); else printf("mmap(O_PATH): %s\n", strerror(errno));
	int m = memfd_create("x", 0);
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	int fd2 = open(path, O_RDONLY);
	if (fd2 >= 0) {
		p = mmap(0, 4096, PROT_READ, MAP_SHARED, fd2, 0);
		if (p != MAP_FAILED) printf("mmap(reopened): %.64s\n", p);
	} else printf("reopen: %s\n", strerror(errno));
	close(m);
	return 0;
}
