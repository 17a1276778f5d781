// technique: userfaultfd on the path buffer, to stall the broker's read and swap the path while it waits
#include "adv.h"
#include <linux/userfaultfd.h>
int main(void) {
	long u = syscall(SYS_userfaultfd, O_CLOEXEC | UFFD_USER_MODE_ONLY);
	printf("userfaultfd: %ld %s\n", u, u < 0 ? strerror(errno) : "CREATED");
	return 0;
}
