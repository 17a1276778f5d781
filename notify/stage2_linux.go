package notify

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/internal/seccomp"
)

// stage2Fd is the stage-2 end of the socketpair (ExtraFiles[0]).
const stage2Fd = 3

// Exit statuses of a stage 2 that fails, as shells use them.
const (
	exitSetupFailed = 125
	exitExecFailed  = 126
)

// MaybeStage2 turns the process into the sandbox's stage 2 when it was
// started as one by Run; otherwise it returns at once. main() must call it
// before anything else. In stage 2 it never returns: it execs the agent or
// exits with status 125 (setup failed) or 126 (exec refused).
func MaybeStage2() {
	maybeGuardian()
	if len(os.Args) < 2 || os.Args[1] != stage2Marker {
		return
	}
	runtime.LockOSThread() // filter, hand-over and exec happen on this thread
	unix.CloseOnExec(stage2Fd)
	sock := os.NewFile(stage2Fd, "stage2")
	status, err := stage2(sock)
	report(sock, err)
	os.Exit(status)
}

// stage2 restricts this process and execs the agent. It returns only on
// failure.
func stage2(sock *os.File) (int, error) {
	cfg, err := readConfig(sock)
	if err != nil {
		return exitSetupFailed, err
	}
	if cfg.Dir != "" {
		if err := unix.Chdir(cfg.Dir); err != nil {
			return exitSetupFailed, fmt.Errorf("change directory to %s: %w", cfg.Dir, err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return exitSetupFailed, fmt.Errorf("set no_new_privs: %w", err)
	}
	if err := limitAgentTasks(); err != nil { // limits_linux.go
		return exitSetupFailed, err
	}
	if err := dropCapabilities(); err != nil { // caps_linux.go; before the filter, which traps capset
		return exitSetupFailed, err
	}
	if _, err := landlock.Restrict(cfg.Landlock, cfg.AllowDegraded); err != nil {
		return exitSetupFailed, err
	}
	trap := make(map[string]bool, len(cfg.Trap))
	for _, s := range cfg.Trap {
		trap[s] = true
	}
	prog, err := seccomp.Build(seccomp.Native, func(s string) bool { return trap[s] })
	if err != nil {
		return exitSetupFailed, err
	}
	listener, err := seccomp.Install(prog, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER|unix.SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV)
	if err != nil {
		return exitSetupFailed, err
	}
	err = unix.Sendmsg(int(sock.Fd()), []byte{'L'}, unix.UnixRights(listener), nil, 0)
	unix.Close(listener)
	if err != nil {
		return exitSetupFailed, fmt.Errorf("send listener: %w", err)
	}
	var ack [1]byte
	if _, err := io.ReadFull(sock, ack[:]); err != nil {
		return exitSetupFailed, fmt.Errorf("wait for supervisor: %w", err)
	}
	// Descriptors this process inherited from aixbroker's caller without
	// close-on-exec (a socket connected to a service, a datagram socket,
	// a file outside the policy) must not reach the agent.
	if err := unix.CloseRange(uint(max(cfg.Keep, 3)), ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return exitSetupFailed, fmt.Errorf("close inherited descriptors: %w", err)
	}
	err = unix.Exec(cfg.Path, cfg.Argv, cfg.Env) // the first trapped syscall
	return exitExecFailed, fmt.Errorf("exec %s: %w", cfg.Path, err)
}

func readConfig(sock *os.File) (stage2Config, error) {
	var cfg stage2Config
	var size [4]byte
	if _, err := io.ReadFull(sock, size[:]); err != nil {
		return cfg, fmt.Errorf("read stage-2 config: %w", err)
	}
	n := binary.LittleEndian.Uint32(size[:])
	if n > 64<<20 {
		return cfg, fmt.Errorf("read stage-2 config: %d bytes is too large", n)
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(sock, buf); err != nil {
		return cfg, fmt.Errorf("read stage-2 config: %w", err)
	}
	if err := json.Unmarshal(buf, &cfg); err != nil {
		return cfg, fmt.Errorf("decode stage-2 config: %w", err)
	}
	return cfg, nil
}

// report tells the parent why stage 2 failed ('E' and the message).
func report(sock *os.File, err error) {
	sock.Write(append([]byte{'E'}, err.Error()...))
}

func writeConfig(w io.Writer, cfg stage2Config) error {
	data, err := json.Marshal(cfg)
	if err != nil {
		return fmt.Errorf("encode stage-2 config: %w", err)
	}
	var size [4]byte
	binary.LittleEndian.PutUint32(size[:], uint32(len(data)))
	if _, err := w.Write(append(size[:], data...)); err != nil {
		return fmt.Errorf("send stage-2 config: %w", err)
	}
	return nil
}
