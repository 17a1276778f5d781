// liveness.h: shared code of the liveness attacks (120-129). Each floods
// the supervisor with trapped calls that block (one sandboxed thread per
// call), then checks that the supervisor still answers a trapped call and
// that the secret stays unreadable. The flood runs in a "controller" child:
// the agent's own process dies with the supervisor (PDEATHSIG), so only a
// child can report what the sandbox can do once the supervisor is gone.
//
// Output the judge reads (judge_liveness_linux.go): "ADV-LIVENESS-LOST" when
// a trapped call after the flood got no answer from a live supervisor.
#include "adv.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>

struct tally {
	atomic_int started, ok, again, nosys, other, other_errno, nothread;
};
static struct tally *tally;
static int flood_pids[4096];
static int flood_nprocs;

static void msleep(int ms) {
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static long now_ms(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

// tally_result counts one blocking call's outcome (rc < 0: failed with err).
static void tally_result(long rc, int err) {
	if (rc >= 0) atomic_fetch_add(&tally->ok, 1);
	else if (err == EAGAIN) atomic_fetch_add(&tally->again, 1);
	else if (err == ENOSYS) atomic_fetch_add(&tally->nosys, 1);
	else { atomic_fetch_add(&tally->other, 1); tally->other_errno = err; }
}

static int tally_done(void) { return tally->ok + tally->again + tally->nosys + tally->other; }

typedef void (*blocker)(int idx);
static blocker flood_fn;

static void *flood_thread(void *arg) {
	atomic_fetch_add(&tally->started, 1);
	flood_fn((int)(long)arg);
	return NULL;
}

// flood runs total calls of fn, each on its own thread, per threads to a
// process, and returns once they all started and no call finished for a
// second (or after limit_ms).
static void flood(blocker fn, int total, int per, int limit_ms) {
	flood_fn = fn;
	for (int base = 0; base < total && flood_nprocs < 4096; base += per) {
		pid_t pid = fork();
		if (pid < 0) { printf("fork: %s\n", strerror(errno)); break; }
		if (pid == 0) {
			pthread_attr_t a;
			pthread_attr_init(&a);
			pthread_attr_setstacksize(&a, 64 * 1024);
			int n = total - base < per ? total - base : per;
			for (int i = 0; i < n; i++) {
				pthread_t t;
				if (pthread_create(&t, &a, flood_thread, (void *)(long)(base + i))) {
					atomic_fetch_add(&tally->nothread, 1);
					break;
				}
			}
			for (;;) pause();
		}
		flood_pids[flood_nprocs++] = pid;
	}
	long start = now_ms(), quiet = now_ms();
	int last = -1;
	while (now_ms() - start < limit_ms) {
		msleep(100);
		int d = tally_done();
		if (d != last) { last = d; quiet = now_ms(); continue; }
		if (tally->started + tally->nothread >= total && now_ms() - quiet > 1000) break;
	}
	printf("flood: %d calls, %d threads started (%d could not): ok %d, EAGAIN %d, ENOSYS %d, other %d (%s), still blocked %d\n",
	       total, tally->started, tally->nothread, tally->ok, tally->again, tally->nosys, tally->other,
	       tally->other ? strerror(tally->other_errno) : "-", tally->started - tally_done());
}

// flood_kill ends the flood's processes.
static void flood_kill(void) {
	for (int i = 0; i < flood_nprocs; i++) kill(flood_pids[i], SIGKILL);
	for (int i = 0; i < flood_nprocs; i++) waitpid(flood_pids[i], NULL, 0);
}

// probe makes one trapped call (an open the policy allows) in a child and
// reports whether a live supervisor answered it within 5 seconds.
static int probe(const char *when) {
	pid_t c = fork();
	if (c == 0) {
		int fd = open(".adv/world.env", O_RDONLY);
		_exit(fd >= 0 ? 0 : errno == ENOSYS ? 10 : 11);
	}
	for (long start = now_ms(); now_ms() - start < 5000; msleep(10)) {
		int st;
		if (waitpid(c, &st, WNOHANG) == c) {
			int code = WIFEXITED(st) ? WEXITSTATUS(st) : 99;
			if (code == 0) { printf("ADV-LIVENESS %s: a trapped open was answered\n", when); return 0; }
			printf("ADV-LIVENESS-LOST %s: a trapped open failed (%s): the supervisor is gone\n", when,
			       code == 10 ? "ENOSYS" : "other error");
			return 1;
		}
	}
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	printf("ADV-LIVENESS-LOST %s: a trapped open got no answer in 5 s: the supervisor stalled\n", when);
	return 2;
}

// controller forks the child that runs body and waits for it: the agent's
// process itself dies with the supervisor.
static int controller(void (*body)(void)) {
	setvbuf(stdout, NULL, _IONBF, 0);
	adv("SECRET"); // read the world before anything can go wrong
	tally = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t c = fork();
	if (c < 0) { perror("fork"); return 2; }
	if (c == 0) {
		body();
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	return 0;
}
