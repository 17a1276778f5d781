/* wrap.c: the libc entry points that reveal or reach a path. Each wrapper
 * asks aix_check, answers a hidden path with its errno at once, and
 * otherwise calls the next definition (dlsym RTLD_NEXT, resolved in the
 * constructor). errno is preserved; nothing allocates. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "aix.h"
#include "wrap.h"

#define DECL(ret, name, ...) static ret (*real_##name)(__VA_ARGS__)
#define RESOLVE(name) ((__typeof__(real_##name))aix_resolve((void **)&real_##name, #name))

DECL(int, stat, const char *, struct stat *);
DECL(int, lstat, const char *, struct stat *);
DECL(int, fstatat, int, const char *, struct stat *, int);
DECL(int, stat64, const char *, struct stat64 *);
DECL(int, lstat64, const char *, struct stat64 *);
DECL(int, fstatat64, int, const char *, struct stat64 *, int);
DECL(int, __xstat, int, const char *, struct stat *);
DECL(int, __lxstat, int, const char *, struct stat *);
DECL(int, __fxstatat, int, int, const char *, struct stat *, int);
DECL(int, __xstat64, int, const char *, struct stat64 *);
DECL(int, __lxstat64, int, const char *, struct stat64 *);
DECL(int, __fxstatat64, int, int, const char *, struct stat64 *, int);
DECL(int, statx, int, const char *, int, unsigned, struct statx *);
DECL(int, access, const char *, int);
DECL(int, faccessat, int, const char *, int, int);
DECL(int, euidaccess, const char *, int);
DECL(int, eaccess, const char *, int);
DECL(ssize_t, readlink, const char *, char *, size_t);
DECL(ssize_t, readlinkat, int, const char *, char *, size_t);

__attribute__((constructor)) static void aix_init(void)
{
	RESOLVE(stat); RESOLVE(lstat); RESOLVE(fstatat);
	RESOLVE(stat64); RESOLVE(lstat64); RESOLVE(fstatat64);
	RESOLVE(__xstat); RESOLVE(__lxstat); RESOLVE(__fxstatat);
	RESOLVE(__xstat64); RESOLVE(__lxstat64); RESOLVE(__fxstatat64);
	RESOLVE(statx); RESOLVE(access); RESOLVE(faccessat);
	RESOLVE(euidaccess); RESOLVE(eaccess);
	RESOLVE(readlink); RESOLVE(readlinkat);
	aix_client_init();
}

/* ---- the stat family ---- */

static int stub_info(enum aix_verdict v, const char *canon, struct aix_stub *s)
{
	if (v != V_REDACT || aix_in_wrap)
		return -1;
	aix_in_wrap = 1;
	int saved = errno;
	int r = aix_stub_info(canon, s);
	errno = saved;
	aix_in_wrap = 0;
	return r;
}

#define STAT_BODY(dirfd, path, call, st)                                          \
	do {                                                                      \
		char canon[AIX_PATH];                                             \
		int err;                                                          \
		enum aix_verdict v = aix_check(dirfd, path, OP_STAT, CHECK_CONFIRM, &err, canon); \
		if (v == V_HIDE) {                                                \
			errno = err;                                              \
			return -1;                                                \
		}                                                                 \
		int r = call;                                                     \
		struct aix_stub s;                                                \
		if (r == 0 && stub_info(v, canon, &s) == 0) {                     \
			(st)->st_size = s.size;                                   \
			(st)->st_blocks = (s.size + 511) / 512;                   \
			if (s.have_inode) {                                       \
				(st)->st_dev = s.dev;                             \
				(st)->st_ino = s.ino;                             \
			}                                                         \
		}                                                                 \
		return r;                                                         \
	} while (0)

int stat(const char *p, struct stat *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(stat)(p, st), st); }
int lstat(const char *p, struct stat *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(lstat)(p, st), st); }
int stat64(const char *p, struct stat64 *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(stat64)(p, st), st); }
int lstat64(const char *p, struct stat64 *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(lstat64)(p, st), st); }
int __xstat(int ver, const char *p, struct stat *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(__xstat)(ver, p, st), st); }
int __lxstat(int ver, const char *p, struct stat *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(__lxstat)(ver, p, st), st); }
int __xstat64(int ver, const char *p, struct stat64 *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(__xstat64)(ver, p, st), st); }
int __lxstat64(int ver, const char *p, struct stat64 *st) { STAT_BODY(AT_FDCWD, p, RESOLVE(__lxstat64)(ver, p, st), st); }

/* an empty path with AT_EMPTY_PATH is the descriptor itself: not a name */
#define NAMED(p, fl) aix_named(p, fl)

int fstatat(int fd, const char *p, struct stat *st, int fl)
{
	if (!NAMED(p, fl))
		return RESOLVE(fstatat)(fd, p, st, fl);
	STAT_BODY(fd, p, RESOLVE(fstatat)(fd, p, st, fl), st);
}

int fstatat64(int fd, const char *p, struct stat64 *st, int fl)
{
	if (!NAMED(p, fl))
		return RESOLVE(fstatat64)(fd, p, st, fl);
	STAT_BODY(fd, p, RESOLVE(fstatat64)(fd, p, st, fl), st);
}

int __fxstatat(int ver, int fd, const char *p, struct stat *st, int fl)
{
	if (!NAMED(p, fl))
		return RESOLVE(__fxstatat)(ver, fd, p, st, fl);
	STAT_BODY(fd, p, RESOLVE(__fxstatat)(ver, fd, p, st, fl), st);
}

int __fxstatat64(int ver, int fd, const char *p, struct stat64 *st, int fl)
{
	if (!NAMED(p, fl))
		return RESOLVE(__fxstatat64)(ver, fd, p, st, fl);
	STAT_BODY(fd, p, RESOLVE(__fxstatat64)(ver, fd, p, st, fl), st);
}

int statx(int fd, const char *p, int fl, unsigned mask, struct statx *st)
{
	char canon[AIX_PATH];
	int err;
	if (!NAMED(p, fl))
		return RESOLVE(statx)(fd, p, fl, mask, st);
	enum aix_verdict v = aix_check(fd, p, OP_STAT, CHECK_CONFIRM, &err, canon);
	if (v == V_HIDE) {
		errno = err;
		return -1;
	}
	int r = RESOLVE(statx)(fd, p, fl, mask, st);
	struct aix_stub s;
	if (r == 0 && stub_info(v, canon, &s) == 0) {
		st->stx_size = (unsigned long long)s.size;
		st->stx_blocks = (unsigned long long)(s.size + 511) / 512;
		if (s.have_inode) {
			st->stx_dev_major = major(s.dev);
			st->stx_dev_minor = minor(s.dev);
			st->stx_ino = s.ino;
		}
	}
	return r;
}

/* ---- access, readlink ---- */

static int access_check(int fd, const char *p, int mode)
{
	char canon[AIX_PATH];
	int err;
	enum aix_verdict v = aix_check(fd, p, OP_STAT, CHECK_CONFIRM, &err, canon);
	if (v == V_HIDE) {
		errno = err;
		return -1;
	}
	if (v == V_REDACT && (mode & W_OK)) {
		errno = EACCES; /* a redacted file is never written */
		return -1;
	}
	return 0;
}

int access(const char *p, int mode) { return access_check(AT_FDCWD, p, mode) ? -1 : RESOLVE(access)(p, mode); }
int euidaccess(const char *p, int mode) { return access_check(AT_FDCWD, p, mode) ? -1 : RESOLVE(euidaccess)(p, mode); }
int eaccess(const char *p, int mode) { return access_check(AT_FDCWD, p, mode) ? -1 : RESOLVE(eaccess)(p, mode); }
int faccessat(int fd, const char *p, int mode, int fl)
{
	if (NAMED(p, fl) && access_check(fd, p, mode))
		return -1;
	return RESOLVE(faccessat)(fd, p, mode, fl);
}

ssize_t readlink(const char *p, char *buf, size_t n)
{
	char canon[AIX_PATH];
	int err;
	if (aix_check(AT_FDCWD, p, OP_STAT, CHECK_CONFIRM, &err, canon) == V_HIDE) {
		errno = err;
		return -1;
	}
	return RESOLVE(readlink)(p, buf, n);
}

ssize_t readlinkat(int fd, const char *p, char *buf, size_t n)
{
	char canon[AIX_PATH];
	int err;
	if (aix_named(p, AT_EMPTY_PATH) && aix_check(fd, p, OP_STAT, CHECK_CONFIRM, &err, canon) == V_HIDE) {
		errno = err;
		return -1;
	}
	return RESOLVE(readlinkat)(fd, p, buf, n);
}
