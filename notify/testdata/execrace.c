// execrace DIR MARKER TRIES: races execve of DIR/okay into DIR/deny by a
// sibling thread toggling the path, with argv {"x", MARKER}. DIR/okay is a
// copy of true, DIR/deny one of touch: if the denied image gets to act,
// MARKER exists. Prints how each attempt ended.
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <errno.h>
static char path[4096];
static size_t off;
static volatile int started;
static void spin(void) { __asm__ volatile("" ::: "memory"); for (volatile int i = 0; i < 300; i++); __asm__ volatile("" ::: "memory"); }
static void *flip(void *a) {
	started = 1;
	for (;;) { memcpy(path + off, "deny", 4); spin(); memcpy(path + off, "okay", 4); spin(); }
	return a;
}
int main(int argc, char **argv) {
	if (argc < 4) return 2;
	int tries = atoi(argv[3]), refused = 0, ran = 0, killed = 0, other = 0;
	for (int i = 0; i < tries; i++) {
		pid_t p = fork();
		if (p == 0) {
			snprintf(path, sizeof path, "%s/okay", argv[1]);
			off = strlen(argv[1]) + 1;
			pthread_t t;
			pthread_create(&t, 0, flip, 0);
			while (!started);
			char *av[] = {"x", argv[2], 0};
			execve(path, av, (char *[]){0});
			_exit(errno == EACCES ? 13 : 14);
		}
		int st;
		waitpid(p, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 13) refused++;
		else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) ran++;
		else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) killed++;
		else other++;
	}
	printf("refused=%d ran=%d killed=%d other=%d\n", refused, ran, killed, other);
	return 0;
}
