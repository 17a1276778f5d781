/* threads.c: 8 threads stat a hidden and a shown path 20,000 times each,
 * forking now and then; every answer must be right from the first call
 * (the threads race the snapshot load) and errno must be preserved.
 * Prints "bad N". Built and run in the sandbox by TestThreadsAndFork. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *hidden, *shown;
static int bad;

static void *run(void *arg)
{
	struct stat st;
	(void)arg;
	for (int i = 0; i < 20000; i++) {
		errno = 1234;
		if (stat(shown, &st) != 0 || errno != 1234)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		if (stat(hidden, &st) == 0 || errno != ENOENT)
			__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		if (i % 5000 == 0) {
			pid_t p = fork();
			if (p == 0)
				_exit(stat(hidden, &st) == 0);
			int s;
			waitpid(p, &s, 0);
			if (!WIFEXITED(s) || WEXITSTATUS(s))
				__atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[8];
	if (argc != 3)
		return 2;
	hidden = argv[1];
	shown = argv[2];
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, run, NULL);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	printf("bad %d\n", bad);
	return 0;
}
