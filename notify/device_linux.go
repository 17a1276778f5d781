package notify

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// Devices. The broker opens every file itself and injects the descriptor,
// so the kernel's checks on a device the agent opens are the broker's:
// Landlock's IOCTL_DEV never applies to a brokered descriptor, and a root
// broker opens what root may. A device node can be anywhere (a copy left
// in the project, a hard link), so the decision is on the inode's type and
// device number, read from the descriptor the broker resolved, never on
// the name:
//
//   - the harmless character devices (null, zero, full, random, urandom)
//     open wherever the policy allows their path;
//   - /dev/tty opens the caller's own controlling terminal (read from
//     /proc/<tid>/stat), not the broker's;
//   - /dev/ptmx (and devpts' ptmx) allocate a new pseudo-terminal, which
//     the session remembers;
//   - a terminal opens only if it is the session's own: a pseudo-terminal
//     allocated in the session and still alive, a terminal stage 2 got as
//     standard input, output or error (the user's terminal), or the
//     caller's controlling terminal. Another terminal of the user (the
//     review read a sudo password typed there) is refused whatever the
//     policy's globs say;
//   - every other character device and every block device (raw disks,
//     /dev/kmsg, /dev/mem, /dev/port, /dev/userfaultfd, /dev/kvm,
//     /dev/fuse, /dev/uinput, /dev/input/*, /dev/snd/*, /dev/video*,
//     /dev/loop-control, /dev/mapper/control, ...) opens only when the rule
//     that allowed the path names it literally, without a glob: a serial
//     port or a GPU for a project that needs one. `policy check` warns
//     about such a rule.
//
// A refusal answers EACCES and is recorded with the device-guard rule.

// Device numbers, as st_rdev encodes them.
var (
	rdevTTY  = unix.Mkdev(5, 0)
	rdevPTMX = unix.Mkdev(5, 2)
)

// plainDevices are the character devices any program may open: they hold
// nothing and reach nothing.
var plainDevices = map[uint64]string{
	unix.Mkdev(1, 3): "null",
	unix.Mkdev(1, 5): "zero",
	unix.Mkdev(1, 7): "full",
	unix.Mkdev(1, 8): "random",
	unix.Mkdev(1, 9): "urandom",
}

// deviceGuard names the decision that refuses a device.
func deviceGuard(path string, st *unix.Stat_t) policy.Rule {
	kind := "character"
	if st.Mode&unix.S_IFMT == unix.S_IFBLK {
		kind = "block"
	}
	return policy.Rule{
		List:    "device-guard",
		Pattern: path + " (" + kind + " device " + strconv.Itoa(int(unix.Major(st.Rdev))) + ":" + strconv.Itoa(int(unix.Minor(st.Rdev))) + ")",
		Comment: "devices other than null, zero, full, random, urandom and the session's own terminals open only under a rule naming them literally",
	}
}

func isDevice(mode uint32) bool {
	t := mode & unix.S_IFMT
	return t == unix.S_IFCHR || t == unix.S_IFBLK
}

// isPTS reports whether rdev is a Unix 98 pseudo-terminal slave (majors
// 136-143).
func isPTS(rdev uint64) bool {
	m := unix.Major(rdev)
	return m >= 136 && m <= 143
}

// isTerminal reports whether rdev is a terminal (a virtual console, a
// serial line, a pseudo-terminal, the console).
func isTerminal(rdev uint64) bool {
	switch m := unix.Major(rdev); {
	case isPTS(rdev), m == 4, rdev == unix.Mkdev(5, 1):
		return true
	}
	return false
}

// openDevice serves the open of the device f (st its fstat) that the policy
// allowed with decision d. It owns f.
func (r *Request) openDevice(f fsops.File, flags int, st *unix.Stat_t, d policy.Decision) Reply {
	if st.Mode&unix.S_IFMT == unix.S_IFCHR {
		switch {
		case plainDevices[st.Rdev] != "":
			defer f.Close()
			return r.reopenMode(f.FD, flags, st.Mode)
		case st.Rdev == rdevTTY:
			return r.openCtty(f, flags)
		case st.Rdev == rdevPTMX:
			return r.openPTMX(f, flags, st.Mode)
		case isTerminal(st.Rdev) && r.ownTerminal(st):
			defer f.Close()
			return r.reopenMode(f.FD, flags, st.Mode)
		}
	}
	if literalRule(d, f.Path) {
		defer f.Close()
		return r.reopenMode(f.FD, flags, st.Mode)
	}
	f.Close()
	op := openOps(flags)[len(openOps(flags))-1]
	r.note(op, f.Path, policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: deviceGuard(f.Path, st)})
	return Errno(syscall.EACCES)
}

// literalRule reports whether d allowed path by a rule that names it
// exactly, with no glob.
func literalRule(d policy.Decision, path string) bool {
	return d.Allowed() && d.Rule.Glob == path && !strings.ContainsAny(d.Rule.Glob, "*?[{\\")
}

// openCtty serves an open of /dev/tty: the kernel would open the caller's
// controlling terminal, so the broker opens that one, not its own.
func (r *Request) openCtty(f fsops.File, flags int) Reply {
	defer f.Close()
	ctty, err := callerTTY(r.TID())
	if err != nil {
		return ErrorOf(err)
	}
	if err := r.Valid(); err != nil {
		return ErrorOf(err)
	}
	if ctty == 0 {
		return Errno(syscall.ENXIO) // no controlling terminal, as the kernel answers
	}
	if own, err := callerTTY(os.Getpid()); err == nil && own == ctty {
		return r.reopenMode(f.FD, flags, unix.S_IFCHR)
	}
	if !isPTS(ctty) {
		return Errno(syscall.ENXIO) // a terminal the broker cannot name: not reached
	}
	n := (unix.Major(ctty)-136)<<8 | unix.Minor(ctty)
	path := "/dev/pts/" + strconv.Itoa(int(n))
	fd, err := openRetry(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	if err != nil {
		return ErrorOf(err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Rdev != ctty {
		return Errno(syscall.ENXIO)
	}
	return r.reopenMode(fd, flags, st.Mode)
}

// openPTMX allocates a pseudo-terminal for the caller and remembers it as
// the session's.
func (r *Request) openPTMX(f fsops.File, flags int, mode uint32) Reply {
	defer f.Close()
	nfd, err := r.reopenFD(f.FD, flags, mode)
	if err != nil {
		return ErrorOf(err)
	}
	r.sup.ttys.addPTY(nfd)
	return InjectFD(nfd, flags&unix.O_CLOEXEC != 0)
}

// ownTerminal reports whether the terminal st is the session's own.
func (r *Request) ownTerminal(st *unix.Stat_t) bool {
	if r.sup.ttys.has(st.Dev, st.Rdev) {
		return true
	}
	ctty, err := callerTTY(r.TID())
	return err == nil && ctty != 0 && ctty == st.Rdev
}

// callerTTY returns the controlling terminal of thread tid (tty_nr in
// /proc/<tid>/stat, the st_rdev encoding), 0 when it has none.
func callerTTY(tid int) (uint64, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/stat")
	if err != nil {
		return 0, procErr(err)
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, syscall.EIO
	}
	f := strings.Fields(s[i+1:]) // state ppid pgrp session tty_nr ...
	if len(f) < 5 {
		return 0, syscall.EIO
	}
	n, err := strconv.ParseInt(f[4], 10, 64)
	if err != nil {
		return 0, syscall.EIO
	}
	return uint64(uint32(n)), nil
}

// startDevices records the session's standard terminals and, when the
// broker holds capabilities stage 2 drops (a root session), makes every
// operation run with the caller's own effective set (caps_linux.go).
func (s *Supervisor) startDevices(cfg Config) {
	s.ttys.addStdio(orStd(cfg.Stdin, os.Stdin), orStd(cfg.Stdout, os.Stdout), orStd(cfg.Stderr, os.Stderr))
	if agent, ok := brokerExceedsAgent(); ok {
		s.agentCaps = agent
		s.capsReduced.Store(true)
	}
}

// maxPTYs bounds the pseudo-terminals the session remembers at once.
const maxPTYs = 1024

// sessionTTYs are the terminals the session may open: those stage 2 got
// as standard streams and the pseudo-terminals allocated in the session.
type sessionTTYs struct {
	mu    sync.Mutex
	stdio []ttyKey
	ptys  []ttyKey // each with held, an O_PATH descriptor of its slave
}

type ttyKey struct {
	dev, rdev uint64
	held      int // O_PATH descriptor of a pty slave, -1 for stdio
}

// addStdio records the terminals among files (stage 2's standard streams).
func (t *sessionTTYs) addStdio(files ...*os.File) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, f := range files {
		var st unix.Stat_t
		if f == nil || unix.Fstat(int(f.Fd()), &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFCHR || !isTerminal(st.Rdev) {
			continue
		}
		t.stdio = append(t.stdio, ttyKey{dev: st.Dev, rdev: st.Rdev, held: -1})
	}
}

// addPTY remembers the slave of master, a pseudo-terminal master just
// allocated for the session. The broker holds an O_PATH descriptor of the
// slave's devpts node: when the pty is freed the node is unlinked, and a
// later pty that reuses the number (another terminal of the user) is not
// mistaken for the session's.
func (t *sessionTTYs) addPTY(master int) {
	peer, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(master), unix.TIOCGPTPEER, uintptr(unix.O_PATH|unix.O_NOCTTY|unix.O_CLOEXEC))
	if errno != 0 {
		return // Linux < 4.13: the slave cannot be named safely; openpty gets it from the master
	}
	var st unix.Stat_t
	if unix.Fstat(int(peer), &st) != nil {
		unix.Close(int(peer))
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sweep()
	if len(t.ptys) >= maxPTYs {
		unix.Close(int(peer))
		return
	}
	t.ptys = append(t.ptys, ttyKey{dev: st.Dev, rdev: st.Rdev, held: int(peer)})
}

// has reports whether (dev, rdev) is one of the session's terminals.
func (t *sessionTTYs) has(dev, rdev uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, k := range t.stdio {
		if k.rdev == rdev && k.dev == dev {
			return true
		}
	}
	t.sweep()
	for _, k := range t.ptys {
		if k.rdev == rdev && k.dev == dev {
			return true
		}
	}
	return false
}

// sweep forgets the ptys that were freed. Called with t.mu held.
func (t *sessionTTYs) sweep() {
	live := t.ptys[:0]
	for _, k := range t.ptys {
		var st unix.Stat_t
		if unix.Fstat(k.held, &st) == nil && st.Nlink > 0 {
			live = append(live, k)
			continue
		}
		unix.Close(k.held)
	}
	t.ptys = live
}
