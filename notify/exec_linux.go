package notify

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/policy"
)

// Bounds on what the broker reads of an exec's argv.
const (
	maxArgs     = 4096
	maxArgBytes = 128 << 10
)

func init() { register(handleExec, "execve", "execveat") }

// handleExec decides execve and execveat on the canonical path of the file
// and on argv, then lets the kernel perform the exec, which nothing else
// can do.
func handleExec(r *Request) Reply {
	dirArg, pathArg, argvArg := -1, 0, 1
	follow, emptyPath := true, false
	if r.Syscall == "execveat" {
		dirArg, pathArg, argvArg = 0, 1, 2
		flags := int(r.Arg(4))
		follow = flags&unix.AT_SYMLINK_NOFOLLOW == 0
		emptyPath = flags&unix.AT_EMPTY_PATH != 0
	}
	path, err := r.ReadPath(pathArg)
	if err != nil {
		return ErrorOf(err)
	}
	argv, err := r.readArgv(r.Arg(argvArg))
	if err != nil {
		return ErrorOf(err)
	}
	f, err := r.resolveExec(dirArg, path, follow, emptyPath)
	if err != nil {
		return ErrorOf(err)
	}
	defer f.Close()
	if err := r.Valid(); err != nil {
		return ErrorOf(err)
	}
	if d := r.DecideExec(f.Path, argv); !d.Allowed() {
		return Denied(d, policy.OpExec)
	}
	c, err := r.prepareExec(f.FD, f.Path, argv)
	var denied execDenied
	if errors.As(err, &denied) {
		return Denied(denied.d, policy.OpExec)
	}
	if err != nil {
		return ErrorOf(err)
	}
	if r.tgid == 0 {
		r.tgid = r.sup.tgids.get(r.TID())
	}
	start, err := r.sup.watchExec(r.tgid, c)
	if err != nil {
		return ErrorOf(err)
	}
	if err := r.Valid(); err != nil { // the pidfd is of the caller's process
		return ErrorOf(err)
	}
	r.afterReply = start
	// TOCTOU: the kernel must perform the exec itself, so it reads the
	// path and argv again after the check, and a sibling thread (or a
	// process sharing the page, or a rename of a symlink on the way)
	// could swap them. What it can swap in is bounded by Landlock
	// (EXECUTE only below the exec roots, checked by the kernel on the
	// file it really executes and its interpreter), and the exec check
	// (execcheck_linux.go) verifies the new image against the decided
	// file, its interpreters and the argv, at its first trapped syscall
	// and by a watch, and kills a mismatch.
	return Continue("exec: verified after the fact (execcheck_linux.go), bounded by Landlock EXECUTE")
}

// resolveExec resolves the file an exec would run.
func (r *Request) resolveExec(dirArg int, path string, follow, emptyPath bool) (fsops.File, error) {
	if path == "/proc/self/exe" || path == "/proc/thread-self/exe" {
		return r.ownExe()
	}
	dirfd := unix.AT_FDCWD
	var err error
	switch {
	case dirArg >= 0 && (path == "" || path[0] != '/'):
		dirfd, err = r.dirFD(int32(r.Arg(dirArg)))
	case dirArg < 0 && path != "" && path[0] != '/':
		dirfd, err = r.dirFD(unix.AT_FDCWD)
	}
	if err != nil {
		return fsops.File{}, err
	}
	t, err := r.Target(path)
	if err != nil {
		return fsops.File{}, err
	}
	var f fsops.File
	err = r.AsCaller(func() error { // searched as the caller, as the kernel will
		var err error
		f, err = t.ResolveFile(dirfd, path, follow, emptyPath)
		return err
	})
	return f, err
}

// ownExe resolves the target's /proc/<tid>/exe: re-executing oneself is
// common (Go and Node tools do it) and the magic link is the target's own.
func (r *Request) ownExe() (fsops.File, error) {
	fd, err := openRetry("/proc/"+strconv.Itoa(r.TID())+"/exe", unix.O_PATH|unix.O_CLOEXEC)
	if err != nil {
		return fsops.File{}, fmt.Errorf("open target exe: %w", err)
	}
	canon, err := fsops.Canonical(fd)
	if err != nil {
		unix.Close(fd)
		return fsops.File{}, err
	}
	return fsops.File{FD: fd, Path: canon}, nil
}

// readArgv reads a NULL-terminated array of string pointers, bounded by
// maxArgs entries and maxArgBytes bytes (E2BIG beyond, like the kernel).
func (r *Request) readArgv(addr uint64) ([]string, error) {
	if addr == 0 {
		return nil, nil
	}
	var argv []string
	total := 0
	var ptr [8]byte
	for i := range maxArgs + 1 {
		if i == maxArgs {
			return nil, fmt.Errorf("read argv: %w", unix.E2BIG)
		}
		if _, err := r.ReadMemory(addr+uint64(8*i), ptr[:]); err != nil {
			return nil, err
		}
		p := binary.LittleEndian.Uint64(ptr[:])
		if p == 0 {
			break
		}
		s, err := r.ReadString(p, min(maxArgBytes-total, unix.PathMax*32))
		if errIs(err, unix.ENAMETOOLONG) {
			return nil, fmt.Errorf("read argv: %w", unix.E2BIG)
		}
		if err != nil {
			return nil, err
		}
		total += len(s) + 1
		argv = append(argv, s)
	}
	return argv, nil
}
