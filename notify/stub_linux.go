package notify

import (
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// stubContent is what a redacted file reads as. The redaction work replaces
// it with content derived from the file (keys kept, values masked).
func stubContent(path string, rule policy.Rule) []byte {
	return fmt.Appendf(nil, "[aixbroker: redacted by rule %s]\n", rule.ID())
}

// injectStub answers a read of a redacted file with a sealed, read-only
// memfd holding stubContent.
func (r *Request) injectStub(path string, rule policy.Rule, flags int) Reply {
	mfd, err := unix.MemfdCreate("aixbroker-redacted", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return ErrorOf(err)
	}
	defer unix.Close(mfd)
	content := stubContent(path, rule)
	if n, err := unix.Write(mfd, content); err != nil || n != len(content) {
		return Errno(unix.EIO)
	}
	seals := unix.F_SEAL_WRITE | unix.F_SEAL_GROW | unix.F_SEAL_SHRINK | unix.F_SEAL_SEAL
	if _, err := unix.FcntlInt(uintptr(mfd), unix.F_ADD_SEALS, seals); err != nil {
		return ErrorOf(err)
	}
	ro, err := openRetry("/proc/self/fd/"+strconv.Itoa(mfd), unix.O_RDONLY|unix.O_CLOEXEC)
	if err != nil {
		return ErrorOf(err)
	}
	return InjectFD(ro, flags&unix.O_CLOEXEC != 0)
}
