// technique: socket families the filter leaves open, as root without the network capabilities: netlink proc connector (every exec and exit on the machine), audit log multicast and status, AF_KEY (IPsec SAs), nf_tables, and a census of the families socket() gives (each a kernel module autoloaded on demand elsewhere); sock_diag and uevents, which any user has natively, are only counted
#include "adv.h"
#include <linux/audit.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>

static void connector(void) {
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
	if (fd < 0) { printf("connector socket: %s\n", strerror(errno)); return; }
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = CN_IDX_PROC, .nl_pid = 0};
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0) { printf("connector bind: %s\n", strerror(errno)); close(fd); return; }
	struct __attribute__((packed)) {
		struct nlmsghdr h;
		struct cn_msg c;
		enum proc_cn_mcast_op op;
	} m = {0};
	m.h.nlmsg_len = sizeof m;
	m.h.nlmsg_type = NLMSG_DONE;
	m.c.id.idx = CN_IDX_PROC;
	m.c.id.val = CN_VAL_PROC;
	m.c.len = sizeof m.op;
	m.op = PROC_CN_MCAST_LISTEN;
	if (send(fd, &m, sizeof m, 0) < 0) { printf("connector listen: %s\n", strerror(errno)); close(fd); return; }
	if (fork() == 0) _exit(0); // an event of our own, to see whether any arrive
	wait(NULL);
	struct pollfd p = {fd, POLLIN, 0};
	char buf[4096];
	int events = 0;
	int names = 0;
	ssize_t n;
	while (events < 2000 && poll(&p, 1, 500) > 0 && (n = recv(fd, buf, sizeof buf, 0)) > 0) {
		events++;
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		struct cn_msg *c = NLMSG_DATA(h);
		struct proc_event *ev = (struct proc_event *)c->data;
		if (ev->what == PROC_EVENT_COMM && names < 8) {
			printf("  outside? pid %d renamed itself %.16s\n", ev->event_data.comm.process_pid, ev->event_data.comm.comm);
			names++;
		}
	}
	// Native for every user since Linux 6.6 (cn_proc lets non-root
	// listen), so not marked as gained: an observation of processes
	// outside (pids, execs, exits, uid changes, names), not a reach.
	printf("proc connector: %d events about processes of the whole machine\n", events);
	close(fd);
}

static void audit(void) {
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (fd < 0) { printf("audit socket: %s\n", strerror(errno)); return; }
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = 1 << (AUDIT_NLGRP_READLOG - 1)};
	if (bind(fd, (struct sockaddr *)&sa, sizeof sa) == 0) printf("ADV-GAINED: audit log multicast joined\n");
	else printf("audit multicast: %s\n", strerror(errno));
	struct { struct nlmsghdr h; } g = {{.nlmsg_len = sizeof g, .nlmsg_type = AUDIT_GET, .nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK}};
	struct sockaddr_nl k = {.nl_family = AF_NETLINK};
	if (sendto(fd, &g, sizeof g, 0, (struct sockaddr *)&k, sizeof k) < 0) { printf("audit get: %s\n", strerror(errno)); close(fd); return; }
	char buf[8192];
	struct pollfd p = {fd, POLLIN, 0};
	if (poll(&p, 1, 500) > 0) {
		ssize_t n = recv(fd, buf, sizeof buf, 0);
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		if (n > 0 && h->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = NLMSG_DATA(h);
			if (e->error) printf("audit get: %s\n", strerror(-e->error));
			else printf("audit get: acked\n");
		} else if (n > 0) printf("ADV-GAINED: audit status read (type %d)\n", h->nlmsg_type);
	} else printf("audit get: no answer\n");
	close(fd);
}

static void pfkey(void) {
	int fd = socket(15 /* PF_KEY */, SOCK_RAW | SOCK_CLOEXEC, 2 /* PF_KEY_V2 */);
	if (fd >= 0) { printf("ADV-GAINED: PF_KEY socket\n"); close(fd); }
	else printf("PF_KEY: %s\n", strerror(errno));
}

// sockdiag counts the machine's unix sockets (native for any user).
static void sockdiag(void) {
	int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0) { printf("sock_diag: %s\n", strerror(errno)); return; }
	struct { struct nlmsghdr h; struct unix_diag_req r; } q = {0};
	q.h.nlmsg_len = sizeof q;
	q.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	q.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	q.r.sdiag_family = AF_UNIX;
	q.r.udiag_states = -1;
	q.r.udiag_show = UDIAG_SHOW_PEER;
	send(fd, &q, sizeof q, 0);
	char buf[32768];
	int count = 0, done = 0;
	while (!done) {
		ssize_t n = recv(fd, buf, sizeof buf, 0);
		if (n <= 0) break;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE || h->nlmsg_type == NLMSG_ERROR) { done = 1; break; }
			count++;
		}
	}
	printf("sock_diag: %d unix sockets of the machine listed (native for every user)\n", count);
	close(fd);
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	connector();
	audit();
	pfkey();
	sockdiag();
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, 12 /* NETLINK_NETFILTER */);
	printf("netfilter netlink socket: %s\n", fd >= 0 ? "created (changes need CAP_NET_ADMIN)" : strerror(errno));
	if (fd >= 0) close(fd);
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
	printf("ping socket: %s\n", fd >= 0 ? "created (net.ipv4.ping_group_range)" : strerror(errno));
	if (fd >= 0) close(fd);
	printf("families socket() accepts:");
	for (int f = 1; f < 46; f++) {
		int types[] = {SOCK_STREAM, SOCK_DGRAM, SOCK_SEQPACKET, SOCK_RAW};
		for (unsigned t = 0; t < 4; t++) {
			int s = socket(f, types[t] | SOCK_CLOEXEC, 0);
			if (s >= 0) { printf(" %d/%d", f, types[t]); close(s); }
		}
	}
	printf("\n");
	return 0;
}
