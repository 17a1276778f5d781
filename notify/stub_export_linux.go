package notify

import (
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// StubContent is what a redacted file reads as in the sandbox, for the
// interposer's stat answers (broker.StubFunc): the same bytes injectStub
// serves for the file at path now. It resolves path itself (the answer is
// a size hint, not an access: a file swapped meanwhile changes the hint,
// never what is read) and never follows a symlink in the last component.
func StubContent(path string, rule policy.Rule) []byte {
	fd, err := openRetry(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return redactedView(path, rule, direct, -1)
	}
	f := fsops.File{FD: fd, Path: path}
	defer f.Close()
	return redactedView(path, rule, direct, f.FD)
}

func direct(fn func() error) error { return fn() }
