// technique: bind a unix socket and mkfifo at paths outside the writable roots (creates files the policy refuses)
#include "adv.h"
#include <sys/socket.h>
#include <sys/un.h>
int main(void) {
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	snprintf(a.sun_path, sizeof a.sun_path, "%s/planted.sock", adv("HOME"));
	printf("bind: %d %s\n", bind(s, (struct sockaddr *)&a, sizeof a), strerror(errno));
	char p[1024];
	snprintf(p, sizeof p, "%s/planted.fifo", adv("HOME"));
	printf("mkfifo: %d %s\n", mkfifo(p, 0644), strerror(errno));
	snprintf(p, sizeof p, "%s/planted.dir", adv("HOME"));
	printf("mkdir: %d %s\n", mkdir(p, 0755), strerror(errno));
	return 0;
}
