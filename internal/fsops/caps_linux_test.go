package fsops

import (
	"errors"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWithEffective: fn runs without the capabilities left out of eff
// (mknod of a device node needs CAP_MKNOD), the thread keeps the lowered
// set after the call, and RestoreCaps gives its own set back.
func TestWithEffective(t *testing.T) {
	requireRoot(t)
	dir := t.TempDir()
	type result struct {
		inside, after uint64
		err           error
	}
	done := make(chan result)
	go func() { // never unlocked: the thread ends with this goroutine
		th, err := LockThread()
		if err != nil {
			done <- result{err: err}
			return
		}
		var res result
		eff := th.base.eff &^ (1 << unix.CAP_MKNOD)
		res.err = th.WithEffective(eff, func() error {
			res.inside, _, _, _ = capGet()
			return unix.Mknod(dir+"/null", unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3)))
		})
		if after, _, _, _ := capGet(); after != eff {
			res.err = errors.Join(res.err, errors.New("the lowered set was not kept after the call"))
		}
		if err := th.RestoreCaps(); err != nil {
			res.err = errors.Join(res.err, err)
		}
		res.after, _, _, _ = capGet()
		if res.after != th.base.eff {
			res.err = errors.Join(res.err, errors.New("capabilities not restored"))
		}
		done <- res
	}()
	res := <-done
	if !errors.Is(res.err, unix.EPERM) || res.inside&(1<<unix.CAP_MKNOD) != 0 {
		t.Errorf("mknod without CAP_MKNOD: err %v, effective inside %#x, after %#x", res.err, res.inside, res.after)
	}
}
