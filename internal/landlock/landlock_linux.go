package landlock

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"

	ll "github.com/landlock-lsm/go-landlock/landlock"
	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// ABI returns the kernel's Landlock ABI version, 0 when Landlock is
// unavailable.
func ABI() int {
	v, err := llsys.LandlockGetABIVersion()
	if err != nil {
		return 0
	}
	return v
}

// Access rights, grouped as aixbroker grants them.
const (
	readRights  = llsys.AccessFSReadFile | llsys.AccessFSReadDir
	writeRights = llsys.AccessFSWriteFile | llsys.AccessFSRemoveDir | llsys.AccessFSRemoveFile |
		llsys.AccessFSMakeChar | llsys.AccessFSMakeDir | llsys.AccessFSMakeReg | llsys.AccessFSMakeSock |
		llsys.AccessFSMakeFifo | llsys.AccessFSMakeBlock | llsys.AccessFSMakeSym | llsys.AccessFSTruncate |
		llsys.AccessFSRefer
	// handled is every right of ABI 6; higher ABIs add rights aixbroker
	// does not restrict yet (unix socket resolution, ABI 9).
	handled = readRights | writeRights | llsys.AccessFSExecute | llsys.AccessFSIoctlDev
)

// terminals get IOCTL_DEV so interactive agents keep their terminal.
var terminals = []string{"/dev/tty", "/dev/pts", "/dev/ptmx"}

// Restrict applies the backstop to the calling thread only, which must have
// no_new_privs set and be locked (runtime.LockOSThread): the stage 2 execs
// the agent from it, and the other threads vanish at exec. Restricting one
// thread avoids stopping every thread of the process (go-landlock's
// Restrict), which costs milliseconds at startup. It
// refuses (ErrDegraded) on a kernel below MinABI unless allowDegraded, in
// which case it applies what the kernel supports and returns the ABI used.
func Restrict(roots Roots, allowDegraded bool) (int, error) {
	abi := ABI()
	if abi < MinABI && !allowDegraded {
		return abi, fmt.Errorf("%w: kernel has %d, aixbroker needs %d (Linux 6.12); --allow-degraded runs with less", ErrDegraded, abi, MinABI)
	}
	if abi == 0 {
		return 0, nil
	}
	cfg := ll.Config{HandledAccessFS: handled, Scoped: ll.ScopedSet(3)}
	if abi < MinABI {
		cfg = cfg.BestEffort()
	}
	fd, flags, err := cfg.NewRulesetFD(rules(roots)...)
	if err != nil {
		return abi, fmt.Errorf("create landlock ruleset: %w", err)
	}
	if fd < 0 {
		return abi, nil
	}
	defer unix.Close(fd)
	if err := llsys.LandlockRestrictSelf(fd, flags); err != nil {
		return abi, fmt.Errorf("apply landlock: %w", err)
	}
	return abi, nil
}

// rules turns roots into go-landlock rules, skipping missing paths.
func rules(roots Roots) []ll.Rule {
	var out []ll.Rule
	add := func(rights ll.AccessFSSet, paths []string) {
		for _, p := range existing(paths) {
			r := ll.PathAccess(rights, p)
			if !isDir(p) {
				r = ll.PathAccess(rights&fileRights, p)
			}
			out = append(out, r)
		}
	}
	add(readRights, roots.Read)
	add(readRights|writeRights, roots.Write)
	add(readRights|llsys.AccessFSExecute, roots.Exec)
	add(llsys.AccessFSIoctlDev|readRights|llsys.AccessFSWriteFile, terminals)
	return out
}

// fileRights are the rights that apply to a file (a directory rule may
// carry any).
const fileRights = llsys.AccessFSExecute | llsys.AccessFSWriteFile | llsys.AccessFSTruncate |
	llsys.AccessFSReadFile | llsys.AccessFSIoctlDev

// existing keeps the paths Landlock can hold a rule for: directories,
// regular files and devices. Pipes and sockets (such as /dev/stderr when
// stderr is a pipe) live on pseudo filesystems Landlock refuses (EBADFD);
// their descriptors are inherited and need no rule.
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err == nil {
			if st.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
				out = append(out, p)
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			out = append(out, p) // let Landlock report it
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
