package notify

import (
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
	"github.com/aixbroker/aixbroker/redact"
)

// redactedView is what a redacted file reads as: redact.Render of its
// content (keys kept, values masked) or, on any doubt, redact.Stub. The
// content is read from fd, the O_PATH descriptor the decision was taken on,
// never by resolving the path again. read opens it for reading and is run
// as the caller (so the broker reads nothing the agent could not).
func redactedView(path string, rule policy.Rule, read func(fn func() error) error, fd int) []byte {
	var content []byte
	err := read(func() error {
		var err error
		content, err = readRegular(fd)
		return err
	})
	if err != nil {
		return redact.Stub(rule.ID())
	}
	return redact.Render(path, content, rule.Mode, rule.ID())
}

// readRegular reads at most redact.MaxInput+1 bytes of the regular file
// behind the O_PATH descriptor fd. Anything else (a FIFO or a device that
// could block the broker or have side effects on open) is an error.
func readRegular(fd int) ([]byte, error) {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, fmt.Errorf("stat redacted file: %w", err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, fmt.Errorf("read redacted file: %w", errNotRegular)
	}
	rfd, err := openRetry("/proc/self/fd/"+strconv.Itoa(fd), unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY|unix.O_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("open redacted file: %w", err)
	}
	defer unix.Close(rfd)
	if err := unix.Fstat(rfd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, fmt.Errorf("read redacted file: %w", errNotRegular)
	}
	limit := redact.MaxInput + 1
	buf := make([]byte, 0, min(max(st.Size, 0)+1, int64(limit)))
	for len(buf) < limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(rfd, buf[len(buf):min(cap(buf), limit)])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read redacted file: %w", err)
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
	}
	return buf, nil
}

var errNotRegular = errors.New("not a regular file")

// injectStub answers a read of the redacted file f with a read-only
// descriptor of the sealed memfd holding its redacted view (one per file
// version, stubcache_linux.go). It owns f.
func (r *Request) injectStub(f fsops.File, rule policy.Rule, flags int) Reply {
	ro, err := r.stubFD(f, rule)
	f.Close()
	if err != nil {
		return ErrorOf(err)
	}
	return InjectFD(ro, flags&unix.O_CLOEXEC != 0)
}

// sealedMemfd returns a read-only descriptor of a memfd holding content,
// sealed against any change.
func sealedMemfd(content []byte) (int, error) {
	mfd, err := unix.MemfdCreate("aixbroker-redacted", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return -1, fmt.Errorf("create memfd: %w", err)
	}
	defer unix.Close(mfd)
	for done := 0; done < len(content); {
		n, err := unix.Write(mfd, content[done:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil || n == 0 {
			return -1, fmt.Errorf("write memfd: %w", unix.EIO)
		}
		done += n
	}
	seals := unix.F_SEAL_WRITE | unix.F_SEAL_GROW | unix.F_SEAL_SHRINK | unix.F_SEAL_SEAL
	if _, err := unix.FcntlInt(uintptr(mfd), unix.F_ADD_SEALS, seals); err != nil {
		return -1, fmt.Errorf("seal memfd: %w", err)
	}
	ro, err := openRetry("/proc/self/fd/"+strconv.Itoa(mfd), unix.O_RDONLY|unix.O_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("reopen memfd: %w", err)
	}
	return ro, nil
}
