// technique: use root's machine-administration capabilities: set the clock's time zone, the hostname, add an address to lo, ioperm, raise priority, read the kernel log, raise a hard limit, mknod, chown, lock memory; print the capability sets
#include "adv.h"
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/io.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/time.h>

static void gained(const char *what, int r) {
	if (r == 0) printf("ADV-GAINED: %s\n", what);
	else printf("%s: %s\n", what, strerror(errno));
}

// addr sends RTM_NEWADDR or RTM_DELADDR for 127.0.0.77/8 on lo.
static int addr(int type) {
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0) return -1;
	struct { struct nlmsghdr h; struct ifaddrmsg a; struct rtattr r; struct in_addr ip; } m = {0};
	m.h.nlmsg_len = sizeof m;
	m.h.nlmsg_type = type;
	m.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | (type == RTM_NEWADDR ? NLM_F_CREATE | NLM_F_EXCL : 0);
	m.a.ifa_family = AF_INET;
	m.a.ifa_prefixlen = 8;
	m.a.ifa_index = if_nametoindex("lo");
	m.r.rta_len = RTA_LENGTH(4);
	m.r.rta_type = IFA_LOCAL;
	inet_pton(AF_INET, "127.0.0.77", &m.ip);
	if (send(fd, &m, sizeof m, 0) < 0) { close(fd); return -1; }
	struct { struct nlmsghdr h; struct nlmsgerr e; } ack;
	ssize_t n = recv(fd, &ack, sizeof ack, 0);
	close(fd);
	if (n < (ssize_t)sizeof ack) return -1;
	errno = -ack.e.error;
	return ack.e.error ? -1 : 0;
}

int main(void) {
	char line[256];
	FILE *st = fopen("/proc/self/status", "r");
	while (st && fgets(line, sizeof line, st))
		if (!strncmp(line, "Cap", 3) || !strncmp(line, "Uid", 3)) fputs(line, stdout);
	if (st) fclose(st);
	struct timezone tz;
	struct timeval tv;
	gettimeofday(&tv, &tz);
	gained("settimeofday (time zone set to itself)", settimeofday(NULL, &tz));
	char host[256] = {0};
	gethostname(host, sizeof host - 1);
	gained("sethostname (to itself)", sethostname(host, strlen(host)));
	if (addr(RTM_NEWADDR) == 0) { printf("ADV-GAINED: address added to lo\n"); addr(RTM_DELADDR); }
	else printf("add address to lo: %s\n", strerror(errno));
	gained("ioperm", ioperm(0x80, 1, 1));
	gained("setpriority -5", setpriority(PRIO_PROCESS, 0, -5));
	char buf[64];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, sizeof buf);
	gained("klogctl read", n >= 0 ? 0 : -1);
	struct rlimit rl;
	getrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_max != RLIM_INFINITY) { rl.rlim_max++; gained("raise hard RLIMIT_NOFILE", setrlimit(RLIMIT_NOFILE, &rl)); }
	struct rlimit ml = {0, 0};
	setrlimit(RLIMIT_MEMLOCK, &ml);
	static char page[4096];
	gained("mlock above RLIMIT_MEMLOCK", mlock(page, sizeof page));
	char p[512];
	snprintf(p, sizeof p, "%s/null-copy", adv("PROJECT"));
	gained("mknod of a character device", mknod(p, S_IFCHR | 0666, makedev(1, 3)));
	unlink(p);
	snprintf(p, sizeof p, "%s/fifo", adv("PROJECT"));
	printf("mknod fifo (allowed): %d\n", mknod(p, S_IFIFO | 0644, 0));
	return 0;
}
