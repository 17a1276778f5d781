// technique: open the key with O_PATH (not a read), then reopen it read-only through /proc/self/fd/N
// fast: yes
#include "adv.h"
int main(void) {
	const char *targets[] = {"SECRET", "OUTSIDE"};
	for (int i = 0; i < 2; i++) {
		int fd = open(adv(targets[i]), O_PATH);
		printf("%s O_PATH: %d %s\n", targets[i], fd, fd < 0 ? strerror(errno) : "");
		if (fd < 0) continue;
		char p[64];
		snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
		try_open("reopen", AT_FDCWD, p, O_RDONLY);
		snprintf(p, sizeof p, "/proc/%d/fd/%d", getpid(), fd);
		try_open("reopen-pid", AT_FDCWD, p, O_RDONLY);
		snprintf(p, sizeof p, "/dev/fd/%d", fd);
		try_open("reopen-devfd", AT_FDCWD, p, O_RDONLY);
		dump("read(O_PATH)", fd);
	}
	return 0;
}
