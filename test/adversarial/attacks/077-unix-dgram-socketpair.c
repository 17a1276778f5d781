// technique: a unix datagram socketpair (or SOCK_RAW, which unix sockets turn into SOCK_DGRAM, or SOCK_DGRAM with CLOEXEC|NONBLOCK) still sends to any address given with the datagram: sendto and sendmmsg to the outside service
// fast: yes
#include "adv.h"
#include <sys/socket.h>
#include <sys/un.h>
static void try(const char *what, int s, const struct sockaddr_un *to) {
	if (s < 0) {
		printf("%s: socket refused: %s\n", what, strerror(errno));
		return;
	}
	ssize_t n = sendto(s, "hi", 2, 0, (const struct sockaddr *)to, sizeof *to);
	printf("%s sendto: %zd %s\n", what, n, n < 0 ? strerror(errno) : "");
	struct iovec iov = {"mm", 2};
	struct mmsghdr mm = {.msg_hdr = {.msg_name = (void *)to, .msg_namelen = sizeof *to, .msg_iov = &iov, .msg_iovlen = 1}};
	int k = sendmmsg(s, &mm, 1, 0);
	printf("%s sendmmsg: %d %s\n", what, k, k < 0 ? strerror(errno) : "");
}
int main(void) {
	struct sockaddr_un to = {.sun_family = AF_UNIX};
	strncpy(to.sun_path, adv("DGRAM_SOCK"), sizeof to.sun_path - 1);
	int sv[2] = {-1, -1};
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
		sv[0] = -1;
	try("socketpair", sv[0], &to);
	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, sv) < 0)
		sv[0] = -1;
	try("socketpair flags", sv[0], &to);
	try("raw", socket(AF_UNIX, SOCK_RAW, 0), &to);
	try("dgram flags", socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0), &to);
	try("dgram via syscall", (int)syscall(SYS_socket, 0x100000000L | AF_UNIX, SOCK_DGRAM, 0), &to);
	return 0;
}
