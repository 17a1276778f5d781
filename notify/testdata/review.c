// review.c: attacks from the 2026-11-30 security review, run statically in
// the sandbox by review_linux_test.go. Each mode prints one line per try,
// "name: ok ..." or "name: errno=NAME".
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct file_attr_v0 {
	uint64_t fa_xflags;
	uint32_t fa_extsize, fa_nextents, fa_projid, fa_cowextsize;
};

#define NR_FILE_GETATTR 468
#define NR_FILE_SETATTR 469
#define XFLAG_APPEND 0x00000010
#define XFLAG_NODUMP 0x00000080

static void result(const char *name, long r) {
	if (r < 0)
		printf("%s: errno=%s\n", name, strerrorname_np(errno));
	else
		printf("%s: ok %ld\n", name, r);
}

int main(int argc, char **argv) {
	if (argc < 2)
		return 2;
	const char *mode = argv[1];
	if (!strcmp(mode, "file_getattr") && argc == 3) {
		struct file_attr_v0 fa = {0};
		long r = syscall(NR_FILE_GETATTR, AT_FDCWD, argv[2], &fa, sizeof fa, 0);
		result("file_getattr", r);
		return 0;
	}
	if (!strcmp(mode, "file_setattr") && argc == 3) {
		struct file_attr_v0 fa = {0};
		long r = syscall(NR_FILE_GETATTR, AT_FDCWD, argv[2], &fa, sizeof fa, 0);
		result("file_getattr", r);
		fa.fa_xflags |= XFLAG_NODUMP;
		r = syscall(NR_FILE_SETATTR, AT_FDCWD, argv[2], &fa, sizeof fa, 0);
		result("file_setattr-nodump", r);
		fa.fa_xflags |= XFLAG_APPEND;
		r = syscall(NR_FILE_SETATTR, AT_FDCWD, argv[2], &fa, sizeof fa, 0);
		result("file_setattr-append", r);
		return 0;
	}
	if (!strcmp(mode, "opath-fstat") && argc == 3) {
		int fd = open(argv[2], O_PATH);
		if (fd < 0) {
			result("opath", -1);
			return 0;
		}
		struct stat st;
		long r = syscall(SYS_fstat, fd, &st);
		if (r < 0)
			result("fstat", r);
		else
			printf("fstat: ok size=%lld\n", (long long)st.st_size);
		return 0;
	}
	if (!strcmp(mode, "fstatat-empty") && argc == 3) {
		struct stat st;
		long r = syscall(SYS_newfstatat, AT_FDCWD, argv[2], &st, AT_EMPTY_PATH);
		result("fstatat-empty", r);
		r = syscall(SYS_statx, AT_FDCWD, argv[2], AT_EMPTY_PATH, 0x7ff, &st);
		result("statx-empty", r);
		return 0;
	}
	if (!strcmp(mode, "readlink-small") && argc == 3) {
		char buf[16];
		memset(buf, 'X', sizeof buf);
		long r = syscall(SYS_readlink, argv[2], buf, 3L);
		if (r < 0) {
			result("readlink-small", r);
			return 0;
		}
		printf("readlink-small: ok %ld buf=%.8s\n", r, buf);
		r = syscall(SYS_readlink, argv[2], buf, 0x100000000L); /* size 0 in the low word */
		result("readlink-size-highword", r);
		return 0;
	}
	if (!strcmp(mode, "opath-escape") && argc == 3) {
		int fd = open(argv[2], O_PATH);
		if (fd < 0) {
			result("opath", -1);
			return 0;
		}
		char proc[64], buf[256];
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
		int rfd = open(proc, O_RDONLY);
		if (rfd < 0) {
			result("reopen", -1);
		} else {
			long n = read(rfd, buf, sizeof buf - 1);
			buf[n > 0 ? n : 0] = 0;
			printf("reopen: ok %s\n", strstr(buf, "Q0FOQVJZ") ? "LEAK" : "stub");
		}
		result("linkat-empty", syscall(SYS_linkat, fd, "", AT_FDCWD, "copy-empty", AT_EMPTY_PATH));
		result("linkat-proc", syscall(SYS_linkat, AT_FDCWD, proc, AT_FDCWD, "copy-proc", AT_SYMLINK_FOLLOW));
		return 0;
	}
	if (!strcmp(mode, "manygroups") && argc == 3) {
		static gid_t gids[4000];
		for (int i = 0; i < 4000; i++)
			gids[i] = 1000000 + i;
		result("setgroups", syscall(SYS_setgroups, 4000L, gids));
		result("open-after-setgroups", open(argv[2], O_RDONLY));
		return 0;
	}
	if (!strcmp(mode, "dgram")) {
		struct {
			const char *name;
			long domain, type;
		} tries[] = {
			{"dgram", AF_UNIX, SOCK_DGRAM},
			{"dgram-cloexec-nonblock", AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK},
			{"raw", AF_UNIX, SOCK_RAW},
			{"dgram-highword-type", AF_UNIX, 0x100000000L | SOCK_DGRAM},
			{"dgram-highword-domain", 0x100000000L | AF_UNIX, SOCK_DGRAM},
			{"dgram-bit4", AF_UNIX, 0x10 | SOCK_DGRAM},
			{"packet", AF_UNIX, 10},
			{"rdm", AF_UNIX, 4},
		};
		for (size_t i = 0; i < sizeof tries / sizeof tries[0]; i++) {
			long r = syscall(SYS_socket, tries[i].domain, tries[i].type, 0L);
			result(tries[i].name, r);
			int sv[2];
			char name[80];
			snprintf(name, sizeof name, "pair-%s", tries[i].name);
			r = syscall(SYS_socketpair, tries[i].domain, tries[i].type, 0L, sv);
			result(name, r);
		}
		return 0;
	}
	return 2;
}
