package notify

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/seccomp"
	"github.com/aixbroker/aixbroker/policy"
)

// Request is one trapped syscall being served. It is used by one goroutine.
type Request struct {
	Notif   seccomp.SeccompNotif
	Syscall string // the syscall's name, e.g. "openat"

	sup     *Supervisor
	start   time.Time
	events  []broker.Event
	closers []int
	creds   *fsops.Creds
	tgid    int
	busy    int64         // its busySince token (Detach)
	thread  *fsops.Thread // the serving goroutine's own thread, nil: use the runner
	// attempted is the first path read from the target, as it gave it, and
	// attemptedOp what the syscall would do with it: the audit record of a
	// request that failed before deciding (a missing path) says what was
	// tried.
	attempted   string
	attemptedOp policy.Op
	afterReply  func() // run after the reply, before the request's descriptors close
}

// Detach lets the supervisor receive the next notifications on another
// goroutine while this request goes on. Call it before an operation that
// may block for long (opening a FIFO, a blocking connect); the watchdog
// does it anyway after 20 ms. Each detached request holds its own thread,
// so at most maxDetached run at once: with none free Detach returns an
// EAGAIN error, which the handler returns without blocking (see
// errBusy).
func (r *Request) Detach() error { return r.sup.release(r.busy) }

// TID is the id of the calling thread, as the supervisor sees it.
func (r *Request) TID() int { return int(r.Notif.PID) }

// Arg returns syscall argument i (0-5).
func (r *Request) Arg(i int) uint64 {
	if i < 0 || i >= len(r.Notif.Data.Args) {
		return 0
	}
	return r.Notif.Data.Args[i]
}

// Valid reports (nil) that the notification is still pending: the thread is
// alive and still in this syscall, so what was read from its memory and its
// /proc entries was its own. Any error means: do not act.
func (r *Request) Valid() error {
	if err := seccomp.IDValid(r.sup.listener, r.Notif.ID); err != nil {
		return fmt.Errorf("check notification: %w", unix.ENOENT)
	}
	return nil
}

// ReadMemory fills buf from the target's memory at addr, page by page so
// that a read ending in an unmapped page still returns what precedes it. It
// returns how many bytes were read; a short count comes with an error.
func (r *Request) ReadMemory(addr uint64, buf []byte) (int, error) {
	done := 0
	for done < len(buf) {
		a := addr + uint64(done)
		chunk := min(len(buf)-done, pageSize-int(a%pageSize))
		local := []unix.Iovec{{Base: &buf[done]}}
		local[0].SetLen(chunk)
		remote := []unix.RemoteIovec{{Base: uintptr(a), Len: chunk}}
		n, err := unix.ProcessVMReadv(r.TID(), local, remote, 0)
		if err != nil {
			return done, fmt.Errorf("read target memory: %w", err)
		}
		if n == 0 {
			return done, fmt.Errorf("read target memory: %w", unix.EFAULT)
		}
		done += n
	}
	return done, nil
}

const pageSize = 4096

// pages recycles ReadString's page buffers: one per path read otherwise,
// garbage the collector would sweep on the broker's CPU.
var pages = sync.Pool{New: func() any { return new([pageSize]byte) }}

// ReadString reads a NUL-terminated string of at most max bytes (NUL
// included) at addr. A longer one is ENAMETOOLONG, a NULL pointer EFAULT.
func (r *Request) ReadString(addr uint64, max int) (string, error) {
	if addr == 0 {
		return "", fmt.Errorf("read string: %w", unix.EFAULT)
	}
	page := pages.Get().(*[pageSize]byte)
	defer pages.Put(page)
	var out []byte
	for len(out) < max {
		a := addr + uint64(len(out))
		chunk := page[:min(max-len(out), pageSize-int(a%pageSize))]
		if _, err := r.ReadMemory(a, chunk); err != nil {
			return "", err
		}
		if i := bytes.IndexByte(chunk, 0); i >= 0 {
			return string(append(out, chunk[:i]...)), nil
		}
		out = append(out, chunk...)
	}
	return "", fmt.Errorf("read string: %w", unix.ENAMETOOLONG)
}

// ReadPath reads the path argument i (PATH_MAX bounded).
func (r *Request) ReadPath(i int) (string, error) {
	path, err := r.ReadString(r.Arg(i), unix.PathMax)
	if err == nil && r.attempted == "" {
		r.attempted = path
	}
	return path, err
}

// DirFD returns an O_PATH descriptor, owned by the request, of the
// directory a relative path in argument i is resolved from: the target
// thread's cwd for AT_FDCWD (per thread: threads can unshare CLONE_FS), or
// its descriptor. For an absolute path it returns AT_FDCWD without opening
// anything (every sandboxed process shares the supervisor's root).
func (r *Request) DirFD(i int, path string) (int, error) {
	if strings.HasPrefix(path, "/") {
		return unix.AT_FDCWD, nil
	}
	return r.dirFD(int32(r.Arg(i)))
}

func (r *Request) dirFD(fd int32) (int, error) {
	link := "/proc/" + strconv.Itoa(r.TID()) + "/cwd"
	if fd != unix.AT_FDCWD {
		if fd < 0 {
			return -1, fmt.Errorf("resolve dirfd %d: %w", fd, unix.EBADF)
		}
		link = "/proc/" + strconv.Itoa(r.TID()) + "/fd/" + strconv.Itoa(int(fd))
	}
	n, err := openRetry(link, unix.O_PATH|unix.O_CLOEXEC)
	if err != nil {
		return -1, fmt.Errorf("open target directory %s: %w", link, procErr(err))
	}
	r.closers = append(r.closers, n)
	return n, nil
}

// procErr maps a failure to open the target's /proc entry to what the
// target would have seen: a missing fd is EBADF, a dead thread ENOENT.
func procErr(err error) error {
	if errors.Is(err, unix.ENOENT) {
		return unix.EBADF
	}
	return err
}

// Own registers fd to be closed after the reply.
func (r *Request) Own(fd int) { r.closers = append(r.closers, fd) }

// TGID returns the target's process id (read from /proc/<tid>/status).
func (r *Request) TGID() (int, error) {
	if r.tgid == 0 {
		if _, err := r.Creds(); err != nil {
			return 0, err
		}
	}
	return r.tgid, nil
}

// Creds returns the calling thread's credentials and umask.
func (r *Request) Creds() (fsops.Creds, error) {
	if r.creds != nil {
		return *r.creds, nil
	}
	data, err := fsops.ReadStatus(r.TID())
	if err != nil {
		return fsops.Creds{}, fmt.Errorf("read target status: %w", unix.ESRCH)
	}
	c, err := fsops.ParseStatus(data)
	if err != nil {
		return fsops.Creds{}, err
	}
	r.tgid = statusTgid(data)
	r.creds = &c
	return c, nil
}

func statusTgid(status []byte) int {
	_, rest, ok := bytes.Cut(status, []byte("\nTgid:"))
	if !ok {
		return 0
	}
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	n, _ := strconv.Atoi(strings.TrimSpace(string(line)))
	return n
}

// Target returns the fsops.Target path resolves for. The target's process
// id is read only when path may name /proc/self, /proc/thread-self or one
// of the target's descriptors (/proc/<pid>/fd/N/..., /dev/fd/N/...).
func (r *Request) Target(path string) (fsops.Target, error) {
	tgid := 0
	if strings.Contains(path, "self") || strings.Contains(path, "/fd/") {
		var err error
		if tgid, err = r.TGID(); err != nil {
			return fsops.Target{}, err
		}
	}
	t, err := fsops.NewTarget(-1, tgid, r.TID())
	if err == nil && r.sup.hideOPath {
		t.Crossing = r.crossing(t)
	}
	return t, err
}

// crossing decides, with the stat trap on (names the policy hides must not
// exist for the agent), a directory or file a path leaves by "..": hidden,
// the whole path answers as a missing name would (FINDINGS F8).
func (r *Request) crossing(t fsops.Target) func(dirfd int, prefix string) error {
	return func(dirfd int, prefix string) error {
		f, err := t.ResolveFile(dirfd, prefix, true, false) // t has no Crossing: earlier ".." were checked already
		if err != nil {
			return err
		}
		defer f.Close()
		d := r.sup.broker.Decide(policy.OpStat, f.Path)
		if d.Allowed() || d.Action == policy.Redact {
			return nil
		}
		r.note(policy.OpStat, f.Path, d)
		return &refusal{op: policy.OpStat, path: f.Path, errno: denyErrno(d, policy.OpStat)}
	}
}

// AsCaller runs fn with the caller's filesystem credentials. While no
// sandboxed thread has changed its credentials (see creds_linux.go), every
// sandboxed thread holds exactly the supervisor's (no new privileges: no
// setuid binary or file capability takes effect), so fn runs directly, on
// the supervisor's thread. Only the umask can differ, which matters for
// creation alone: use AsCallerCreate there.
func (r *Request) AsCaller(fn func() error) error {
	if !r.sup.credsChanged.Load() {
		if r.sup.capsReduced.Load() {
			return r.withAgentCaps(fn) // caps_linux.go: a root session
		}
		return fn()
	}
	return r.AsCallerCreate(fn)
}

// AsCallerCreate is AsCaller for operations that create a file, where the
// caller's umask applies: fn always runs on a thread holding the caller's
// credentials and umask.
func (r *Request) AsCallerCreate(fn func() error) error {
	c, err := r.Creds()
	if err != nil {
		return err
	}
	if err := r.Valid(); err != nil {
		return err
	}
	if r.thread != nil {
		return r.thread.AsCaller(c, fn)
	}
	return r.sup.asCaller(c, fn)
}

// Decide asks the broker about op on a canonical path and keeps the
// decision for the audit record.
func (r *Request) Decide(op policy.Op, path string) policy.Decision {
	d := guardDevfs(op, path, guardCgroup(op, path, r.sup.broker.Decide(op, path)))
	r.note(op, path, d)
	return d
}

// DecideExec asks the broker whether path may be executed with argv.
func (r *Request) DecideExec(path string, argv []string) policy.Decision {
	d := r.sup.broker.DecideExec(path, argv)
	r.note(policy.OpExec, path, d)
	return d
}

func (r *Request) note(op policy.Op, path string, d policy.Decision) {
	r.events = append(r.events, broker.Event{
		Op: op, Path: path, Syscall: r.Syscall, PID: r.tgid, TID: r.TID(), Decision: d,
	})
}

// finish closes what the request owns.
func (r *Request) finish() {
	for _, fd := range r.closers {
		unix.Close(fd)
	}
	r.closers = nil
}

func openRetry(path string, flags int) (int, error) {
	for {
		fd, err := unix.Open(path, flags, 0)
		if !errors.Is(err, unix.EINTR) {
			return fd, err
		}
	}
}
