// technique: hide one refused action in the flood budget: exhaust the budget of the kind (op, decision, rule, syscall) of planting .git/hooks/pre-commit with creates of .git/hooks/noise-N (same rule read_only:${PROJECT}/.git/hooks/**), then try pre-commit between two more of them: it is neither the first nor the last path of its suppressed record, so the log never names it
#include "adv.h"
static long refused;
static void plant(const char *name) {
	char p[256];
	snprintf(p, sizeof p, ".git/hooks/%s", name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd >= 0) { printf("planted %s\n", p); close(fd); } else refused++;
}
int main(void) {
	char name[64];
	for (int i = 0; i < 400; i++) {
		snprintf(name, sizeof name, "noise-%d", i);
		plant(name);
	}
	plant("pre-commit");
	for (int i = 0; i < 5; i++) {
		snprintf(name, sizeof name, "noise-z%d", i);
		plant(name);
	}
	char cwd[4096];
	if (getcwd(cwd, sizeof cwd)) printf("must-log %s/.git/hooks/pre-commit\n", cwd);
	printf("refused %ld\n", refused);
	return 0;
}
