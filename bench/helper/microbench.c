/* microbench: the operations the benchmark times, run natively and under
 * each sandbox. Usage: microbench OP DIR N [ARGS...]. Prints one latency in
 * nanoseconds per line (per operation), or for "read" one throughput in
 * bytes per second per pass, or for "run" the wall time of ARGS in nanoseconds.
 * "exec" starts ARGS[0] if given, /bin/true otherwise. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void fail(const char *what, const char *path) {
	perror(what);
	fprintf(stderr, "microbench: %s %s\n", what, path);
	exit(1);
}

static int spawn_wait(char **argv) {
	pid_t pid;
	int st;
	if (posix_spawn(&pid, argv[0], NULL, NULL, argv, environ) != 0) return -1;
	if (waitpid(pid, &st, 0) < 0) return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* spawnp_wait runs argv with its output sent to /dev/null: this program's
 * own standard output carries the figures. */
static int spawnp_wait(char **argv) {
	pid_t pid;
	int st;
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	int err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (err != 0) return -1;
	if (waitpid(pid, &st, 0) < 0) return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int main(int argc, char **argv) {
	if (argc < 4) {
		fprintf(stderr, "usage: microbench OP DIR N [ARGS...]\n");
		return 2;
	}
	const char *op = argv[1], *dir = argv[2];
	int n = atoi(argv[3]);
	char path[4096], path2[4096], buf[65536];
	long long *lat = calloc(n > 0 ? n : 1, sizeof *lat);
	if (!lat) return 1;
	for (int i = 0; i < n; i++) {
		long long t0 = 0;
		if (!strcmp(op, "open")) {
			snprintf(path, sizeof path, "%s/f%d", dir, i);
			t0 = now();
			int fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0) fail("open", path);
			if (read(fd, buf, 4096) < 0) fail("read", path);
			close(fd);
		} else if (!strcmp(op, "stat")) {
			struct stat st;
			snprintf(path, sizeof path, "%s/f%d", dir, i);
			t0 = now();
			if (stat(path, &st) < 0) fail("stat", path);
		} else if (!strcmp(op, "readdir")) {
			t0 = now();
			DIR *d = opendir(dir);
			if (!d) fail("opendir", dir);
			while (readdir(d)) {
			}
			closedir(d);
		} else if (!strcmp(op, "exec")) {
			char *targv[] = {argc > 4 ? argv[4] : "/bin/true", NULL};
			t0 = now();
			if (spawn_wait(targv) != 0) fail("exec", targv[0]);
		} else if (!strcmp(op, "rename")) {
			snprintf(path, sizeof path, "%s/r%d", dir, i);
			snprintf(path2, sizeof path2, "%s/r%d.new", dir, i);
			int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
			if (fd < 0) fail("create", path);
			close(fd);
			t0 = now();
			if (rename(path, path2) < 0) fail("rename", path);
			lat[i] = now() - t0;
			unlink(path2);
			continue;
		} else if (!strcmp(op, "create")) {
			snprintf(path, sizeof path, "%s/c%d", dir, i);
			t0 = now();
			int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0) fail("create", path);
			close(fd);
			if (unlink(path) < 0) fail("unlink", path);
		} else if (!strcmp(op, "read")) {
			/* DIR is the file, read whole N times, opened once per pass. */
			int fd = open(dir, O_RDONLY | O_CLOEXEC);
			if (fd < 0) fail("open", dir);
			long long total = 0;
			ssize_t r;
			t0 = now();
			while ((r = read(fd, buf, sizeof buf)) > 0) total += r;
			long long el = now() - t0;
			close(fd);
			lat[i] = el > 0 ? total * 1000000000LL / el : 0;
			continue;
		} else if (!strcmp(op, "run")) {
			if (argc < 5) return 2;
			if (chdir(dir) < 0) fail("chdir", dir);
			t0 = now();
			int rc = spawnp_wait(argv + 4);
			lat[i] = now() - t0;
			if (rc < 0) fail("spawn", argv[4]);
			if (rc != 0 && rc != 1) { /* grep exits 1 when nothing matched */
				fprintf(stderr, "microbench: %s exited %d\n", argv[4], rc);
				return 1;
			}
			continue;
		} else {
			fprintf(stderr, "microbench: unknown op %s\n", op);
			return 2;
		}
		lat[i] = now() - t0;
	}
	for (int i = 0; i < n; i++) printf("%lld\n", lat[i]);
	return 0;
}
