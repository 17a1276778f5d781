package doctor

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/seccomp"
)

// ProbeArg is the hidden first argument that turns the binary into the
// seccomp probe child.
const ProbeArg = "__aixbroker_doctor_probe__"

// probeSyscall is trapped by the probe's filter: nothing in the Go runtime
// calls it on its own.
const probeSyscall = unix.SYS_GETPGID

// MaybeProbe runs the seccomp probe and exits when the process was started
// with ProbeArg; otherwise it returns at once. main must call it first.
func MaybeProbe() {
	if len(os.Args) < 2 || os.Args[1] != ProbeArg {
		return
	}
	out, _ := json.Marshal(probe())
	os.Stdout.Write(out)
	os.Exit(0)
}

// probe installs a filter that sends probeSyscall to a listener, on this
// thread only, and answers the trapped call from another thread with an
// injected descriptor.
func probe() ProbeResult {
	runtime.LockOSThread() // the filter stays on this thread; the process exits after
	var r ProbeResult
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		r.Error = fmt.Sprintf("set no_new_privs: %v", err)
		return r
	}
	prog, err := bpf.Assemble([]bpf.Instruction{
		bpf.LoadAbsolute{Off: 0, Size: 4}, // seccomp_data.nr
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: probeSyscall, SkipFalse: 1},
		bpf.RetConstant{Val: unix.SECCOMP_RET_USER_NOTIF},
		bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW},
	})
	if err != nil {
		r.Error = err.Error()
		return r
	}
	listener, err := seccomp.Install(prog, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER|unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)
	r.WaitKillable = err == nil
	if errors.Is(err, unix.EINVAL) {
		listener, err = seccomp.Install(prog, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER)
	}
	if err != nil {
		r.Nested = errors.Is(err, unix.EBUSY)
		r.Error = err.Error()
		return r
	}
	r.Listener = true
	r.SyncWakeUp = seccomp.SetFlags(listener, unix.SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) == nil
	answered := make(chan bool, 1)
	go func() { answered <- answer(listener) }()
	fd, _, errno := unix.Syscall(probeSyscall, 0, 0, 0) // trapped: answered with an fd
	r.AddFDSend = <-answered && errno == 0 && isDevNull(int(fd))
	return r
}

// answer receives the probe's notification and injects /dev/null with
// ADDFD_FLAG_SEND; if the kernel lacks the flag it answers with an error.
func answer(listener int) bool {
	var n seccomp.SeccompNotif
	if err := seccomp.NotifRecv(listener, &n); err != nil {
		return false
	}
	null, err := unix.Open("/dev/null", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err == nil {
		defer unix.Close(null)
		if _, err = seccomp.AddFD(listener, n.ID, null, unix.SECCOMP_ADDFD_FLAG_SEND, 0); err == nil {
			return true
		}
	}
	seccomp.NotifSend(listener, &seccomp.SeccompNotifResp{ID: n.ID, Error: -int32(unix.ENOSYS)})
	return false
}

func isDevNull(fd int) bool {
	var st, null unix.Stat_t
	return unix.Fstat(fd, &st) == nil && unix.Stat("/dev/null", &null) == nil && st.Rdev == null.Rdev
}
