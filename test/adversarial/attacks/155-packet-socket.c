// technique: sniff loopback with packet and raw sockets (AF_PACKET raw and dgram, SOCK_PACKET, AF_INET and AF_INET6 SOCK_RAW)
#include "adv.h"
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <netinet/in.h>
#include <sys/socket.h>

int main(void) {
	struct { const char *name; int family, type, proto; } s[] = {
		{"packet raw", AF_PACKET, SOCK_RAW, htons(ETH_P_ALL)},
		{"packet dgram", AF_PACKET, SOCK_DGRAM | SOCK_CLOEXEC, htons(ETH_P_IP)},
		{"inet SOCK_PACKET", AF_INET, SOCK_PACKET, htons(ETH_P_ALL)},
		{"inet raw tcp", AF_INET, SOCK_RAW, IPPROTO_TCP},
		{"inet raw nonblock", AF_INET, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_UDP},
		{"inet raw icmp", AF_INET, SOCK_RAW, IPPROTO_ICMP},
		{"inet6 raw", AF_INET6, SOCK_RAW, IPPROTO_TCP},
	};
	for (size_t i = 0; i < sizeof s / sizeof *s; i++) {
		int fd = socket(s[i].family, s[i].type, s[i].proto);
		if (fd >= 0) { printf("ADV-GAINED: %s socket\n", s[i].name); close(fd); }
		else printf("%s: %s\n", s[i].name, strerror(errno));
	}
	return 0;
}
