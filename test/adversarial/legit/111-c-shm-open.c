// operation: shm_open + ftruncate + mmap in C between a parent and its child (the child opens the object by name, without O_CREAT), a named semaphore (sem_open) shared by both, shm_unlink and sem_unlink, an object renamed and reopened under its new name, O_CREAT|O_EXCL on the session's own name (EEXIST)
// want: c-shm-ok
#include <errno.h>
#include <fcntl.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static void die(const char *what) { perror(what); exit(1); }

int main(void) {
	char name[64], sname[64], moved[64];
	snprintf(name, sizeof name, "/aixadv-legit-%d", getpid());
	snprintf(sname, sizeof sname, "/aixadv-legit-sem-%d", getpid());
	snprintf(moved, sizeof moved, "/dev/shm/aixadv-legit-moved-%d", getpid());
	int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
	if (fd < 0) die("shm_open create");
	if (ftruncate(fd, 4096) < 0) die("ftruncate");
	char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) die("mmap");
	strcpy(m, "parent");
	sem_t *s = sem_open(sname, O_CREAT | O_EXCL, 0600, 0);
	if (s == SEM_FAILED) die("sem_open create");
	if (shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600) >= 0 || errno != EEXIST) die("O_EXCL on own name");
	pid_t pid = fork();
	if (pid < 0) die("fork");
	if (pid == 0) {
		int cfd = shm_open(name, O_RDWR, 0);
		if (cfd < 0) die("child shm_open");
		char *cm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, cfd, 0);
		if (cm == MAP_FAILED) die("child mmap");
		if (strcmp(cm, "parent") != 0) { fprintf(stderr, "child saw %s\n", cm); _exit(1); }
		strcpy(cm, "child");
		sem_t *cs = sem_open(sname, 0);
		if (cs == SEM_FAILED) die("child sem_open");
		sem_post(cs);
		_exit(0);
	}
	if (sem_wait(s) < 0) die("sem_wait");
	int st;
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0 || strcmp(m, "child") != 0) { fprintf(stderr, "not shared: %s\n", m); return 1; }
	char path[80];
	snprintf(path, sizeof path, "/dev/shm%s", name);
	if (rename(path, moved) < 0) die("rename own object");
	int rfd = open(moved, O_RDWR);
	if (rfd < 0) die("open renamed object");
	if (ftruncate(rfd, 8192) < 0) die("ftruncate renamed object");
	if (unlink(moved) < 0) die("unlink renamed object");
	if (sem_unlink(sname) < 0) die("sem_unlink");
	if (shm_open(name, O_RDWR, 0) >= 0 || errno != ENOENT) die("open after unlink");
	puts("c-shm-ok");
	return 0;
}
