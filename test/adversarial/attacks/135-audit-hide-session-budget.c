// technique: hide one refused action behind the session's flood budget: 1200 denied reads and writes of three secrets (six other kinds, 200 each, under the per-kind burst) use up the session budget, then one create of .git/hooks/noise opens the hooks kind's suppressed record, the create of .git/hooks/pre-commit follows, and one more noise create closes it: the record names the two noise paths, never pre-commit
#include "adv.h"
static long refused;
static void plant(const char *name) {
	char p[256];
	snprintf(p, sizeof p, ".git/hooks/%s", name);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (fd >= 0) { printf("planted %s\n", p); close(fd); } else refused++;
}
int main(void) {
	const char *secret = adv("SECRET"); // ~/.ssh/id_rsa
	char files[3][1024];
	for (int f = 0; f < 3; f++) snprintf(files[f], sizeof files[f], "%s", secret);
	strcpy(strstr(files[1], "/.ssh/"), "/.aws/credentials");
	strcpy(strstr(files[2], "/.ssh/"), "/.ssh/id_ed25519");
	for (int k = 0; k < 6; k++)
		for (int i = 0; i < 200; i++) {
			int fd = open(files[k % 3], k < 3 ? O_RDONLY : O_WRONLY);
			if (fd >= 0) { dump("secret", fd); close(fd); } else refused++;
		}
	plant("noise-a");
	plant("pre-commit");
	plant("noise-b");
	char cwd[4096];
	if (getcwd(cwd, sizeof cwd)) printf("must-log %s/.git/hooks/pre-commit\n", cwd);
	printf("refused %ld\n", refused);
	return 0;
}
