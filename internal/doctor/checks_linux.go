package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/notify"
)

// Env is what the Linux checks need from the caller.
type Env struct {
	AuditPath   string                      // the audit log `aixbroker exec` would write
	Interposer  func() error                // loads the interposer into a program; nil or ErrNotBuilt: not built
	Probe       func() (ProbeResult, error) // nil: re-execute this binary with ProbeArg
	Kernel      string                      // "": read /proc/sys/kernel/osrelease
	LandlockABI func() int                  // nil: ask the kernel
	Status      string                      // "": read /proc/self/status

	// ProcessCleanup says how a session kills what is left of the
	// sandbox (notify.ProcessCleanup); nil: ask notify.
	ProcessCleanup func() (cgroup bool, detail string)
}

// ErrNotBuilt is what Env.Interposer returns when the binary carries no
// interposer library.
var ErrNotBuilt = errors.New("interposer not built")

// Linux runs every check and returns them in the order they print.
func Linux(env Env) []Check {
	if env.Probe == nil {
		env.Probe = reexecProbe
	}
	if env.Kernel == "" {
		b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
		env.Kernel = strings.TrimSpace(string(b))
	}
	if env.LandlockABI == nil {
		env.LandlockABI = landlock.ABI
	}
	if env.Status == "" {
		b, _ := os.ReadFile("/proc/self/status")
		env.Status = string(b)
	}
	if env.ProcessCleanup == nil {
		env.ProcessCleanup = notify.ProcessCleanup
	}
	p, err := env.Probe()
	if err != nil {
		p.Error = err.Error()
	}
	checks := []Check{kernelCheck(env.Kernel), filteredCheck(env.Status, p)}
	checks = append(checks, seccompChecks(p)...)
	checks = append(checks, landlockCheck(env.LandlockABI()), interposerCheck(env.Interposer), auditCheck(env.AuditPath), cleanupCheck(env.ProcessCleanup))
	return checks
}

// cleanupCheck says which mechanism kills the sandbox's processes at the
// end of a session: both leave none, the cgroup also against a fork bomb
// and when the supervisor and its guardian die together.
func cleanupCheck(cleanup func() (bool, string)) Check {
	cgroup, detail := cleanup()
	c := Check{Name: "process cleanup", Level: OK, Detail: detail}
	if !cgroup {
		c.Level = Info
		c.Remedy = "a delegated cgroup v2 subtree (systemd user session with Delegate=yes) lets sessions use cgroup.kill; the tree walk leaves no process either, within 5 s"
	}
	return c
}

// kernelCheck wants 5.19: ADDFD_FLAG_SEND (5.14) and WAIT_KILLABLE_RECV.
func kernelCheck(release string) Check {
	c := Check{Name: "kernel", Detail: "Linux " + release}
	major, minor := parseRelease(release)
	switch {
	case major == 0:
		c.Level, c.Detail = Warn, "cannot read the kernel version ("+release+"); the probes below decide"
	case major < 5 || major == 5 && minor < 19:
		c.Level = Fail
		c.Detail += ": aixbroker needs 5.19 (seccomp ADDFD_FLAG_SEND, WAIT_KILLABLE_RECV)"
		c.Remedy = "upgrade the kernel to 5.19 or later (6.12 or later for the full Landlock backstop)"
	default:
		c.Level = OK
	}
	return c
}

func parseRelease(r string) (int, int) {
	parts := strings.SplitN(r, ".", 3)
	if len(parts) < 2 {
		return 0, 0
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	if err1 != nil || err2 != nil {
		return 0, 0
	}
	return major, minor
}

// filteredCheck reads the Seccomp: and Seccomp_filters: lines of
// /proc/self/status: filters above this process are fine unless one has a
// listener (then the probe got EBUSY).
func filteredCheck(status string, p ProbeResult) Check {
	mode, filters := statusField(status, "Seccomp:"), statusField(status, "Seccomp_filters:")
	c := Check{Name: "outer sandbox"}
	switch {
	case p.Nested:
		c.Level = Fail
		c.Detail = fmt.Sprintf("this process already runs under a seccomp user-notification listener (%s filter(s)): a second listener gets EBUSY, so aixbroker cannot run inside another aixbroker or a notify-based sandbox", filters)
		c.Remedy = "run aixbroker from a shell outside that sandbox (not from inside an agent already under aixbroker)"
	case mode == "2":
		c.Level = Info
		c.Detail = fmt.Sprintf("running under %s seccomp filter(s) without a listener (a container runtime or another sandbox): aixbroker adds its own", filters)
	default:
		c.Level, c.Detail = OK, "this process is not under a seccomp filter"
	}
	return c
}

func statusField(status, key string) string {
	for _, line := range strings.Split(status, "\n") {
		if v, ok := strings.CutPrefix(line, key); ok {
			return strings.TrimSpace(v)
		}
	}
	return "?"
}

func seccompChecks(p ProbeResult) []Check {
	listener := Check{Name: "seccomp user notification", Level: OK, Detail: "a filter with a listener was installed and answered in a probe process"}
	if !p.Listener {
		listener = Check{Name: "seccomp user notification", Level: Fail, Detail: "cannot install a filter with a listener: " + p.Error,
			Remedy: "use a kernel built with CONFIG_SECCOMP_FILTER (5.19 or later) and run outside sandboxes that forbid seccomp(2)"}
		if p.Nested {
			listener.Remedy = "see 'outer sandbox' above"
		}
		return []Check{listener}
	}
	checks := []Check{listener}
	checks = append(checks, feature("SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV", p.WaitKillable, Fail,
		"a signal after the broker acted would restart the syscall and run an emulated rename or unlink twice", "upgrade the kernel to 5.19 or later"))
	checks = append(checks, feature("SECCOMP_ADDFD_FLAG_SEND", p.AddFDSend, Fail,
		"the broker could only let the kernel continue a checked open, which a sibling thread can race", "upgrade the kernel to 5.14 or later"))
	checks = append(checks, feature("SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP", p.SyncWakeUp, Warn,
		"brokered syscalls more often pay a cross-CPU wake-up (about 50 µs instead of 10 µs each)", "upgrade the kernel to 6.6 or later for faster brokered syscalls"))
	return checks
}

func feature(name string, ok bool, missing Level, cost, remedy string) Check {
	if ok {
		return Check{Name: name, Level: OK, Detail: "supported (probed)"}
	}
	return Check{Name: name, Level: missing, Detail: "missing: " + cost, Remedy: remedy}
}

// landlockCosts is what each missing Landlock ABI costs, lowest first.
var landlockCosts = []struct {
	abi  int
	cost string
}{
	{1, "no backstop at all: nothing holds if the broker errs, and exec is not confined to the allowed roots"},
	{2, "no REFER right: renames and links across directories are not bounded by the kernel"},
	{3, "no TRUNCATE right: truncation is bounded by the broker only"},
	{5, "no IOCTL_DEV right: device ioctls other than the terminal's are not refused"},
	{6, "no signal or abstract-socket scoping: the agent can signal the broker and outside processes and connect to abstract unix sockets"},
}

func landlockCheck(abi int) Check {
	c := Check{Name: "Landlock", Detail: fmt.Sprintf("ABI %d", abi)}
	var missing []string
	for _, l := range landlockCosts {
		if abi < l.abi {
			missing = append(missing, l.cost)
		}
	}
	if len(missing) == 0 {
		c.Level = OK
		c.Detail += ": filesystem backstop, EXECUTE confined to allowed roots, terminal ioctls, signal and abstract-socket scoping"
		return c
	}
	c.Level = Fail
	c.Detail += fmt.Sprintf(" (aixbroker needs %d): %s", landlock.MinABI, strings.Join(missing, "; "))
	c.Remedy = "upgrade the kernel to 6.12 or later with Landlock enabled (lsm=landlock,...), or run 'aixbroker exec --allow-degraded' and accept the losses above"
	return c
}

func interposerCheck(load func() error) Check {
	c := Check{Name: "interposer"}
	err := ErrNotBuilt
	if load != nil {
		err = load()
	}
	if errors.Is(err, ErrNotBuilt) {
		c.Level, c.Detail = Info, "not built: denied names stay visible to directory listings and stat (cosmetic; the broker still refuses their content)"
		return c
	}
	if err != nil {
		c.Level, c.Detail = Warn, "does not load: "+err.Error()+"; denied names stay visible to listings and stat (the broker still holds)"
		c.Remedy = "rebuild with 'make build' (the library is built by gcc and embedded)"
		return c
	}
	c.Level, c.Detail = OK, "loads into dynamically linked programs (static ones skip it; it is not the boundary)"
	return c
}

func auditCheck(path string) Check {
	c := Check{Name: "audit log", Detail: path}
	dir := filepath.Dir(path)
	err := os.MkdirAll(dir, 0o700)
	if err == nil {
		var f *os.File
		if f, err = os.CreateTemp(dir, ".doctor-*"); err == nil {
			f.Close()
			os.Remove(f.Name())
		}
	}
	if err != nil {
		c.Level, c.Detail = Fail, fmt.Sprintf("%s is not writable: %v", dir, err)
		c.Remedy = "fix the permissions of " + dir + ", or pass --audit FILE to aixbroker exec"
		return c
	}
	c.Level, c.Detail = OK, dir+" is writable"
	return c
}

// reexecProbe runs this binary with ProbeArg and decodes its answer.
func reexecProbe() (ProbeResult, error) {
	var r ProbeResult
	self, err := os.Executable()
	if err != nil {
		return r, fmt.Errorf("find this binary: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	cmd := exec.CommandContext(ctx, self, ProbeArg)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		return r, fmt.Errorf("run seccomp probe: %w: %s", err, strings.TrimSpace(errOut.String()))
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return r, fmt.Errorf("read seccomp probe: %w", err)
	}
	return r, nil
}
