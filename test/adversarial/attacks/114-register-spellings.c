// technique: the isolation rows on registers: every 64-bit spelling of a pid, op and flag word (garbage in the high 32 bits, negative pids, the supervisor's thread ids found through /proc/<n>/status), against the supervisor and the process outside; a new listener with every spelling; an unknown seccomp op
// needs: token supervisor
#include "adv.h"
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>

static const char *token;

static void report(const char *what, long rc) {
	if (rc >= 0)
		printf("%s: %ld SUCCEEDED %s\n", what, rc, token);
	else
		printf("%s: %s\n", what, strerror(errno));
}

static int status_field(long pid, const char *key) {
	char path[64], buf[4096];
	snprintf(path, sizeof path, "/proc/%ld/status", pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0) return errno == EACCES ? -2 : -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0) return -1;
	buf[n] = 0;
	char *p = strstr(buf, key);
	return p ? atoi(p + strlen(key)) : -1;
}

int main(void) {
	token = adv("TAG");
	static char tok[128];
	snprintf(tok, sizeof tok, "CANARY-REACHED-%s", token);
	token = tok;
	long sup = getppid(), victim = atol(adv("VICTIM_PID"));
	// The supervisor: the first ancestor outside the seccomp filter.
	for (int i = 0; i < 32 && status_field(sup, "\nSeccomp:\t") == 2; i++) sup = status_field(sup, "\nPPid:\t");
	printf("supervisor %ld\n", sup);
	const long hi = 1L << 32;

	// The supervisor's other threads: their ids follow its own, and their
	// /proc/<tid>/status is refused (EACCES) where a free id is ENOENT.
	long tids[64];
	int ntids = 0;
	for (long n = sup + 1; n < sup + 40 && ntids < 64; n++)
		if (n != sup && status_field(n, "\nTgid:\t") == -2) tids[ntids++] = n;
	printf("found %d thread ids of the supervisor\n", ntids);

	long targets[80];
	int nt = 0;
	targets[nt++] = sup;
	targets[nt++] = victim;
	targets[nt++] = sup | hi;
	targets[nt++] = victim | hi;
	targets[nt++] = victim | (0xffffffffL << 32);
	for (int i = 0; i < ntids && nt < 80; i++) targets[nt++] = tids[i];

	struct rlimit64 { uint64_t cur, max; } lim = {3, 3}, cpu = {1, 1};
	char what[160];
	for (int i = 0; i < nt; i++) {
		long t = targets[i];
		snprintf(what, sizeof what, "prlimit64(%#lx, NOFILE, {3,3})", t);
		report(what, syscall(SYS_prlimit64, t, RLIMIT_NOFILE, &lim, NULL));
		snprintf(what, sizeof what, "prlimit64(%#lx, CPU, {1,1})", t);
		report(what, syscall(SYS_prlimit64, t, RLIMIT_CPU, &cpu, NULL));
		snprintf(what, sizeof what, "setpriority(PRIO_PROCESS|hi, %#lx, 19)", t);
		report(what, syscall(SYS_setpriority, PRIO_PROCESS | hi, t, 19));
		snprintf(what, sizeof what, "ioprio_set(WHO_PROCESS, %#lx, IDLE)", t);
		report(what, syscall(SYS_ioprio_set, 1 | hi, t, (3 << 13) | 7));
		struct sched_param sp = {0};
		snprintf(what, sizeof what, "sched_setscheduler(%#lx, SCHED_IDLE)", t);
		report(what, syscall(SYS_sched_setscheduler, t, SCHED_IDLE, &sp));
		snprintf(what, sizeof what, "sched_setparam(%#lx, 0)", t);
		report(what, syscall(SYS_sched_setparam, t, &sp));
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(0, &set);
		snprintf(what, sizeof what, "sched_setaffinity(%#lx, {0})", t);
		report(what, syscall(SYS_sched_setaffinity, t, sizeof set, &set));
		uint32_t attr[14] = {56, 5 /* SCHED_IDLE */};
		snprintf(what, sizeof what, "sched_setattr(%#lx, SCHED_IDLE)", t);
		report(what, syscall(SYS_sched_setattr, t, attr, 0));
		snprintf(what, sizeof what, "kcmp(%#lx, self, KCMP_VM)", t);
		report(what, syscall(SYS_kcmp, t, getpid(), 1 /* KCMP_VM */, 0, 0));
		unsigned long mask = 1;
		snprintf(what, sizeof what, "migrate_pages(%#lx)", t);
		report(what, syscall(SYS_migrate_pages, t, 64, &mask, &mask));
		snprintf(what, sizeof what, "move_pages(%#lx, 0 pages)", t);
		report(what, syscall(SYS_move_pages, t, 0, NULL, NULL, NULL, 0));
	}
	// Groups and users, every spelling of the which word.
	report("setpriority(PRIO_PGRP, 0)", syscall(SYS_setpriority, PRIO_PGRP | hi, 0, 19));
	report("setpriority(PRIO_USER, 0)", syscall(SYS_setpriority, PRIO_USER | hi, 0, 19));
	report("setpriority(PRIO_USER, uid)", syscall(SYS_setpriority, PRIO_USER, getuid(), 19));
	report("ioprio_set(WHO_PGRP, 0)", syscall(SYS_ioprio_set, 2 | hi, 0, (3 << 13) | 7));
	report("ioprio_set(WHO_USER, uid)", syscall(SYS_ioprio_set, 3, getuid(), (3 << 13) | 7));
	// Negative ids: the kernel answers ESRCH or EINVAL natively.
	report("prlimit64(-1, NOFILE)", syscall(SYS_prlimit64, -1L, RLIMIT_NOFILE, &lim, NULL));
	report("setpriority(PRIO_PROCESS, -1)", syscall(SYS_setpriority, PRIO_PROCESS, -1L, 19));
	report("sched_setaffinity(-1)", syscall(SYS_sched_setaffinity, -1L, 8, &(unsigned long){1}));

	// Listeners and seccomp operations.
	struct sock_filter f[] = {BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)};
	struct sock_fprog prog = {1, f};
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	long op = SECCOMP_SET_MODE_FILTER, nl = SECCOMP_FILTER_FLAG_NEW_LISTENER;
	long spellings[][2] = {
		{op, nl}, {op | hi, nl}, {op, nl | hi}, {op | (0xffffffffL << 32), nl | (0xdeadL << 32)},
		{op, nl | SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_TSYNC_ESRCH},
		{op, nl | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV}, {op, nl | SECCOMP_FILTER_FLAG_LOG | SECCOMP_FILTER_FLAG_SPEC_ALLOW},
		{op, 1L << 6}, {op, 1L << 31},
	};
	for (unsigned i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
		snprintf(what, sizeof what, "seccomp(%#lx, %#lx)", spellings[i][0], spellings[i][1]);
		long rc = syscall(SYS_seccomp, spellings[i][0], spellings[i][1], &prog);
		if (rc >= 0 && (spellings[i][1] & nl))
			printf("%s: listener %ld INSTALLED %s\n", what, rc, token);
		else
			printf("%s: %ld %s\n", what, rc, rc < 0 ? strerror(errno) : "ok (no listener)");
	}
	for (long o = 4; o < 8; o++) {
		snprintf(what, sizeof what, "seccomp(op %ld)", o);
		long rc = syscall(SYS_seccomp, o, 0L, &prog);
		printf("%s: %ld %s\n", what, rc, rc < 0 ? strerror(errno) : "");
	}
	// prctl's filter install cannot carry flags: a listener is impossible.
	long rc = prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
	printf("prctl(PR_SET_SECCOMP, FILTER): %ld (no listener)\n", rc);
	// The supervisor still serves.
	int fd = open(".adv/world.env", O_RDONLY);
	printf("sandbox still served: %s\n", fd >= 0 ? "yes" : strerror(errno));
	return 0;
}
