package adversarial

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Verdict is how one case turned out.
type Verdict string

// Verdicts: an attack is Held or a Leak; a legitimate case is Pass or Fail;
// Skip when the machine lacks what the case requires; Error when the case
// could not be run at all (counted as failed).
const (
	Held  Verdict = "held"
	Leak  Verdict = "LEAK"
	Pass  Verdict = "pass"
	Fail  Verdict = "FAIL"
	Skip  Verdict = "skip"
	Error Verdict = "ERROR"
)

// Result is the outcome of one case.
type Result struct {
	Case    Case
	Verdict Verdict
	Detail  string
	Output  string // what the case printed (stdout and stderr)
	Elapsed time.Duration
}

// Failed reports whether the result counts as a failure.
func (r Result) Failed() bool { return r.Verdict == Leak || r.Verdict == Fail || r.Verdict == Error }

// Runner runs cases under an aixbroker binary.
type Runner struct {
	Bin    string   // the aixbroker binary
	Dir    string   // the folder holding attacks/ and legit/
	Parent string   // where worlds are created: not under /tmp, which the profiles allow
	User   *Account // run the sandbox as this user (the runner must be root); nil: as the caller

	built map[string]string // case name → compiled binary
}

// Compile builds the C cases into dir.
func (r *Runner) Compile(cases []Case, dir string) error {
	r.built = map[string]string{}
	for _, c := range cases {
		if c.Lang != "c" {
			continue
		}
		out := filepath.Join(dir, c.Name)
		args := []string{"-O2", "-pthread", "-w", "-I", filepath.Join(r.Dir, "attacks"), "-o", out, c.File}
		if c.Static {
			args = append([]string{"-static"}, args...)
		}
		if msg, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
			return fmt.Errorf("compile %s: %v: %s", c.Name, err, msg)
		}
		r.built[c.Name] = out
	}
	return nil
}

// Run runs one case in a fresh world and judges it.
func (r *Runner) Run(c Case) Result {
	start := time.Now()
	res, out := r.run(c)
	res.Output = out
	res.Case, res.Elapsed = c, time.Since(start)
	return res
}

func (r *Runner) run(c Case) (Result, string) {
	for _, cmd := range c.Requires {
		if _, err := exec.LookPath(cmd); err != nil {
			return Result{Verdict: Skip, Detail: cmd + " is not installed"}, ""
		}
	}
	w, err := NewWorld(r.Parent, r.User)
	if err != nil {
		return Result{Verdict: Error, Detail: err.Error()}, ""
	}
	if os.Getenv("AIXADV_KEEP") == "" {
		defer w.Close()
	}
	svc, err := w.startServices(c)
	if err != nil {
		return Result{Verdict: Error, Detail: err.Error()}, ""
	}
	defer svc.Close()
	argv, err := r.install(c, w)
	if err == nil {
		err = w.Prepare()
	}
	if err == nil {
		err = r.seedAudit(c, w)
	}
	if err != nil {
		return Result{Verdict: Error, Detail: err.Error()}, ""
	}
	out, code, err := r.exec(c, w, argv)
	if err != nil {
		return Result{Verdict: Error, Detail: err.Error()}, ""
	}
	if code == 125 && strings.Contains(out, "aixbroker:") {
		return Result{Verdict: Error, Detail: "sandbox did not start: " + lastLine(out)}, out
	}
	if c.Kind == Legit {
		return judgeLegit(c, w, out, code), out
	}
	return r.judgeAttack(c, w, svc, out), out
}

// install copies the case (or its compiled binary) into $PROJECT/.adv and
// returns the command line that runs it.
func (r *Runner) install(c Case, w *World) ([]string, error) {
	src := c.File
	if c.Lang == "c" {
		src = r.built[c.Name]
		if src == "" {
			return nil, fmt.Errorf("install %s: not compiled", c.Name)
		}
	}
	dst := filepath.Join(w.Project, ".adv", filepath.Base(src))
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("install case: %w", err)
	}
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		return nil, fmt.Errorf("install case: %w", err)
	}
	if err := r.casePolicy(c, w); err != nil { // casepolicy_shm_linux.go
		return nil, err
	}
	if c.Lang == "c" {
		return []string{dst}, nil
	}
	return append(append([]string{}, interpreters[c.Lang]...), dst), nil
}

// exec runs argv under `aixbroker exec` in the world and returns stdout
// and stderr together, and the exit status.
func (r *Runner) exec(c Case, w *World, argv []string) (string, int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), c.Timeout)
	defer cancel()
	full := append([]string{"exec", "--quiet", "--profile", "generic", "--audit", w.auditLog(), "--"}, argv...)
	cmd := exec.CommandContext(ctx, r.Bin, full...)
	cmd.Dir = w.Project
	cmd.Env = w.env()
	cmd.SysProcAttr = w.procAttr()
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.Stdin = nil
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever the case left behind
	}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return buf.String(), -1, nil // a timeout is judged like any other end
	case errors.As(err, &ee):
		return buf.String(), ee.ExitCode(), nil
	case err != nil:
		return "", 0, fmt.Errorf("run %s: %w", c.Name, err)
	}
	return buf.String(), 0, nil
}

func (w *World) auditLog() string { return filepath.Join(w.Home, ".aixgate", "audit.jsonl") }

// env is the environment a developer's shell would hand aixbroker,
// secrets included: the policy must strip them.
func (w *World) env() []string {
	env := []string{
		"HOME=" + w.Home, "PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8", "TMPDIR=/tmp",
		"XDG_RUNTIME_DIR=" + w.Run, "AIXADV_SECRET_TOKEN=" + w.Canaries["broker-env"],
	}
	if s := w.Vars["SSH_AGENT_SOCK"]; s != "" {
		env = append(env, "SSH_AUTH_SOCK="+s)
	}
	if s := w.Vars["DBUS_SOCK"]; s != "" {
		env = append(env, "DBUS_SESSION_BUS_ADDRESS=unix:path="+s)
	}
	return env
}

func (r *Runner) judgeAttack(c Case, w *World, svc *services, out string) Result {
	var bad []string
	bad = append(bad, w.Leaks(out)...)
	bad = append(bad, w.Changed()...)
	bad = append(bad, judgeLifetime(w)...)
	bad = append(bad, judgeExec(out)...)
	bad = append(bad, judgeServiceNames(out)...)
	bad = append(bad, judgeAudit(c, w, out)...)
	bad = append(bad, judgeLiveness(out)...)
	bad = append(bad, judgeReviewAudit(c, w, out)...)
	if n := svc.datagrams.Load(); n > 0 {
		bad = append(bad, fmt.Sprintf("the datagram service outside the sandbox received %d datagram(s)", n))
	}
	bad = append(bad, svc.filterChanges(c, w)...)
	bad = append(bad, svc.devices.judge(w, out)...)
	bad = append(bad, svc.reviewChanges()...)
	if !svc.victimAlive() {
		bad = append(bad, "the process outside the sandbox was killed")
	}
	if msg, err := exec.Command(r.Bin, "audit", "verify", w.auditLog()).CombinedOutput(); err != nil {
		bad = append(bad, "audit log does not verify: "+lastLine(string(msg)))
	}
	if len(bad) == 0 {
		return Result{Verdict: Held}
	}
	return Result{Verdict: Leak, Detail: known(c, strings.Join(bad, "; "))}
}

func judgeLegit(c Case, w *World, out string, code int) Result {
	if leaks := w.Leaks(out); len(leaks) > 0 {
		return Result{Verdict: Fail, Detail: "leaked " + strings.Join(leaks, ", ")}
	}
	if code != 0 || !strings.Contains(out, c.Want) {
		return Result{Verdict: Fail, Detail: known(c, fmt.Sprintf("exit %d, want %q in output: %s", code, c.Want, tail(out, 300)))}
	}
	return Result{Verdict: Pass}
}

// known prefixes the detail of a failure FINDINGS.md already records.
func known(c Case, detail string) string {
	if c.Known == "" {
		return detail
	}
	return "known " + c.Known + ": " + detail
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = "…" + s[len(s)-n:]
	}
	return strings.ReplaceAll(s, "\n", " | ")
}

// Report prints one line per result and the "N passed, M failed" line, and
// returns the counts.
func Report(out io.Writer, results []Result) (passed, failed int) {
	for _, r := range results {
		PrintResult(out, r)
	}
	return Summarize(out, results)
}

// PrintResult prints one result: kind, name, verdict, technique, and what
// leaked or failed on a second line.
func PrintResult(out io.Writer, r Result) {
	fmt.Fprintf(out, "%-7s %-28s %-5s %5.1fs  %s\n", r.Case.Kind, r.Case.Name, r.Verdict, r.Elapsed.Seconds(), r.Case.Technique)
	if r.Detail != "" {
		fmt.Fprintf(out, "        ↳ %s\n", r.Detail)
	}
}

// Summarize prints the "N passed, M failed" line (skips count as neither).
func Summarize(out io.Writer, results []Result) (passed, failed int) {
	for _, r := range results {
		switch {
		case r.Failed():
			failed++
		case r.Verdict != Skip:
			passed++
		}
	}
	fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	return passed, failed
}

// WorldParent is where worlds go: not under /tmp or /var/tmp, which the
// profiles allow, or the fake home would be reachable through that rule.
// As root it is /srv (traversable by the unprivileged user); otherwise the
// user's cache directory.
func WorldParent(who *Account) (string, error) {
	dir := "/srv"
	if os.Geteuid() != 0 {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("find a place for worlds: %w", err)
		}
		dir = filepath.Join(cache, "aixadv")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	return dir, nil
}
