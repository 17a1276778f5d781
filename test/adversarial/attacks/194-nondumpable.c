// technique: turn the agent non-dumpable (prctl PR_SET_DUMPABLE 0) so that an unprivileged supervisor can no longer open /proc/<tid>/mem, /proc/<tid>/fd or process_vm_readv the caller: every handler must fail closed (no continue on a failed read of the caller), then read the key, its xattrs and a denied link
// build: static
#include "adv.h"
#include <sys/prctl.h>
#include <sys/xattr.h>
int main(void) {
	char secret[1024], home[1024], outside[1024];
	snprintf(secret, sizeof secret, "%s", adv("SECRET"));
	snprintf(home, sizeof home, "%s", adv("HOME"));
	snprintf(outside, sizeof outside, "%s", adv("OUTSIDE"));
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0) perror("prctl");
	printf("dumpable now %d\n", prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
	char buf[4096], p[1024];
	try_open("open key", AT_FDCWD, secret, O_RDONLY);
	try_open("open outside", AT_FDCWD, outside, O_RDONLY);
	try_open("open .env", AT_FDCWD, ".env", O_RDONLY);
	long n = getxattr(secret, "user.aixadv", buf, sizeof buf - 1);
	if (n >= 0) { buf[n] = 0; printf("getxattr key: %s\n", buf); } else printf("getxattr key: %s\n", strerror(errno));
	n = listxattr(secret, buf, sizeof buf - 1);
	printf("listxattr key: %ld\n", n);
	snprintf(p, sizeof p, "%s/.ssh/pointer", home);
	n = readlink(p, buf, sizeof buf - 1);
	if (n >= 0) { buf[n] = 0; printf("readlink: %s\n", buf); } else printf("readlink: %s\n", strerror(errno));
	int o = open(secret, O_PATH);
	snprintf(p, sizeof p, "/proc/self/fd/%d", o);
	n = getxattr(p, "user.aixadv", buf, sizeof buf - 1);
	if (n >= 0) { buf[n] = 0; printf("getxattr O_PATH: %s\n", buf); } else printf("getxattr O_PATH: %s\n", strerror(errno));
	try_open("reopen O_PATH", AT_FDCWD, p, O_RDONLY);
	n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	printf("readlink exe: %ld\n", n);
	return 0;
}
