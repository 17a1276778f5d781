// technique: io_uring: an IORING_OP_OPENAT the seccomp filter never sees
// fast: yes
#include "adv.h"
#include <linux/io_uring.h>
int main(void) {
	struct io_uring_params p;
	memset(&p, 0, sizeof p);
	int fd = syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0) { printf("io_uring_setup: %s\n", strerror(errno)); return 0; }
	printf("io_uring_setup succeeded: fd %d (the filter should refuse it)\n", fd);
	return 0;
}
