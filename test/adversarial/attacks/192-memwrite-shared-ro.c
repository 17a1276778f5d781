// technique: make the broker write a readlink answer (a symlink target the agent chose) into a MAP_SHARED PROT_READ mapping of files it may only read (~/.bashrc, ~/.gitconfig, integrity.txt, ~/.local/bin/tool): /proc/<tid>/mem writes with FOLL_FORCE, which must not reach a shared file mapping; also a private mapping (copy on write, the file must stay) and a mapping made read-only after the fact
// build: static
#include "adv.h"
#include <sys/mman.h>
int main(void) {
	const char *rel[] = { ".bashrc", ".gitconfig", "integrity.txt", ".local/bin/tool" };
	const char *payload = "PWNED-BY-BROKER-WRITE";
	unlink("memw-link");
	if (symlink(payload, "memw-link") < 0) { perror("symlink"); return 1; }
	for (int i = 0; i < 4; i++) {
		char p[1024];
		snprintf(p, sizeof p, "%s/%s", adv("HOME"), rel[i]);
		int fd = open(p, O_RDONLY);
		if (fd < 0) { printf("%s: open: %s\n", rel[i], strerror(errno)); continue; }
		int flags[] = { MAP_SHARED, MAP_PRIVATE };
		for (int k = 0; k < 2; k++) {
			char *m = mmap(NULL, 4096, PROT_READ, flags[k], fd, 0);
			if (m == MAP_FAILED) { printf("%s: mmap: %s\n", rel[i], strerror(errno)); continue; }
			long n = syscall(SYS_readlink, "memw-link", m, strlen(payload));
			printf("%s %s: readlink into it: %ld %s\n", rel[i], k ? "private" : "shared", n, n < 0 ? strerror(errno) : "");
			n = syscall(SYS_readlinkat, AT_FDCWD, "memw-link", m + 5, strlen(payload));
			printf("%s %s: readlinkat into it: %ld %s\n", rel[i], k ? "private" : "shared", n, n < 0 ? strerror(errno) : "");
			munmap(m, 4096);
		}
		close(fd);
	}
	// A shared writable anonymous mapping made read-only: the agent's own memory.
	char *a = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	mprotect(a, 4096, PROT_READ);
	long n = syscall(SYS_readlink, "memw-link", a, strlen(payload));
	printf("anon shared ro: %ld %s\n", n, n < 0 ? strerror(errno) : "");
	return 0;
}
