// technique: splice from an O_PATH descriptor of the key into a pipe
#include "adv.h"
int main(void) {
	int fd = open(adv("SECRET"), O_PATH);
	int p[2];
	pipe(p);
	ssize_t n = splice(fd, 0, p[1], 0, 4096, 0);
	printf("splice: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	if (n > 0) { close(p[1]); dump("pipe", p[0]); }
	return 0;
}
