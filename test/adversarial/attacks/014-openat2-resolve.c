// technique: openat2 with RESOLVE_IN_ROOT / RESOLVE_BENEATH / NO_MAGICLINKS variants and an oversized open_how
#include "adv.h"
#include <linux/openat2.h>
static void o2(const char *label, int dfd, const char *path, unsigned long long resolve, size_t size) {
	struct { struct open_how h; char pad[64]; } how;
	memset(&how, 0, sizeof how);
	how.h.flags = O_RDONLY;
	how.h.resolve = resolve;
	int fd = syscall(SYS_openat2, dfd, path, &how, size);
	if (fd < 0) { printf("%s: %s\n", label, strerror(errno)); return; }
	dump(label, fd);
	close(fd);
}
int main(void) {
	int home = open(adv("HOME"), O_PATH | O_DIRECTORY);
	int root = open("/", O_PATH | O_DIRECTORY);
	o2("in-root home", home, ".ssh/id_rsa", RESOLVE_IN_ROOT, sizeof(struct open_how));
	o2("beneath home", home, ".ssh/id_rsa", RESOLVE_BENEATH, sizeof(struct open_how));
	o2("in-root /", root, adv("SECRET") + 1, RESOLVE_IN_ROOT, sizeof(struct open_how));
	o2("abs cached", AT_FDCWD, adv("SECRET"), RESOLVE_CACHED, sizeof(struct open_how));
	o2("no-xdev", AT_FDCWD, adv("SECRET"), RESOLVE_NO_XDEV, sizeof(struct open_how));
	o2("big how", AT_FDCWD, adv("SECRET"), 0, sizeof(struct open_how) + 64);
	o2("small how", AT_FDCWD, adv("SECRET"), 0, 16);
	symlink(adv("SECRET"), "o2link");
	o2("in-root symlink", AT_FDCWD, "o2link", RESOLVE_IN_ROOT, sizeof(struct open_how));
	return 0;
}
