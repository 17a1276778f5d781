// technique: sendto and sendmsg with a destination address on an unconnected unix datagram socket (syslog /dev/log, systemd notify): no connect() at all
// fast: yes
#include "adv.h"
#include <stddef.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
int main(void) {
	int s = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un me = {.sun_family = AF_UNIX}, to = {.sun_family = AF_UNIX};
	snprintf(me.sun_path, sizeof me.sun_path, "%s/me.sock", adv("PROJECT"));
	printf("bind: %d %s\n", bind(s, (struct sockaddr *)&me, sizeof me), strerror(errno));
	strncpy(to.sun_path, adv("DGRAM_SOCK"), sizeof to.sun_path - 1);
	struct timeval tv = {1, 0};
	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	ssize_t n = sendto(s, "hi", 2, 0, (struct sockaddr *)&to, sizeof to);
	printf("sendto: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	struct iovec iov = {"hi", 2};
	struct msghdr m = {.msg_name = &to, .msg_namelen = sizeof to, .msg_iov = &iov, .msg_iovlen = 1};
	n = sendmsg(s, &m, 0);
	printf("sendmsg: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	dump("reply", s);
	int s2 = socket(AF_UNIX, SOCK_DGRAM, 0);
	n = sendto(s2, "x", 1, 0, (struct sockaddr *)&to, sizeof to); /* unbound sender: the server cannot answer, but it received */
	printf("sendto unbound: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	return 0;
}
