/* client.c: the connection to the broker (PROTOCOL.md). Every request that
 * expects an answer carries its own reply socket over SCM_RIGHTS, so no
 * state is shared between processes or threads and fork needs no care.
 * Nothing here allocates. An unreachable broker makes every call a no-op. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "aix.h"

static int conn_fd = -1;          /* the inherited connector, or -1 */
static dev_t conn_dev;
static ino_t conn_ino;
static char snap_file[AIX_PATH];  /* AIXBROKER_INTERPOSER_SNAPSHOT */
static int loading;               /* 0 idle, the loader's pid, -1 done (CAS) */
static unsigned char big[AIX_MAX_MSG]; /* the snapshot, owned by the loader */

static int inited;                /* aix_client_init ran (CAS) */
static int failures;              /* snapshot loads that failed */

/* aix_client_init reads the environment, once: from the constructor, or
 * earlier from the first wrapper called (another library's constructor
 * may run before ours). */
void aix_client_init(void)
{
	int zero = 0;
	if (!__atomic_compare_exchange_n(&inited, &zero, 1, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return;
	const char *v = getenv("AIXBROKER_INTERPOSER_FD");
	struct stat st;
	if (v && *v) {
		char *end;
		long fd = strtol(v, &end, 10);
		if (!*end && fd > 2 && fd < 1 << 20 && fstat((int)fd, &st) == 0 && S_ISSOCK(st.st_mode)) {
			conn_fd = (int)fd;
			conn_dev = st.st_dev;
			conn_ino = st.st_ino;
		}
	}
	v = getenv("AIXBROKER_INTERPOSER_SNAPSHOT");
	if (v && strlen(v) < sizeof snap_file)
		strcpy(snap_file, v);
}

/* connector returns the connector if it is still the socket we inherited
 * (a program may have closed it and reused the number). */
static int connector(void)
{
	struct stat st;
	if (conn_fd < 0 || fstat(conn_fd, &st) || st.st_dev != conn_dev || st.st_ino != conn_ino)
		return -1;
	return conn_fd;
}

/* request sends msg with a fresh reply socket and waits up to a second for
 * the one-datagram answer; *fd receives a descriptor sent with it, or -1. */
static ssize_t request(const void *msg, size_t n, void *resp, size_t cap, int *fd)
{
	int c = connector(), sv[2];
	ssize_t got = -1;
	if (fd)
		*fd = -1;
	if (c < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		return -1;
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	memset(&u, 0, sizeof u);
	struct iovec iov = {(void *)msg, n};
	struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf, .msg_controllen = sizeof u.buf};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &sv[1], sizeof(int));
	int sent = sendmsg(c, &mh, MSG_DONTWAIT | MSG_NOSIGNAL) == (ssize_t)n;
	close(sv[1]);
	struct pollfd pfd = {sv[0], POLLIN, 0};
	if (sent && poll(&pfd, 1, 1000) == 1) {
		memset(&u, 0, sizeof u);
		iov.iov_base = resp;
		iov.iov_len = cap;
		mh.msg_control = u.buf;
		mh.msg_controllen = sizeof u.buf;
		got = recvmsg(sv[0], &mh, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
		for (cm = CMSG_FIRSTHDR(&mh); got >= 0 && cm; cm = CMSG_NXTHDR(&mh, cm)) {
			if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS && cm->cmsg_len >= CMSG_LEN(sizeof(int))) {
				int rfd;
				memcpy(&rfd, CMSG_DATA(cm), sizeof(int));
				if (fd && *fd < 0)
					*fd = rfd;
				else
					close(rfd);
			}
		}
		if (got >= 0 && (mh.msg_flags & MSG_TRUNC))
			got = -1;
	}
	close(sv[0]);
	return got;
}

/* response_map positions r at the value of key in a response of type t. */
static int response_find(mp_r *r, const char *t, const char *key)
{
	mp_r start = *r;
	uint32_t n, kl, sl;
	const char *k, *s;
	int typed = 0;
	if (mp_read_map(r, &n))
		return -1;
	for (uint32_t i = 0; i < n; i++) { /* first pass: the type */
		if (mp_read_str(r, &k, &kl))
			return -1;
		if (mp_key_is(k, kl, "t")) {
			if (mp_read_str(r, &s, &sl) || !mp_key_is(s, sl, t))
				return -1;
			typed = 1;
		} else if (mp_skip(r)) {
			return -1;
		}
	}
	if (!typed)
		return -1;
	*r = start;
	mp_read_map(r, &n);
	for (uint32_t i = 0; i < n; i++) {
		if (mp_read_str(r, &k, &kl))
			return -1;
		if (mp_key_is(k, kl, key))
			return 0;
		if (mp_skip(r))
			return -1;
	}
	return -1;
}

static size_t header(mp_w *w, unsigned char *buf, size_t cap, const char *t, uint32_t fields)
{
	w->p = buf;
	w->end = buf + cap;
	w->err = 0;
	mp_map(w, fields + 2);
	mp_cstr(w, "t");
	mp_cstr(w, t);
	mp_cstr(w, "v");
	mp_uint(w, AIX_PROTO_VERSION);
	return 0;
}

size_t aix_encode_hello(unsigned char *buf, size_t cap, uint64_t pid)
{
	mp_w w;
	header(&w, buf, cap, "hello", 1);
	mp_cstr(&w, "pid");
	mp_uint(&w, pid);
	return w.err ? 0 : (size_t)(w.p - buf);
}

size_t aix_encode_stub(unsigned char *buf, size_t cap, const char *path)
{
	mp_w w;
	header(&w, buf, cap, "stub", 1);
	mp_cstr(&w, "path");
	mp_cstr(&w, path);
	return w.err ? 0 : (size_t)(w.p - buf);
}

/* aix_encode_hint encodes an exec hint, dropping trailing arguments that do
 * not fit; 0 if even none fit. */
size_t aix_encode_hint(unsigned char *buf, size_t cap, uint64_t pid, const char *path, char *const argv[])
{
	mp_w w;
	uint32_t argc = 0, fit;
	while (argv && argv[argc] && argc < 256)
		argc++;
	for (fit = argc;; fit--) {
		header(&w, buf, cap, "hint", 4);
		mp_cstr(&w, "kind");
		mp_cstr(&w, "exec");
		mp_cstr(&w, "pid");
		mp_uint(&w, pid);
		mp_cstr(&w, "path");
		mp_cstr(&w, path);
		mp_cstr(&w, "argv");
		mp_array(&w, fit);
		for (uint32_t i = 0; i < fit; i++)
			mp_cstr(&w, argv[i]);
		if (!w.err || fit == 0)
			break;
	}
	return w.err ? 0 : (size_t)(w.p - buf);
}

/* aix_parse_hello finds the snapshot in a hello response and loads it. */
int aix_parse_hello(const unsigned char *buf, size_t n)
{
	mp_r r = {buf, buf + n, 0};
	if (response_find(&r, "hello", "snapshot"))
		return -1;
	return aix_snapshot_load(r.p, (size_t)(r.end - r.p));
}

static int load_from_broker(void)
{
	unsigned char msg[64];
	size_t m = aix_encode_hello(msg, sizeof msg, (uint64_t)getpid());
	ssize_t n = m ? request(msg, m, big, sizeof big, NULL) : -1;
	if (n <= 0)
		return -1;
	return aix_parse_hello(big, (size_t)n);
}

static int load_from_file(void)
{
	if (!snap_file[0])
		return -1;
	int fd = open(snap_file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	size_t n = 0;
	ssize_t k;
	while (n < sizeof big && (k = read(fd, big + n, sizeof big - n)) > 0)
		n += (size_t)k;
	close(fd);
	return n == 0 || n == sizeof big ? -1 : aix_snapshot_load(big, n);
}

/* aix_ensure_snapshot loads the snapshot once, from the broker or else the
 * file. A thread that finds another thread of its process loading waits
 * for it (at most about 1.5 s: a request times out after 1 s); a loader
 * that belonged to the parent of a fork is gone, and its claim is taken
 * over. */
int aix_ensure_snapshot(void)
{
	struct timespec pause = {0, 100000};
	int pid = 0;
	for (int waited = 0;; waited++) {
		if (aix_snapshot_ready())
			return 1;
		int v = __atomic_load_n(&loading, __ATOMIC_ACQUIRE);
		if (v < 0)
			return 0; /* gave up for good */
		if (!pid)
			pid = (int)getpid();
		if (v > 0 && v != pid) { /* claimed in the parent before a fork */
			__atomic_compare_exchange_n(&loading, &v, 0, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
			continue;
		}
		if (v > 0) {
			if (waited >= 15000)
				return 0;
			nanosleep(&pause, NULL);
			continue;
		}
		if (!__atomic_compare_exchange_n(&loading, &v, pid, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			continue;
		aix_client_init();
		if (load_from_broker() && load_from_file() && ++failures < 3) {
			__atomic_store_n(&loading, 0, __ATOMIC_RELEASE); /* try again later, twice at most */
			return 0;
		}
		__atomic_store_n(&loading, -1, __ATOMIC_RELEASE); /* loaded, or a no-op for good */
		return aix_snapshot_ready();
	}
}

/* aix_stub_info asks the broker the size of the stub a redacted file reads
 * as, and the device and inode of the descriptor that comes with it (the
 * memfd an open of the file is served, so stat and fstat agree: cp checks
 * it); -1 when it cannot say. */
int aix_stub_info(const char *canon, struct aix_stub *out)
{
	unsigned char msg[AIX_PATH + 64], resp[256];
	int fd;
	uint64_t size;
	struct stat st;
	size_t m = aix_encode_stub(msg, sizeof msg, canon);
	if (!m)
		return -1;
	ssize_t n = request(msg, m, resp, sizeof resp, &fd);
	out->have_inode = 0;
	if (fd >= 0) {
		if (fstat(fd, &st) == 0) {
			out->dev = (unsigned long long)st.st_dev;
			out->ino = (unsigned long long)st.st_ino;
			out->have_inode = 1;
		}
		close(fd);
	}
	if (n <= 0)
		return -1;
	mp_r r = {resp, resp + n, 0};
	if (response_find(&r, "stub", "size") || mp_read_uint(&r, &size) || size > (1ull << 40))
		return -1;
	out->size = (long long)size;
	return 0;
}

/* aix_hint_exec tells the audit which command line this process is about
 * to execute. Fire and forget: no reply socket, never blocks. */
void aix_hint_exec(const char *path, char *const argv[])
{
	unsigned char msg[8192];
	int c = connector();
	if (c < 0 || !path)
		return;
	size_t n = aix_encode_hint(msg, sizeof msg, (uint64_t)getpid(), path, argv);
	if (n)
		send(c, msg, n, MSG_DONTWAIT | MSG_NOSIGNAL);
}
