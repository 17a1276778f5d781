// technique: an O_PATH descriptor of ~/.ssh used as a dirfd and through /proc/self/fd/N/
#include "adv.h"
int main(void) {
	char p[1024];
	snprintf(p, sizeof p, "%s/.ssh", adv("HOME"));
	int d = open(p, O_PATH | O_DIRECTORY);
	printf("O_PATH dir: %d (%s)\n", d, d < 0 ? strerror(errno) : "ok");
	if (d < 0) return 0;
	try_open("openat(dirfd)", d, "id_rsa", O_RDONLY);
	snprintf(p, sizeof p, "/proc/self/fd/%d/id_rsa", d);
	try_open("proc-fd-dir", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof p, "/dev/fd/%d/id_rsa", d);
	try_open("dev-fd-dir", AT_FDCWD, p, O_RDONLY);
	int home = open(adv("HOME"), O_PATH | O_DIRECTORY);
	try_open("openat(home)", home, ".aws/credentials", O_RDONLY);
	try_open("openat(home, ..)", home, "../outside/secret.txt", O_RDONLY);
	return 0;
}
