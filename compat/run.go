package compat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Runner runs agents through scenarios against one model server.
type Runner struct {
	Server *Server
	// Prefix is the npm prefix the agents are installed under
	// (Prefix/bin/<agent>).
	Prefix string
	// Broker is the aixbroker binary; empty runs the agents natively,
	// which validates the harness (canaries must then show up as leaks).
	Broker string
	// BrokerFlags are added to "aixbroker exec" before the "--".
	BrokerFlags []string
	// Owner is the user the agent runs as.
	Owner Owner
	// WorkDir holds the fixtures; each run gets a fresh one.
	WorkDir string
	Timeout time.Duration
	// Keep leaves fixtures on disk for inspection.
	Keep bool
}

// StepResult is one scripted tool call and what came of it.
type StepResult struct {
	Op       Op       `json:"op"`
	Call     ToolCall `json:"call"`
	Reached  bool     `json:"reached"`
	Result   string   `json:"result,omitempty"`
	Pass     bool     `json:"pass"`
	Problems []string `json:"problems,omitempty"`
}

// Leak is a canary found where it must never be.
type Leak struct {
	Canary string `json:"canary"`
	Where  string `json:"where"`
}

// Outcome is one cell of the matrix.
type Outcome struct {
	Agent    string       `json:"agent"`
	Scenario string       `json:"scenario"`
	Kind     Kind         `json:"kind"`
	Pass     bool         `json:"pass"`
	Steps    []StepResult `json:"steps"`
	Leaks    []Leak       `json:"leaks,omitempty"`
	Problems []string     `json:"problems,omitempty"`
	ExitCode int          `json:"exit_code"`
	Output   string       `json:"output,omitempty"` // tail of the agent's own output
	Refusals []Refusal    `json:"refusals,omitempty"`
	Seconds  float64      `json:"seconds"`
}

// Run runs one agent through one scenario in a fresh fixture.
func (r *Runner) Run(ctx context.Context, a Agent, sc Scenario) (Outcome, error) {
	out := Outcome{Agent: a.Name, Scenario: sc.Name, Kind: sc.Kind}
	fx, err := NewFixture(r.WorkDir, r.Owner)
	if err != nil {
		return out, err
	}
	if !r.Keep {
		defer os.RemoveAll(fx.Root)
	}
	fx.Env.BaseURL = r.Server.URL()
	if err := a.Setup(fx.Env); err != nil {
		return out, fmt.Errorf("set up %s: %w", a.Name, err)
	}
	if err := fx.chown(r.Owner); err != nil {
		return out, err
	}
	steps := make([]Step, len(sc.Steps))
	calls := make([]ToolCall, len(sc.Steps))
	for i, st := range sc.Steps {
		steps[i] = st.Expand(fx.Vars())
		calls[i] = a.Dialect(steps[i])
	}
	r.Server.Begin(calls)
	start := time.Now()
	code, output, runErr := r.exec(ctx, a, fx, expand(sc.Prompt, fx.Vars()))
	out.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds()
	out.ExitCode, out.Output = code, tail(output, 1500)
	if runErr != nil {
		out.Problems = append(out.Problems, runErr.Error())
	}
	results := r.Server.Results()
	for i, st := range steps {
		out.Steps = append(out.Steps, checkStep(st, calls[i], results, i))
	}
	if sc.AgentState {
		out.Problems = append(out.Problems, checkState(a, fx)...)
	}
	out.Leaks = scanLeaks(fx, r.Server.Requests())
	out.Refusals = readRefusals(fx)
	out.Pass = len(out.Problems) == 0 && len(out.Leaks) == 0
	for _, s := range out.Steps {
		out.Pass = out.Pass && s.Pass
	}
	if sc.Kind == Legit && code != 0 {
		out.Pass = false
		out.Problems = append(out.Problems, fmt.Sprintf("agent exited with status %d", code))
	}
	return out, nil
}

// exec runs the agent headless and returns its exit status and output.
func (r *Runner) exec(ctx context.Context, a Agent, fx *Fixture, prompt string) (int, string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	bin := filepath.Join(r.Prefix, "bin", a.Bin)
	argv := append([]string{bin}, a.Args(fx.Env, prompt)...)
	if r.Broker != "" {
		wrap := append([]string{r.Broker, "exec", "--quiet", "--profile", a.Profile}, r.BrokerFlags...)
		argv = append(append(wrap, "--"), argv...)
	} else {
		// A wrapper shell stands where the broker would, so that the escape
		// scenario's "kill the parent" hits the wrapper, not this process.
		argv = append([]string{"/bin/sh", "-c", `"$@"; exit $?`, "sh"}, argv...)
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = fx.Env.Project
	cmd.Env = append(baseEnv(r.Prefix, fx.Env), a.Environ(fx.Env)...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if r.Owner.UID != os.Getuid() {
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(r.Owner.UID), Gid: uint32(r.Owner.GID)}
	}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		return -1, buf.String(), fmt.Errorf("run %s: timed out after %s", a.Name, r.Timeout)
	case errors.As(err, &ee):
		return ee.ExitCode(), buf.String(), nil
	case err != nil:
		return -1, buf.String(), fmt.Errorf("run %s: %w", a.Name, err)
	}
	return 0, buf.String(), nil
}

// baseEnv is what a user's shell would hand the agent.
func baseEnv(prefix string, e Env) []string {
	user := filepath.Base(e.Home)
	return []string{
		"PATH=" + filepath.Join(prefix, "bin") + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + e.Home, "USER=" + user, "LOGNAME=" + user,
		"SHELL=/bin/bash", "LANG=C.UTF-8", "TERM=dumb", "NO_COLOR=1", "CI=1",
	}
}

// checkStep judges one step from the tool result and the disk.
func checkStep(st Step, call ToolCall, results map[int]string, i int) StepResult {
	res, reached := results[i]
	sr := StepResult{Op: st.Op, Call: call, Reached: reached, Result: tail(res, 600)}
	if !reached {
		sr.Problems = append(sr.Problems, "the agent never sent this call's result back")
	}
	for _, want := range st.Want.Contains {
		if reached && !strings.Contains(res, want) {
			sr.Problems = append(sr.Problems, fmt.Sprintf("result lacks %q", want))
		}
	}
	for _, bad := range st.Want.NotContains {
		if strings.Contains(res, bad) {
			sr.Problems = append(sr.Problems, fmt.Sprintf("result contains %q", bad))
		}
	}
	for _, fc := range st.Want.Files {
		sr.Problems = append(sr.Problems, checkFile(fc)...)
	}
	sr.Pass = len(sr.Problems) == 0
	return sr
}

func checkFile(fc FileCheck) []string {
	data, err := os.ReadFile(fc.Path)
	switch {
	case fc.Absent && err == nil:
		return []string{fmt.Sprintf("%s exists", fc.Path)}
	case fc.Absent:
		return nil
	case err != nil:
		return []string{fmt.Sprintf("%s: %v", fc.Path, err)}
	case fc.Contains != "" && !bytes.Contains(data, []byte(fc.Contains)):
		return []string{fmt.Sprintf("%s lacks %q", fc.Path, fc.Contains)}
	}
	return nil
}

// checkState reports the agent's own files that a run failed to write.
func checkState(a Agent, fx *Fixture) []string {
	var problems []string
	for _, p := range a.StatePaths {
		if _, err := os.Stat(filepath.Join(fx.Env.Home, p)); err != nil {
			problems = append(problems, fmt.Sprintf("agent state ~/%s missing: %v", p, err))
		}
	}
	return problems
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
