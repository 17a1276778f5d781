// technique: a static binary reading symlink targets in denied folders with raw readlink and readlinkat: absolute, dirfd-relative from an O_PATH directory, readlinkat(fd, "") on an O_PATH|O_NOFOLLOW descriptor of the link, /proc/self/fd/N/name
// build: static
// fast: yes
#include "adv.h"
static void show(const char *label, long n, const char *buf) {
	if (n < 0) printf("%s: %s\n", label, strerror(errno));
	else printf("%s: %.*s\n", label, (int)n, buf);
}
int main(void) {
	char home[1024];
	snprintf(home, sizeof home, "%s", adv("HOME"));
	char p[1024], buf[4096], outdir[1024];
	snprintf(outdir, sizeof outdir, "%s", adv("OUTSIDE"));
	*strrchr(outdir, '/') = 0;
	const char *dirs[] = { ".ssh", ".aws", NULL };
	const char *names[] = { "pointer", "link", "link" };
	for (int i = 0; i < 3; i++) {
		if (i < 2) snprintf(p, sizeof p, "%s/%s", home, dirs[i]); else snprintf(p, sizeof p, "%s", outdir);
		char full[1200];
		snprintf(full, sizeof full, "%s/%s", p, names[i]);
		show("readlink", syscall(SYS_readlink, full, buf, sizeof buf), buf);
		show("readlinkat cwd", syscall(SYS_readlinkat, AT_FDCWD, full, buf, sizeof buf), buf);
		int d = open(p, O_PATH | O_DIRECTORY);
		show("readlinkat dirfd", syscall(SYS_readlinkat, d, names[i], buf, sizeof buf), buf);
		int l = open(full, O_PATH | O_NOFOLLOW);
		show("readlinkat empty", syscall(SYS_readlinkat, l, "", buf, sizeof buf), buf);
		snprintf(full, sizeof full, "/proc/self/fd/%d/%s", d, names[i]);
		show("readlink procfd", syscall(SYS_readlink, full, buf, sizeof buf), buf);
		snprintf(full, sizeof full, "/proc/self/fd/%d", l);
		show("readlink procfd link", syscall(SYS_readlink, full, buf, sizeof buf), buf);
		show("readlink tiny", syscall(SYS_readlink, full, buf, 3), buf);
	}
	return 0;
}
