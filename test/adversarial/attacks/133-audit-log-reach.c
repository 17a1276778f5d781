// technique: reach the audit log from inside to forge, truncate or lock it: open the log, its rotated files, head anchor (and .head.tmp), lock file and config for reading and writing, by O_PATH + /proc/self/fd reopen, through /proc/<pid>/fd/* (the supervisor holds the log and lock open), /proc/<pid>/root and /proc/<pid>/cwd, plant symlinks and hard links in ~/.aixgate, rename into it, list it, and flock anything obtained
#include "adv.h"
#include <dirent.h>
#include <sys/file.h>
static int reached;
static void got(const char *what, int fd) {
	printf("reached %s", what);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) printf(" (and flocked it)");
	printf("\n");
	reached++;
}
static void try_all(const char *p) {
	int modes[] = {O_RDONLY, O_WRONLY | O_APPEND, O_RDWR, O_WRONLY | O_TRUNC, O_RDONLY | O_NONBLOCK};
	for (unsigned i = 0; i < sizeof modes / sizeof *modes; i++) {
		int fd = open(p, modes[i]);
		if (fd >= 0) { char w[4200]; snprintf(w, sizeof w, "open %s mode %#x", p, modes[i]); got(w, fd); close(fd); }
	}
	int pf = open(p, O_PATH);
	if (pf >= 0) {
		char q[64];
		snprintf(q, sizeof q, "/proc/self/fd/%d", pf);
		int fd = open(q, O_RDONLY);
		if (fd >= 0) { char w[4200]; snprintf(w, sizeof w, "O_PATH reopen of %s", p); got(w, fd); close(fd); }
		if (flock(pf, LOCK_EX | LOCK_NB) == 0) { char w[4200]; snprintf(w, sizeof w, "flock on an O_PATH fd of %s", p); got(w, -1); }
		close(pf);
	}
}
int main(void) {
	char home[1024], dir[1100], p[2048];
	snprintf(home, sizeof home, "%s", adv("SECRET"));
	*strstr(home, "/.ssh/") = 0;
	snprintf(dir, sizeof dir, "%s/.aixgate", home);
	const char *names[] = {"audit.jsonl", "audit.jsonl.1", "audit.jsonl.2", "audit.jsonl.head", "audit.jsonl.head.tmp", "audit.jsonl.lock", "config.yaml", ""};
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		try_all(p);
	}
	DIR *d = opendir(dir);
	if (d) { if (readdir(d)) got("listing of ~/.aixgate", dirfd(d)); closedir(d); }
	int fd = open("planted", O_WRONLY | O_CREAT, 0644);
	if (fd >= 0) close(fd);
	snprintf(p, sizeof p, "%s/audit.jsonl.head.tmp", dir);
	if (symlink("/etc/passwd", p) == 0) got("symlink planted at audit.jsonl.head.tmp", -1);
	if (link("planted", p) == 0) got("hard link planted at audit.jsonl.head.tmp", -1);
	if (rename("planted", p) == 0) got("rename into ~/.aixgate", -1);
	snprintf(p, sizeof p, "%s/audit.jsonl", dir);
	if (unlink(p) == 0) got("unlink of the log", -1);
	if (truncate(p, 0) == 0) got("truncate of the log", -1);
	// Every process's fds, root and cwd (the supervisor is one of them).
	DIR *procs = opendir("/proc");
	struct dirent *e;
	while (procs && (e = readdir(procs))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
		char fdd[300];
		snprintf(fdd, sizeof fdd, "/proc/%s/fd", e->d_name);
		DIR *fds = opendir(fdd);
		struct dirent *f;
		while (fds && (f = readdir(fds))) {
			if (f->d_name[0] == '.') continue;
			char q[600], target[4096] = "";
			snprintf(q, sizeof q, "%s/%s", fdd, f->d_name);
			ssize_t n = readlink(q, target, sizeof target - 1);
			if (n > 0) target[n] = 0;
			if (!strstr(target, ".aixgate")) continue;
			int fd = open(q, O_RDONLY);
			if (fd >= 0) { char w[5000]; snprintf(w, sizeof w, "%s -> %s", q, target); got(w, fd); close(fd); }
			fd = open(q, O_WRONLY | O_APPEND);
			if (fd >= 0) { char w[5000]; snprintf(w, sizeof w, "%s -> %s for writing", q, target); got(w, fd); close(fd); }
		}
		if (fds) closedir(fds);
		const char *via[] = {"root", "cwd"};
		for (int v = 0; v < 2; v++) {
			char q[4200];
			if (v == 0) snprintf(q, sizeof q, "/proc/%s/root%s/audit.jsonl", e->d_name, dir);
			else snprintf(q, sizeof q, "/proc/%s/cwd/../.aixgate/audit.jsonl", e->d_name);
			int fd = open(q, O_RDONLY);
			if (fd >= 0) { got(q, fd); close(fd); }
		}
	}
	if (procs) closedir(procs);
	printf("reached %d\n", reached);
	return 0;
}
