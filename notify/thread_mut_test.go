//go:build linux

package notify

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/seccomp"
	"github.com/aixbroker/aixbroker/policy"
)

// sandboxThread is one OS thread of the test process placed under a
// seccomp filter that sends the named syscalls to a Supervisor serving in
// the same process. It exercises the real kernel path (notification,
// process_vm_readv, ID_VALID, the reply) without a launcher. The thread is
// never unlocked: it dies, filter and all, when the test ends.
type sandboxThread struct {
	calls chan func()
	sup   *Supervisor
	rec   *eventLog
}

func newSandboxThread(t testing.TB, d broker.Decider, deny *fsops.DenyInodes, syscalls ...string) *sandboxThread {
	t.Helper()
	prog, err := trapOnly(syscalls)
	if err != nil {
		t.Fatal(err)
	}
	s := &sandboxThread{calls: make(chan func()), rec: &eventLog{}}
	type ready struct {
		listener int
		err      error
	}
	readyc := make(chan ready)
	go func() {
		runtime.LockOSThread() // never unlocked: the filter stays with this thread
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			readyc <- ready{err: err}
			return
		}
		l, err := seccomp.Install(prog, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER)
		readyc <- ready{listener: l, err: err}
		if err != nil {
			return
		}
		for fn := range s.calls {
			fn()
		}
	}()
	rd := <-readyc
	if rd.err != nil {
		t.Fatalf("sandbox a thread: %v", rd.err)
	}
	s.sup, err = NewSupervisor(rd.listener, broker.New(d, s.rec))
	if err != nil {
		t.Fatal(err)
	}
	s.sup.SetDenyInodes(deny)
	s.sup.Start()
	t.Cleanup(func() {
		close(s.calls)
		s.sup.Stop()
		s.sup.Wait()
		unix.Close(rd.listener)
	})
	return s
}

// do runs fn on the sandboxed thread.
func (s *sandboxThread) do(fn func() error) error {
	done := make(chan error)
	s.calls <- func() { done <- fn() }
	return <-done
}

// trapOnly assembles a test filter that sends exactly the named syscalls
// to the listener and allows everything else: the handlers are under test,
// not internal/seccomp's table.
func trapOnly(syscalls []string) ([]bpf.RawInstruction, error) {
	if seccomp.Native == nil {
		return nil, seccomp.ErrNoArch
	}
	prog := []bpf.Instruction{bpf.LoadAbsolute{Off: 0, Size: 4}} // seccomp_data.nr
	for _, name := range syscalls {
		if !handled(name) {
			return nil, fmt.Errorf("no handler for %s", name)
		}
		nr, ok := seccomp.Native.Numbers[name]
		if !ok {
			return nil, fmt.Errorf("no syscall number for %s in internal/seccomp", name)
		}
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: nr, SkipTrue: 1},
			bpf.RetConstant{Val: unix.SECCOMP_RET_USER_NOTIF})
	}
	prog = append(prog, bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW})
	return bpf.Assemble(prog)
}

// eventLog is a broker.Recorder keeping every event.
type eventLog struct {
	mu     sync.Mutex
	events []broker.Event
}

func (l *eventLog) Record(ev broker.Event) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, ev)
}

func (l *eventLog) find(op policy.Op, path string) (broker.Event, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, ev := range l.events {
		if ev.Op == op && ev.Path == path {
			return ev, true
		}
	}
	return broker.Event{}, false
}

// projectDecider is a small stand-in policy: reads anywhere, changes only
// inside directories named "proj", and any file named "id_rsa" under a
// "home" directory denied for every operation. Denials say EACCES.
type projectDecider struct{}

func (projectDecider) Decide(op policy.Op, path string) policy.Decision {
	if strings.HasSuffix(path, "/home/id_rsa") {
		return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: policy.Rule{List: "deny", Pattern: "~/id_rsa"}}
	}
	if op == policy.OpRead || op == policy.OpStat {
		return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "allow_read"}}
	}
	if strings.HasSuffix(path, "/proj") || strings.Contains(path, "/proj/") {
		// (OpMkdir is OpCreate for this stand-in: it has no traverse-write.)
		return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "allow_write", Pattern: "proj"}}
	}
	return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: policy.Rule{List: "default"}}
}

func (projectDecider) DecideExec(string, []string) policy.Decision {
	return policy.Decision{Action: policy.Allow}
}
