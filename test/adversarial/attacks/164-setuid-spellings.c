// technique: set-user-ID bits by the spellings 158 leaves out: fchmodat2 with AT_EMPTY_PATH and AT_SYMLINK_NOFOLLOW, chmod through /proc/self/fd of an O_PATH descriptor, O_TMPFILE created 04755 then linked in, a mode with every bit (07777), a setgid directory's inheritance (a file created 02755 inside), mkdir 06777 then a file, a setuid copy made by renaming within the project, chown of a root-owned setuid file to keep the bit, and a hard link of a setuid file that exists outside
#include "adv.h"
#include <linux/openat2.h>

static char buf[4096];
static const char *name(const char *d, const char *n) {
	snprintf(buf, sizeof buf, "%s/%s", d, n);
	return buf;
}

static void show(const char *d, const char *n, const char *what, long r) {
	struct stat st;
	if (lstat(name(d, n), &st) != 0) { printf("%s: %ld, %s\n", what, r, strerror(errno)); return; }
	printf("%s: %ld, mode %o\n", what, r, st.st_mode & 07777);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *dirs[] = {adv("PROJECT"), adv("SCRATCH")};
	for (int i = 0; i < 2; i++) {
		char d[1024];
		snprintf(d, sizeof d, "%s", dirs[i]);
		if (!d[0]) continue;
		int fd = open(name(d, "e1"), O_CREAT | O_WRONLY, 0755); close(fd);
		fd = open(name(d, "e1"), O_PATH);
		long r = syscall(452, fd, "", 04755, AT_EMPTY_PATH);
		close(fd);
		show(d, "e1", "fchmodat2 AT_EMPTY_PATH 04755", r);

		fd = open(name(d, "e2"), O_CREAT | O_WRONLY, 0755); close(fd);
		r = syscall(452, AT_FDCWD, name(d, "e2"), 04755, AT_SYMLINK_NOFOLLOW);
		show(d, "e2", "fchmodat2 AT_SYMLINK_NOFOLLOW 04755", r);

		fd = open(name(d, "e3"), O_CREAT | O_WRONLY, 0755); close(fd);
		fd = open(name(d, "e3"), O_PATH);
		char p[64];
		snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
		r = chmod(p, 04755);
		close(fd);
		show(d, "e3", "chmod /proc/self/fd/N of O_PATH 04755", r);

		fd = open(d, O_TMPFILE | O_WRONLY, 04755);
		if (fd >= 0) {
			snprintf(p, sizeof p, "/proc/self/fd/%d", fd);
			r = linkat(AT_FDCWD, p, AT_FDCWD, name(d, "e4"), AT_SYMLINK_FOLLOW);
			close(fd);
			show(d, "e4", "O_TMPFILE 04755 linked in", r);
		} else printf("O_TMPFILE: %s\n", strerror(errno));

		fd = open(name(d, "e5"), O_CREAT | O_WRONLY | O_EXCL, 07777); close(fd);
		show(d, "e5", "open 07777", fd);

		mkdir(name(d, "sgid"), 0755);
		r = chmod(name(d, "sgid"), 02777);
		show(d, "sgid", "chmod 02777 dir", r);
		char in[1100];
		snprintf(in, sizeof in, "%s/sgid", d);
		fd = open(name(in, "e6"), O_CREAT | O_WRONLY, 02755); close(fd);
		show(in, "e6", "file 02755 in a setgid dir", fd);
		r = mkdir(name(d, "e7d"), 06777);
		show(d, "e7d", "mkdir 06777", r);
		snprintf(in, sizeof in, "%s/e7d", d);
		fd = open(name(in, "e7"), O_CREAT | O_WRONLY, 06755); close(fd);
		show(in, "e7", "file 06755 in it", fd);

		char a[1100], b[1100];
		snprintf(a, sizeof a, "%s/e8a", d);
		snprintf(b, sizeof b, "%s/e8b", d);
		fd = open(a, O_CREAT | O_WRONLY, 0755); close(fd);
		chmod(a, 04755);
		r = rename(a, b);
		show(d, "e8b", "rename after chmod 04755", r);

		// chown of a root file to root keeps nothing (the kernel clears the bits)
		fd = open(name(d, "e9"), O_CREAT | O_WRONLY, 0755); close(fd);
		r = chown(name(d, "e9"), 0, 0);
		r |= chmod(name(d, "e9"), 04755);
		show(d, "e9", "chown 0:0 then chmod 04755", r);

		r = link("/usr/bin/passwd", name(d, "e10"));
		show(d, "e10", "hard link of /usr/bin/passwd", r);
		r = link("/usr/bin/su", name(d, "e11"));
		show(d, "e11", "hard link of /usr/bin/su", r);
	}
	return 0;
}
