/* wrap_io.c: opens (a denied read answered at once, without a kernel
 * trap), directory listings (denied names vanish) and exec (the command
 * line attributed in the audit). Only refusals are decided here: every
 * open the library lets through is decided again by the broker. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aix.h"
#include "wrap.h"

#define DECL(ret, name, ...) static ret (*real_##name)(__VA_ARGS__)
#define RESOLVE(name) ((__typeof__(real_##name))aix_resolve((void **)&real_##name, #name))

DECL(int, open, const char *, int, ...);
DECL(int, open64, const char *, int, ...);
DECL(int, openat, int, const char *, int, ...);
DECL(int, openat64, int, const char *, int, ...);
DECL(int, __open_2, const char *, int);
DECL(int, __open64_2, const char *, int);
DECL(int, __openat_2, int, const char *, int);
DECL(int, __openat64_2, int, const char *, int);
DECL(FILE *, fopen, const char *, const char *);
DECL(FILE *, fopen64, const char *, const char *);
DECL(int, closedir, DIR *);
DECL(struct dirent *, readdir, DIR *);
DECL(struct dirent64 *, readdir64, DIR *);
DECL(ssize_t, getdents64, int, void *, size_t);
DECL(int, execve, const char *, char *const[], char *const[]);
DECL(int, execv, const char *, char *const[]);
DECL(int, execvp, const char *, char *const[]);
DECL(int, execvpe, const char *, char *const[], char *const[]);
DECL(int, posix_spawn, pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *, char *const[], char *const[]);
DECL(int, posix_spawnp, pid_t *, const char *, const posix_spawn_file_actions_t *, const posix_spawnattr_t *, char *const[], char *const[]);

__attribute__((constructor)) static void aix_init_io(void)
{
	RESOLVE(open); RESOLVE(open64); RESOLVE(openat); RESOLVE(openat64);
	RESOLVE(__open_2); RESOLVE(__open64_2); RESOLVE(__openat_2); RESOLVE(__openat64_2);
	RESOLVE(fopen); RESOLVE(fopen64);
	RESOLVE(closedir); RESOLVE(readdir); RESOLVE(readdir64); RESOLVE(getdents64);
	RESOLVE(execve); RESOLVE(execv); RESOLVE(execvp); RESOLVE(execvpe);
	RESOLVE(posix_spawn); RESOLVE(posix_spawnp);
}

/* ---- opens ---- */

/* refused reports a read-only open of a path a rule denies, with its errno.
 * Anything else (writes, creates, default denials, redactions) goes to the
 * kernel, where the broker decides on the canonical path. */
static int refused(int fd, const char *p, int flags, int *err)
{
	char canon[AIX_PATH];
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC)) || (flags & O_TMPFILE) == O_TMPFILE)
		return 0;
	enum aix_op op = (flags & O_PATH) ? OP_STAT : OP_READ;
	return aix_check(fd, p, op, CHECK_FAST, err, canon) == V_HIDE;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

#define OPEN_BODY(fd, p, flags, call)         \
	do {                                  \
		int err;                      \
		va_list ap;                   \
		va_start(ap, flags);          \
		mode_t mode = mode_arg(flags, ap); \
		va_end(ap);                   \
		if (refused(fd, p, flags, &err)) { \
			errno = err;          \
			return -1;            \
		}                             \
		return call;                  \
	} while (0)

int open(const char *p, int flags, ...) { OPEN_BODY(AT_FDCWD, p, flags, RESOLVE(open)(p, flags, mode)); }
int open64(const char *p, int flags, ...) { OPEN_BODY(AT_FDCWD, p, flags, RESOLVE(open64)(p, flags, mode)); }
int openat(int fd, const char *p, int flags, ...) { OPEN_BODY(fd, p, flags, RESOLVE(openat)(fd, p, flags, mode)); }
int openat64(int fd, const char *p, int flags, ...) { OPEN_BODY(fd, p, flags, RESOLVE(openat64)(fd, p, flags, mode)); }

#define OPEN2_BODY(fd, p, flags, call)            \
	do {                                      \
		int err;                          \
		if (refused(fd, p, flags, &err)) { \
			errno = err;              \
			return -1;                \
		}                                 \
		return call;                      \
	} while (0)

int __open_2(const char *p, int flags) { OPEN2_BODY(AT_FDCWD, p, flags, RESOLVE(__open_2)(p, flags)); }
int __open64_2(const char *p, int flags) { OPEN2_BODY(AT_FDCWD, p, flags, RESOLVE(__open64_2)(p, flags)); }
int __openat_2(int fd, const char *p, int flags) { OPEN2_BODY(fd, p, flags, RESOLVE(__openat_2)(fd, p, flags)); }
int __openat64_2(int fd, const char *p, int flags) { OPEN2_BODY(fd, p, flags, RESOLVE(__openat64_2)(fd, p, flags)); }

static int fopen_refused(const char *p, const char *mode)
{
	int err;
	if (!mode || mode[0] != 'r' || strchr(mode, '+'))
		return 0;
	if (refused(AT_FDCWD, p, O_RDONLY, &err)) {
		errno = err;
		return 1;
	}
	return 0;
}

FILE *fopen(const char *p, const char *mode) { return fopen_refused(p, mode) ? NULL : RESOLVE(fopen)(p, mode); }
FILE *fopen64(const char *p, const char *mode) { return fopen_refused(p, mode) ? NULL : RESOLVE(fopen64)(p, mode); }

/* ---- listings ---- */

/* The directory of the last stream a thread read, so a listing costs one
 * readlink, not one per entry. closedir bumps the generation: a stream
 * allocated later at the same address is never mistaken for it. */
static unsigned dir_gen;
static __thread DIR *tl_dir __attribute__((tls_model("initial-exec")));
static __thread unsigned tl_gen __attribute__((tls_model("initial-exec")));
static __thread int tl_ok __attribute__((tls_model("initial-exec")));
static __thread char tl_path[AIX_PATH] __attribute__((tls_model("initial-exec")));

int closedir(DIR *d)
{
	__atomic_add_fetch(&dir_gen, 1, __ATOMIC_RELAXED);
	return RESOLVE(closedir)(d);
}

/* entry_hidden runs inside the guard. */
static int entry_hidden(DIR *d, const char *name, unsigned char type)
{
	unsigned gen = __atomic_load_n(&dir_gen, __ATOMIC_RELAXED);
	if (!aix_ensure_snapshot())
		return 0;
	if (tl_dir != d || tl_gen != gen) {
		tl_dir = d;
		tl_gen = gen;
		tl_ok = !aix_fd_path(dirfd(d), tl_path, sizeof tl_path);
	}
	return tl_ok && aix_hidden_entry(tl_path, name, type);
}

#define READDIR_BODY(type, fn)                                              \
	do {                                                                \
		type *e;                                                    \
		int saved = errno;                                          \
		while ((e = RESOLVE(fn)(d)) != NULL) {                      \
			if (aix_in_wrap)                                    \
				return e;                                   \
			aix_in_wrap = 1;                                    \
			int hide = entry_hidden(d, e->d_name, e->d_type);   \
			aix_in_wrap = 0;                                    \
			if (!hide)                                          \
				break;                                      \
		}                                                           \
		if (e)                                                      \
			errno = saved;                                      \
		return e;                                                   \
	} while (0)

struct dirent *readdir(DIR *d) { READDIR_BODY(struct dirent, readdir); }
struct dirent64 *readdir64(DIR *d) { READDIR_BODY(struct dirent64, readdir64); }

struct linux_dirent64 {
	unsigned long long d_ino;
	long long d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* getdents64 drops hidden records from the buffer; a buffer left empty is
 * refilled, since an empty answer means the end of the directory. */
ssize_t getdents64(int fd, void *buf, size_t n)
{
	char dir[AIX_PATH];
	for (;;) {
		ssize_t got = RESOLVE(getdents64)(fd, buf, n);
		if (got <= 0 || aix_in_wrap)
			return got;
		aix_in_wrap = 1;
		int saved = errno;
		ssize_t out = got;
		if (aix_ensure_snapshot() && !aix_fd_path(fd, dir, sizeof dir)) {
			char *b = buf;
			ssize_t in = 0;
			out = 0;
			while (in < got) {
				struct linux_dirent64 *e = (struct linux_dirent64 *)(b + in);
				unsigned short len = e->d_reclen;
				if (len == 0 || in + len > got)
					break;
				if (!aix_hidden_entry(dir, e->d_name, e->d_type)) {
					if (out != in)
						memmove(b + out, b + in, len);
					out += len;
				}
				in += len;
			}
		}
		errno = saved;
		aix_in_wrap = 0;
		if (out > 0)
			return out;
	}
}

/* ---- exec ---- */

static void hint(const char *path, char *const argv[])
{
	if (aix_in_wrap)
		return;
	aix_in_wrap = 1;
	int saved = errno;
	aix_hint_exec(path, argv);
	errno = saved;
	aix_in_wrap = 0;
}

int execve(const char *p, char *const argv[], char *const envp[])
{
	hint(p, argv);
	return RESOLVE(execve)(p, argv, envp);
}

int execv(const char *p, char *const argv[])
{
	hint(p, argv);
	return RESOLVE(execv)(p, argv);
}

int execvp(const char *f, char *const argv[])
{
	hint(f, argv);
	return RESOLVE(execvp)(f, argv);
}

int execvpe(const char *f, char *const argv[], char *const envp[])
{
	hint(f, argv);
	return RESOLVE(execvpe)(f, argv, envp);
}

/* posix_spawn runs its child's execve inside libc, out of reach of the
 * execve wrapper: the parent sends the hint. */
int posix_spawn(pid_t *pid, const char *p, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
		char *const argv[], char *const envp[])
{
	hint(p, argv);
	return RESOLVE(posix_spawn)(pid, p, fa, at, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *f, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *at,
		 char *const argv[], char *const envp[])
{
	hint(f, argv);
	return RESOLVE(posix_spawnp)(pid, f, fa, at, argv, envp);
}
