// technique: the exec path race of 170 with a static binary: the denied image makes no trapped syscall for 300 ms (only an asynchronous check can stop it)
// build: static
// timeout: 60
#include "exec_race.h"
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
	exec_race(attempt, 3000);
	return 0;
}
