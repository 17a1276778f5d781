// notifyfloor measures the floor of a seccomp user-notification round trip
// on this machine: a child traps getppid into a listener, and a supervisor
// written in C answers every notification at once, with no work. It prints
// the median and 99th percentile of argv[1] trapped calls in nanoseconds:
// "p50=... p99=...". BenchmarkNotifyFloor runs it beside the broker's own
// figures, so that what the broker adds over the kernel is visible.
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP 1
#endif

static int cmp(const void *a, const void *b) {
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

static void send_fd(int sock, int fd) {
	char byte = 0, ctl[CMSG_SPACE(sizeof fd)];
	struct iovec io = {&byte, 1};
	struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl};
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof fd);
	memcpy(CMSG_DATA(c), &fd, sizeof fd);
	if (sendmsg(sock, &m, 0) != 1) exit(3);
}

static int recv_fd(int sock) {
	char byte, ctl[CMSG_SPACE(sizeof(int))];
	struct iovec io = {&byte, 1};
	struct msghdr m = {.msg_iov = &io, .msg_iovlen = 1, .msg_control = ctl, .msg_controllen = sizeof ctl};
	if (recvmsg(sock, &m, 0) != 1 || !CMSG_FIRSTHDR(&m)) exit(3);
	int fd;
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof fd);
	return fd;
}

// trapped installs the filter, hands the listener over and times n calls.
static int trapped(int sock, int n) {
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof f / sizeof f[0], f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return 4;
	int l = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (l < 0) return 4;
	send_fd(sock, l);
	close(l);
	char go;
	if (read(sock, &go, 1) != 1) return 3;
	long *ns = calloc(n, sizeof *ns);
	for (int i = 0; i < n; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		syscall(SYS_getppid);
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns[i] = (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec);
	}
	qsort(ns, n, sizeof *ns, cmp);
	printf("p50=%ld p99=%ld\n", ns[n / 2], ns[n * 99 / 100]);
	return 0;
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	if (n <= 0) return 2;
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return 3;
	pid_t pid = fork();
	if (pid < 0) return 3;
	if (pid == 0) {
		int rc = trapped(sv[0], n);
		fflush(stdout);
		_exit(rc);
	}
	int l = recv_fd(sv[1]);
	// As the broker does: the target is woken on the supervisor's CPU.
	ioctl(l, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0);
	if (write(sv[1], "g", 1) != 1) return 3;
	for (;;) {
		struct pollfd p = {l, POLLIN, 0};
		if (poll(&p, 1, -1) < 0 || !(p.revents & POLLIN)) break;
		struct seccomp_notif req;
		memset(&req, 0, sizeof req);
		if (ioctl(l, SECCOMP_IOCTL_NOTIF_RECV, &req)) continue;
		struct seccomp_notif_resp resp = {.id = req.id, .val = 1};
		ioctl(l, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return 3;
	return WEXITSTATUS(status);
}
