// technique: a sibling thread toggles execve's argv between an allowed command line and one exec.deny_args refuses (git push --force)
// timeout: 60
#include "exec_race.h"
static char arg[16] = "--forc_";
static volatile int stop, started;
static void *flip(void *a) {
	started = 1;
	while (!stop) { arg[6] = 'e'; exec_spin(300); arg[6] = '_'; exec_spin(300); }
	return a;
}
static void attempt(void) {
	char path[1200];
	snprintf(path, sizeof path, "%s/git", exec_dir);
	pthread_t t;
	pthread_create(&t, 0, flip, 0);
	while (!started);
	char *argv[] = {"git", "push", arg, 0};
	execve(path, argv, (char *[]){0});
}
int main(int argc, char **argv) {
	exec_role(argc, argv);
	exec_setup();
	exec_copy("git");
	exec_race(attempt, 3000);
	return 0;
}
