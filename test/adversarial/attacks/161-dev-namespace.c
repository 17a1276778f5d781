// technique: a root agent renames, removes or replaces the host's own device names that generic allows writing (/dev/null, /dev/zero, /dev/tty, /dev/ptmx, /dev/stdout, /dev/stderr): allow_write on a device path also grants create, unlink, rename and link, and the broker performs them without Landlock. Probed without changing anything: renameat2 of each name onto itself, which the kernel answers 0 without touching the directory once the broker let it through (in a private mount namespace, `rm /dev/null; echo x >/dev/null` then leaves a regular file that every outside process writes its discarded output into)
#include "adv.h"

int main(void) {
	setvbuf(stdout, NULL, _IONBF, 0);
	const char *names[] = {"/dev/null", "/dev/zero", "/dev/tty", "/dev/ptmx", "/dev/stdout", "/dev/stderr",
		"/dev/full", "/dev/random", "/dev/urandom", "/dev/stdin"};
	for (unsigned i = 0; i < sizeof names / sizeof *names; i++) {
		struct stat st;
		if (lstat(names[i], &st) != 0) { printf("%s: missing\n", names[i]); continue; }
		long r = syscall(SYS_renameat2, AT_FDCWD, names[i], AT_FDCWD, names[i], 0);
		if (r == 0 && geteuid() == 0) // as another user the kernel's own check on /dev refuses the real rename
			printf("ADV-GAINED: rename of %s allowed (the broker would replace or remove it)\n", names[i]);
		else
			printf("rename %s: %s\n", names[i], r == 0 ? "allowed, not root" : strerror(errno));
		r = syscall(SYS_renameat2, AT_FDCWD, names[i], AT_FDCWD, names[i], 2 /* RENAME_EXCHANGE */);
		if (r == 0 && geteuid() == 0)
			printf("ADV-GAINED: exchange of %s allowed\n", names[i]);
		else
			printf("exchange %s: %s\n", names[i], r == 0 ? "allowed, not root" : strerror(errno));
	}
	// A hard link of a device node to a new name in the project: a node
	// under a name the agent controls.
	if (link("/dev/null", "null-link") == 0) {
		struct stat st;
		if (lstat("null-link", &st) == 0 && S_ISCHR(st.st_mode)) printf("ADV-GAINED: hard link of /dev/null into the project\n");
		unlink("null-link");
	} else printf("link /dev/null: %s\n", strerror(errno));
	return 0;
}
