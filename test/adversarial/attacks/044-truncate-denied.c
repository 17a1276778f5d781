// technique: truncate(2), ftruncate on an O_PATH fd, and O_TRUNC opens of files outside the writable roots
#include "adv.h"
int main(void) {
	const char *f = adv("INTEGRITY");
	printf("truncate: %d %s\n", truncate(f, 0), strerror(errno));
	int fd = open(f, O_PATH);
	printf("ftruncate O_PATH: %d %s\n", ftruncate(fd, 0), strerror(errno));
	printf("open O_TRUNC: %d %s\n", open(f, O_RDONLY | O_TRUNC), strerror(errno));
	printf("creat: %d %s\n", creat(f, 0644), strerror(errno));
	char p[64];
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	printf("truncate via /proc/self/fd: %d %s\n", truncate(p, 0), strerror(errno));
	printf("truncate outside: %d %s\n", truncate(adv("OUTSIDE"), 1), strerror(errno));
	return 0;
}
