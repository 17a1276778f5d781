package fsops

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sys/unix"
)

// ErrClosed is returned by AsCaller after Close.
var ErrClosed = errors.New("fsops runner closed")

// ReadCreds reads the credentials of thread tid from /proc/<tid>/status.
// Call IDValid on the notification afterwards: the thread may have died and
// its id been reused while the file was read.
func ReadCreds(tid int) (Creds, error) {
	data, err := ReadStatus(tid)
	if err != nil {
		return Creds{}, fmt.Errorf("read caller credentials: %w", err)
	}
	return ParseStatus(data)
}

// Thread is the calling goroutine's OS thread, made fit to act as a caller:
// locked for good and given its own fs_struct (unshare(CLONE_FS)), so that
// its umask can be the caller's without touching the rest of the broker.
// Its fsuid, fsgid, groups and effective capabilities are switched per call
// with raw per-thread syscalls (setfsuid, setfsgid, setgroups, capset),
// never with syscall.Setuid and friends, which Go applies to every thread
// of the process.
//
// A supervisor worker goroutine can own a Thread and act inline (no
// hand-off to another thread); Runner is a pool of them for everyone else.
type Thread struct {
	base    threadCreds
	cur     uint64 // the effective capabilities the thread holds now (WithEffective leaves them lowered)
	tainted bool
}

// ErrTainted is returned by Thread.AsCaller when the thread could not
// return to the broker's credentials: the goroutine must return (without
// UnlockOSThread) so the runtime terminates the thread.
var ErrTainted = errors.New("thread could not restore the broker's credentials")

// LockThread locks the calling goroutine to its OS thread for the rest of
// the goroutine's life and prepares it. Never call runtime.UnlockOSThread
// afterwards: when the goroutine returns, the runtime ends the thread.
func LockThread() (*Thread, error) {
	runtime.LockOSThread()
	if err := unix.Unshare(unix.CLONE_FS); err != nil {
		return nil, fmt.Errorf("unshare thread fs_struct: %w", err)
	}
	base, err := currentCreds()
	if err != nil {
		return nil, err
	}
	return &Thread{base: base, cur: base.eff}, nil
}

// AsCaller runs fn on this thread with the caller's fsuid, fsgid,
// supplementary groups, effective capabilities (never more than the
// broker's own) and umask, and returns fn's error. It must be called from
// the goroutine that called LockThread. If the broker cannot take on the
// caller's credentials exactly, fn is not run and the error wraps ErrCreds.
// If the thread cannot switch back, the error wraps ErrTainted and every
// later call fails with it.
func (t *Thread) AsCaller(c Creds, fn func() error) error {
	if t.tainted {
		return ErrTainted
	}
	if err := t.RestoreCaps(); err != nil {
		return err
	}
	unix.Umask(int(c.Umask & 0o777))
	want := t.want(c)
	if want.equal(t.base) {
		return call(fn)
	}
	var err error
	t.tainted = true // until leave succeeds: a panic in enter must not leave a thread that looks clean
	if serr := enter(want); serr != nil {
		err = fmt.Errorf("switch to caller credentials: %w", errors.Join(ErrCreds, serr))
	} else {
		err = call(fn)
	}
	if lerr := leave(t.base); lerr != nil {
		return errors.Join(err, fmt.Errorf("%w: %w", ErrTainted, lerr))
	}
	t.tainted, t.cur = false, t.base.eff
	return err
}

// WithEffective runs fn on this thread with its effective capabilities
// lowered to eff (never raised above the thread's own), ids and groups
// unchanged, and returns fn's error. A supervisor uses it while every
// sandboxed thread has its ids but fewer capabilities (a root agent after
// stage 2's drop). The thread keeps the lowered set afterwards, so a run
// of such requests costs one capset, not two per call (each capset is a
// credential commit: about 6 µs here, four per brokered open when it
// restored every time); RestoreCaps, and AsCaller, bring the thread's own
// set back. If the capabilities cannot be set the error wraps ErrTainted.
func (t *Thread) WithEffective(eff uint64, fn func() error) error {
	if t.tainted {
		return ErrTainted
	}
	eff &= t.base.eff
	if err := t.setCur(eff); err != nil {
		return err
	}
	return call(fn)
}

// RestoreCaps gives the thread back its own effective capabilities, after
// WithEffective lowered them. Code that must act with the broker's own
// capabilities on a thread that served a root session calls it first.
func (t *Thread) RestoreCaps() error {
	if t.tainted {
		return ErrTainted
	}
	return t.setCur(t.base.eff)
}

// setCur sets the thread's effective capabilities to eff if they differ.
func (t *Thread) setCur(eff uint64) error {
	if t.cur == eff {
		return nil
	}
	if err := setCaps(eff, t.base.perm, t.base.inh); err != nil {
		t.tainted = true
		return fmt.Errorf("%w: %w", ErrTainted, err)
	}
	t.cur = eff
	return nil
}

// Tainted reports that the thread could not return to the broker's
// credentials: its goroutine must return, still locked, so that the
// runtime ends the thread.
func (t *Thread) Tainted() bool { return t.tainted }

// want is what the thread must hold for caller c: the caller's ids and
// groups, and its effective capabilities limited to what the broker is
// permitted.
func (t *Thread) want(c Creds) threadCreds {
	return threadCreds{
		fsuid:  c.FSUID(),
		fsgid:  c.FSGID(),
		groups: sortedUnique(c.Groups),
		eff:    c.CapEff & t.base.perm,
		perm:   t.base.perm,
	}
}

// Runner runs functions with a caller's credentials on a small pool of
// Threads. A thread that cannot switch back to the broker's credentials is
// never reused: its goroutine returns while still locked, the runtime
// terminates the thread, and a fresh one replaces it.
type Runner struct {
	jobs chan job
	quit chan struct{}
	once sync.Once
}

type job struct {
	creds Creds
	fn    func() error
	done  chan error
}

// threadCreds is the part of a thread's credentials that access checks use.
type threadCreds struct {
	fsuid, fsgid uint32
	groups       []uint32 // sorted, unique
	eff, perm    uint64
	inh          uint64 // inheritable: kept as it is by setCaps
}

func (a threadCreds) equal(b threadCreds) bool {
	return a.fsuid == b.fsuid && a.fsgid == b.fsgid && a.eff == b.eff && slices.Equal(a.groups, b.groups)
}

// NewRunner starts workers threads (at least one), each returning to the
// broker's credentials as they were when it started.
func NewRunner(workers int) (*Runner, error) {
	r := &Runner{jobs: make(chan job), quit: make(chan struct{})}
	for range max(workers, 1) {
		if err := r.spawn(); err != nil {
			r.Close()
			return nil, err
		}
	}
	return r, nil
}

// Close stops the workers. Calls in flight finish; later calls fail with
// ErrClosed.
func (r *Runner) Close() {
	r.once.Do(func() { close(r.quit) })
}

// AsCaller runs fn on a worker Thread as the caller c (see
// Thread.AsCaller). fn must do its syscalls on its own goroutine: a
// goroutine it starts runs with the broker's credentials.
func (r *Runner) AsCaller(c Creds, fn func() error) error {
	j := job{creds: c, fn: fn, done: make(chan error, 1)}
	select {
	case r.jobs <- j:
	case <-r.quit:
		return ErrClosed
	}
	return <-j.done
}

func (r *Runner) spawn() error {
	ready := make(chan error, 1)
	go r.work(ready)
	return <-ready
}

// work is one worker's life on its Thread.
func (r *Runner) work(ready chan<- error) {
	t, err := LockThread()
	ready <- err
	if err != nil {
		return
	}
	for {
		select {
		case j := <-r.jobs:
			j.done <- t.AsCaller(j.creds, j.fn)
			if t.tainted {
				go r.spawn() //nolint:errcheck // a failed replacement leaves fewer workers, never a wrong one
				return
			}
		case <-r.quit:
			return
		}
	}
}

func sortedUnique(g []uint32) []uint32 {
	g = slices.Clone(g)
	slices.Sort(g)
	return slices.Compact(g)
}

// call runs fn, turning a panic into an error so the thread still switches
// back.
func call(fn func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("fsops: operation panicked: %v", p)
		}
	}()
	return fn()
}

// enter switches the current thread to want and verifies the result.
func enter(want threadCreds) error {
	if err := setGroups(want.groups); err != nil {
		return err
	}
	setfsgid(want.fsgid)
	setfsuid(want.fsuid)
	if err := setEffective(want.eff); err != nil {
		return err
	}
	return verify(want)
}

// leave switches the current thread back to base and verifies the result.
// Capabilities come first: restoring groups needs CAP_SETGID back.
func leave(base threadCreds) error {
	if err := setEffective(base.eff); err != nil {
		return err
	}
	setfsuid(base.fsuid)
	setfsgid(base.fsgid)
	if err := setGroups(base.groups); err != nil {
		return err
	}
	// Returning fsuid to 0 raises the file capabilities again: re-apply.
	if err := setEffective(base.eff); err != nil {
		return err
	}
	return verify(base)
}

func verify(want threadCreds) error {
	got, err := currentCreds()
	if err != nil {
		return err
	}
	if !got.equal(want) {
		return fmt.Errorf("thread credentials: got fsuid %d fsgid %d groups %v caps %#x, want %d %d %v %#x",
			got.fsuid, got.fsgid, got.groups, got.eff, want.fsuid, want.fsgid, want.groups, want.eff)
	}
	return nil
}

// currentCreds reads the calling thread's credentials from the kernel.
func currentCreds() (threadCreds, error) {
	var c threadCreds
	c.fsuid = setfsuid(^uint32(0)) // an invalid id changes nothing and returns the current one
	c.fsgid = setfsgid(^uint32(0))
	groups, err := unix.Getgroups()
	if err != nil {
		return c, fmt.Errorf("get groups: %w", err)
	}
	for _, g := range groups {
		c.groups = append(c.groups, uint32(g))
	}
	c.groups = sortedUnique(c.groups)
	c.eff, c.perm, c.inh, err = capGet()
	return c, err
}

// setfsuid changes the calling thread's fsuid (SYS_SETFSUID acts on the
// calling thread only) and returns the previous one. The kernel never
// reports failure here: callers verify.
func setfsuid(uid uint32) uint32 {
	prev, _ := unix.SetfsuidRetUid(int(int32(uid)))
	return uint32(prev)
}

func setfsgid(gid uint32) uint32 {
	prev, _ := unix.SetfsgidRetGid(int(int32(gid)))
	return uint32(prev)
}

// setGroups sets the calling thread's supplementary groups. x/sys/unix
// issues SYS_SETGROUPS with RawSyscall (this thread only), unlike
// syscall.Setgroups, which changes every thread of the process.
func setGroups(groups []uint32) error {
	cur, err := unix.Getgroups()
	if err != nil {
		return fmt.Errorf("get groups: %w", err)
	}
	curU := make([]uint32, 0, len(cur))
	for _, g := range cur {
		curU = append(curU, uint32(g))
	}
	if slices.Equal(sortedUnique(curU), groups) {
		return nil
	}
	ints := make([]int, len(groups))
	for i, g := range groups {
		ints[i] = int(g)
	}
	if err := unix.Setgroups(ints); err != nil {
		return fmt.Errorf("set groups: %w", err)
	}
	return nil
}

func capGet() (eff, perm, inh uint64, err error) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return 0, 0, 0, fmt.Errorf("get capabilities: %w", err)
	}
	eff = uint64(data[0].Effective) | uint64(data[1].Effective)<<32
	perm = uint64(data[0].Permitted) | uint64(data[1].Permitted)<<32
	inh = uint64(data[0].Inheritable) | uint64(data[1].Inheritable)<<32
	return eff, perm, inh, nil
}

// setCaps sets the calling thread's three capability sets in one capset
// (no capget first: WithEffective, on a thread whose permitted and
// inheritable sets only this package changes, knows them; half the
// syscalls on every brokered operation of a root session).
func setCaps(eff, perm, inh uint64) error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	data := [2]unix.CapUserData{
		{Effective: uint32(eff), Permitted: uint32(perm), Inheritable: uint32(inh)},
		{Effective: uint32(eff >> 32), Permitted: uint32(perm >> 32), Inheritable: uint32(inh >> 32)},
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("set capabilities: %w", err)
	}
	return nil
}

// setEffective sets the calling thread's effective capabilities (capset
// with pid 0 acts on the calling thread only), keeping permitted and
// inheritable.
func setEffective(eff uint64) error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("get capabilities: %w", err)
	}
	if uint64(data[0].Effective)|uint64(data[1].Effective)<<32 == eff {
		return nil
	}
	data[0].Effective = uint32(eff)
	data[1].Effective = uint32(eff >> 32)
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("set capabilities: %w", err)
	}
	return nil
}
