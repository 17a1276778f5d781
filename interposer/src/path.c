/* path.c: the decision a wrapper needs, on the textual absolute form of
 * (dirfd, path). Policy globs name canonical paths; the library does not
 * resolve symlinks on the hot path, so it hides at once only what a rule
 * names, and confirms a default denial with realpath first (when unsure, it
 * shows: the kernel side still refuses). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aix.h"
#include "wrap.h"

#include <dlfcn.h>

__thread int aix_in_wrap __attribute__((tls_model("initial-exec")));

/* fd_path is the path /proc/self/fd/N names, when it is a directory path. */
int aix_fd_path(int fd, char *out, size_t cap)
{
	char link[40] = "/proc/self/fd/";
	char digits[16];
	int n = 0;
	unsigned u = (unsigned)fd;
	if (fd < 0)
		return -1;
	do {
		digits[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	size_t l = strlen(link);
	while (n)
		link[l++] = digits[--n];
	link[l] = 0;
	ssize_t k = readlink(link, out, cap - 1);
	if (k <= 0 || out[0] != '/')
		return -1;
	out[k] = 0;
	if (k > 10 && !strcmp(out + k - 10, " (deleted)"))
		return -1;
	return 0;
}

/* push appends the components of p to out (absolute, normalized, length
 * *len), resolving "." and ".." textually. */
static int push(char *out, size_t *len, const char *p)
{
	while (*p) {
		const char *e = p;
		while (*e && *e != '/')
			e++;
		size_t n = (size_t)(e - p);
		if (n == 0 || (n == 1 && p[0] == '.')) {
			/* nothing */
		} else if (n == 2 && p[0] == '.' && p[1] == '.') {
			while (*len > 1 && out[*len - 1] != '/')
				(*len)--;
			if (*len > 1)
				(*len)--;
		} else {
			if (*len + n + 2 > AIX_PATH)
				return -1;
			if (*len > 1)
				out[(*len)++] = '/';
			memcpy(out + *len, p, n);
			*len += n;
		}
		p = *e ? e + 1 : e;
	}
	out[*len] = 0;
	return 0;
}

int aix_absolute(int dirfd, const char *path, char *out)
{
	char base[AIX_PATH];
	size_t len = 1;
	if (!path || !*path)
		return -1;
	out[0] = '/';
	out[1] = 0;
	if (path[0] != '/') {
		if (dirfd == AT_FDCWD) {
			if (!getcwd(base, sizeof base) || base[0] != '/')
				return -1;
		} else if (aix_fd_path(dirfd, base, sizeof base)) {
			return -1;
		}
		if (push(out, &len, base))
			return -1;
	}
	return push(out, &len, path);
}

/* confirm re-decides a default denial on the canonical path. */
static enum aix_verdict confirm(enum aix_op op, char *canon, int *err)
{
	char real[AIX_PATH];
	int expl;
	if (strlen(canon) > 1000 || !realpath(canon, real)) /* glibc's realpath stays on the stack below 1 KiB */
		return V_ALLOW;
	if (!strcmp(real, canon))
		return V_HIDE;
	enum aix_verdict v = aix_decide(op, real, err, &expl);
	if (v == V_REDACT)
		strcpy(canon, real);
	return v;
}

enum aix_verdict aix_check(int dirfd, const char *path, enum aix_op op, int mode, int *err, char *canon)
{
	enum aix_verdict v = V_ALLOW;
	int expl;
	if (aix_in_wrap || !path)
		return V_ALLOW;
	aix_in_wrap = 1;
	int saved = errno;
	if (aix_ensure_snapshot() && !aix_absolute(dirfd, path, canon)) {
		v = aix_decide(op, canon, err, &expl);
		if (v == V_HIDE && !expl)
			v = mode == CHECK_CONFIRM ? confirm(op, canon, err) : V_ALLOW;
	}
	if (v == V_UNKNOWN)
		v = V_ALLOW;
	errno = saved;
	aix_in_wrap = 0;
	return v;
}

/* aix_hidden_entry decides one name of a listing of directory dir
 * (canonical, from /proc/self/fd). */
int aix_hidden_entry(const char *dir, const char *name, unsigned char type)
{
	char p[AIX_PATH];
	int err, expl;
	size_t dl = strlen(dir), nl = strlen(name);
	if ((name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]))) || dl + nl + 2 > sizeof p)
		return 0;
	memcpy(p, dir, dl);
	if (dl > 1)
		p[dl++] = '/';
	memcpy(p + dl, name, nl + 1);
	enum aix_verdict v = aix_decide(OP_STAT, p, &err, &expl);
	if (v != V_HIDE)
		return 0;
	if (expl || (type != DT_LNK && type != DT_UNKNOWN))
		return 1; /* a name in a canonical directory that is no link is canonical */
	return confirm(OP_STAT, p, &err) == V_HIDE;
}

/* aix_resolve returns the next definition of name, looked up once (the
 * constructors resolve every wrapper before main, so no lookup happens
 * between fork and exec). */
void *aix_resolve(void **slot, const char *name)
{
	void *f = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
	if (!f) {
		f = dlsym(RTLD_NEXT, name);
		__atomic_store_n(slot, f, __ATOMIC_RELEASE);
	}
	return f;
}

/* aix_named reports whether (p, flags) names a path, rather than the
 * descriptor itself (AT_EMPTY_PATH with "" or NULL). In its own file, so
 * the headers' nonnull attributes cannot fold the test away. */
int aix_named(const char *p, int flags)
{
	return p && (p[0] || !(flags & AT_EMPTY_PATH));
}
