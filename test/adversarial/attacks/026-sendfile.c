// technique: sendfile from an O_PATH descriptor of the key to stdout
#include "adv.h"
#include <sys/sendfile.h>
int main(void) {
	int fd = open(adv("SECRET"), O_PATH);
	fflush(stdout);
	ssize_t n = sendfile(1, fd, 0, 4096);
	printf("\nsendfile: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	fd = open(adv("OUTSIDE"), O_PATH);
	n = sendfile(1, fd, 0, 4096);
	printf("\nsendfile outside: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	return 0;
}
