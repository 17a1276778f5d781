// technique: as root, open for writing what the kernel guards only by the writer's uid, not by a capability (dropped capabilities do not help there): /proc/sys/kernel/core_pattern (a pipe to a program = code as root outside), modprobe, hostname, vm/drop_caches, /proc/sysrq-trigger, /sys/power/state, /sys/kernel/mm/transparent_hugepage/enabled, a module parameter; by their names, through /proc/self/root, /dev/stdout of a read-only descriptor, /proc/self/fd and a cwd inside /proc/sys. Nothing is written: each descriptor is closed at once
#include "adv.h"

static int gained;

static void try_w(const char *label, int dirfd, const char *path) {
	int fd = openat(dirfd, path, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		printf("ADV-GAINED: %s (%s) open for writing\n", label, path);
		close(fd); // never written
		gained++;
		return;
	}
	printf("%s: %s\n", label, strerror(errno));
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *files[] = {
		"/proc/sys/kernel/core_pattern", "/proc/sys/kernel/modprobe", "/proc/sys/kernel/hostname",
		"/proc/sys/vm/drop_caches", "/proc/sysrq-trigger", "/proc/sys/kernel/sysrq",
		"/sys/power/state", "/sys/kernel/mm/transparent_hugepage/enabled",
		"/sys/module/printk/parameters/time", "/proc/sys/net/ipv4/ip_forward",
	};
	char p[512];
	for (unsigned i = 0; i < sizeof files / sizeof *files; i++) {
		if (access(files[i], F_OK) != 0) { printf("%s: missing\n", files[i]); continue; }
		try_w("name", AT_FDCWD, files[i]);
		snprintf(p, sizeof p, "/proc/self/root%s", files[i]);
		try_w("/proc/self/root", AT_FDCWD, p);
		snprintf(p, sizeof p, "/proc/%d/root%s", getpid(), files[i]);
		try_w("/proc/<pid>/root", AT_FDCWD, p);
		int ro = open(files[i], O_RDONLY);
		if (ro >= 0) {
			snprintf(p, sizeof p, "/proc/self/fd/%d", ro);
			try_w("/proc/self/fd of a read-only descriptor", AT_FDCWD, p);
			snprintf(p, sizeof p, "/dev/fd/%d", ro);
			try_w("/dev/fd of a read-only descriptor", AT_FDCWD, p);
			int saved = dup(1);
			dup2(ro, 1);
			int fd = open("/dev/stdout", O_WRONLY | O_CLOEXEC);
			int e = errno;
			dup2(saved, 1);
			close(saved);
			if (fd >= 0) { printf("ADV-GAINED: /dev/stdout on %s open for writing\n", files[i]); close(fd); }
			else printf("/dev/stdout: %s\n", strerror(e));
			close(ro);
		}
	}
	if (chdir("/proc/sys/kernel") == 0) {
		try_w("cwd /proc/sys/kernel", AT_FDCWD, "core_pattern");
		try_w("cwd ../kernel", AT_FDCWD, "../kernel/modprobe");
	}
	int d = open("/proc/sys", O_RDONLY | O_DIRECTORY);
	if (d >= 0) { try_w("dirfd /proc/sys", d, "kernel/core_pattern"); close(d); }
	return 0;
}
