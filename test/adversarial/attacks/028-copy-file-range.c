// technique: copy_file_range from an O_PATH descriptor of the key into a project file
#include "adv.h"
int main(void) {
	int in = open(adv("SECRET"), O_PATH);
	int out = open("copy.out", O_CREAT | O_RDWR | O_TRUNC, 0644);
	ssize_t n = copy_file_range(in, 0, out, 0, 4096, 0);
	printf("copy_file_range: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	int dir = open(adv("HOME"), O_PATH | O_DIRECTORY);
	n = copy_file_range(dir, 0, out, 0, 4096, 0);
	printf("copy_file_range dir: %zd %s\n", n, n < 0 ? strerror(errno) : "");
	return 0;
}
