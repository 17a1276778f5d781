// technique: reach device nodes left in the project through the creation paths of open rather than a plain open: O_CREAT without O_EXCL on an existing node, creat(), openat2 with O_CREAT, O_CREAT through a symlink to the node, and after renaming the node to a name a literal rule allows in the project
// needs: devnodes
#include "adv.h"
#include <linux/openat2.h>
#include <sys/sysmacros.h>

static void got(const char *label, const char *path, int fd) {
	if (fd < 0) { printf("%s %s: %s\n", label, path, strerror(errno)); return; }
	struct stat st;
	fstat(fd, &st);
	if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
		printf("ADV-GAINED: %s %s opened device %u:%u\n", label, path, major(st.st_rdev), minor(st.st_rdev));
	else
		printf("%s %s: not a device (mode %o)\n", label, path, st.st_mode);
	close(fd);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *dir = adv("NODES");
	if (!dir[0]) { printf("no device nodes (not root)\n"); return 0; }
	char d[1024];
	snprintf(d, sizeof d, "%s", dir);
	const char *names[] = {"kmsg", "mem", "port", "loop-control", "tty0", "console", "userfaultfd"};
	char p[1200], l[1200];
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", d, names[i]);
		if (access(p, F_OK) != 0) continue;
		got("O_CREAT|O_RDONLY", p, open(p, O_CREAT | O_RDONLY | O_NONBLOCK, 0644));
		got("O_CREAT|O_RDWR", p, open(p, O_CREAT | O_RDWR | O_NONBLOCK, 0644));
		got("creat", p, creat(p, 0644));
		struct open_how how = {.flags = O_CREAT | O_RDWR | O_NONBLOCK, .mode = 0644};
		got("openat2 O_CREAT", p, syscall(SYS_openat2, AT_FDCWD, p, &how, sizeof how));
		snprintf(l, sizeof l, "%s/%s.lnk", d, names[i]);
		symlink(p, l);
		got("O_CREAT via symlink", l, open(l, O_CREAT | O_RDWR | O_NONBLOCK, 0644));
	}
	// A node renamed inside the project keeps its number: still refused.
	snprintf(p, sizeof p, "%s/kmsg", d);
	snprintf(l, sizeof l, "%s/null", d);
	if (rename(p, l) == 0) got("renamed to null", l, open(l, O_RDONLY | O_NONBLOCK));
	return 0;
}
