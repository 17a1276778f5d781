// technique: RLIMIT_FSIZE 0 on the supervisor (prlimit64 on the parent, both limits), then denied reads that the audit can no longer record
#include "adv.h"
#include <sys/resource.h>
int main(void) {
	struct rlimit zero = {0, 0}, old;
	pid_t pp = getppid();
	int rc = syscall(SYS_prlimit64, pp, RLIMIT_FSIZE, &zero, &old);
	printf("prlimit64(ppid %d, RLIMIT_FSIZE, 0): %d %s\n", pp, rc, rc ? strerror(errno) : "");
	// Let the supervisor flush what it had before the limit.
	usleep(200000);
	long refused = 0;
	const char *secret = adv("SECRET");
	for (int i = 0; i < 50; i++) {
		int fd = open(secret, O_RDONLY);
		if (fd >= 0) { dump("secret", fd); close(fd); }
		else if (errno == EACCES || errno == EPERM || errno == ENOENT) refused++; // a denied name does not exist
		// Print as we go: a fail-closed supervisor may stop us any time.
		printf("refused %ld\n", refused);
		fflush(stdout);
	}
	usleep(200000);
	return 0;
}
