package fsops

import (
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"
)

// statusMax bounds a /proc/<tid>/status read. The file is about 1.5 KiB,
// but its Groups line lists every supplementary group: 65,536 of them (the
// kernel's NGROUPS_MAX) take about 450 KiB.
const statusMax = 1 << 20

// ReadStatus returns the contents of /proc/<tid>/status. It reads with
// plain open, read and close: os.ReadFile costs eight more syscalls on
// this path (the poller's fcntl and epoll_ctl dance, fstat for the size),
// and the broker reads the file on a target's critical path.
func ReadStatus(tid int) ([]byte, error) {
	path := "/proc/" + strconv.Itoa(tid) + "/status"
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	for errors.Is(err, unix.EINTR) {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	defer unix.Close(fd)
	buf := make([]byte, 0, 4096)
	for len(buf) < statusMax {
		if len(buf) == cap(buf) {
			buf = append(buf, make([]byte, cap(buf))...)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", path, err)
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
	return nil, fmt.Errorf("read %s: %w", path, unix.EFBIG)
}
