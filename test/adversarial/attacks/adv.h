// adv.h: shared helpers of the C attacks. The runner writes the world's
// paths to $PROJECT/.adv/world.env (KEY=VALUE lines); each attack prints
// whatever it managed to read, and the runner looks for canaries in it.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <unistd.h>

static char adv_env[8192];

// adv returns the world variable key ("" when missing).
static const char *adv(const char *key) {
	if (!adv_env[0]) {
		int fd = open(".adv/world.env", O_RDONLY);
		if (fd < 0) { perror("open .adv/world.env"); exit(2); }
		ssize_t n = read(fd, adv_env, sizeof adv_env - 1);
		close(fd);
		if (n <= 0) exit(2);
		adv_env[n] = 0;
	}
	static char val[1024];
	size_t kl = strlen(key);
	for (char *p = adv_env; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, key, kl) && p[kl] == '=') {
			char *e = strchr(p, '\n');
			size_t n = e ? (size_t)(e - p - kl - 1) : strlen(p + kl + 1);
			memcpy(val, p + kl + 1, n);
			val[n] = 0;
			return val;
		}
	}
	return "";
}

// dump prints what fd yields, labelled.
static void dump(const char *label, int fd) {
	char buf[4096];
	ssize_t n = read(fd, buf, sizeof buf - 1);
	if (n < 0) { printf("%s: read: %s\n", label, strerror(errno)); return; }
	buf[n] = 0;
	printf("%s: read %zd bytes: %s\n", label, n, buf);
}

// try opens path with flags and dumps it, reporting the errno on failure.
static void try_open(const char *label, int dirfd, const char *path, int flags) {
	int fd = openat(dirfd, path, flags);
	if (fd < 0) { printf("%s: %s\n", label, strerror(errno)); return; }
	dump(label, fd);
	close(fd);
}
