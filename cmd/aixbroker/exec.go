package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/aixbroker/aixbroker/audit"
	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/notify"
	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newExecCmd) }

type execFlags struct {
	policyFlags
	Audit         string
	Quiet         bool
	AllowDegraded bool
	Interposer    string
	StatTrap      string
	PassEnv       []string
}

func newExecCmd() *cobra.Command {
	var f execFlags
	cmd := &cobra.Command{
		Use:     "exec [flags] -- CMD [ARGS...]",
		Aliases: []string{"run"},
		Short:   "Run a command (an agent) inside the sandbox",
		Long: `Run CMD, and everything it starts, under the policy.

The policy is, first match wins: --policy FILE, the project's .aixgate.yaml,
--profile NAME, the built-in profile named after CMD (claude → claude-code,
codex, gemini, opencode, cursor-agent → cursor, aider), then generic. Run
'aixbroker policy explain PATH' to see what it decides for a path.

Denied reads answer "No such file or directory", denied writes "Permission
denied". Every decision goes to the audit log (~/.aixgate/audit.jsonl, or
the policy's audit.log, or --audit FILE). The exit status is CMD's.`,
		Example: `  aixbroker exec -- claude
  aixbroker exec --profile codex -- codex
  aixbroker exec --policy team.yaml -- bash -c 'make test'
  aixbroker exec --audit ~/.aixgate/agent-session.jsonl --quiet -- python3 agent.py`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExec(cmd, f, args)
		},
	}
	cmd.Flags().SetInterspersed(false)
	cmd.Flags().StringVar(&f.Policy, "policy", "", "use this policy `file` instead of .aixgate.yaml or a profile")
	cmd.Flags().StringVar(&f.Profile, "profile", "", "use the profile `name` when the project has no .aixgate.yaml (see 'aixbroker profile list')")
	cmd.Flags().StringVar(&f.Project, "project", "", "project `dir`ectory: ${PROJECT} and where .aixgate.yaml is looked for (default: the current directory)")
	cmd.Flags().StringVar(&f.Audit, "audit", "", "write the audit log to this `file`")
	cmd.Flags().BoolVarP(&f.Quiet, "quiet", "q", false, "do not print the summary line at exit")
	cmd.Flags().StringVar(&f.Interposer, "interposer", "", "`on|off`: preload the library that hides denied names from listings and stat (default $AIXBROKER_INTERPOSER, else off)")
	cmd.Flags().StringVar(&f.StatTrap, "stat-trap", "", "`on|off`: also trap the stat, access and readlink syscalls, so denied names vanish for static binaries too, at a broker round trip (tens of µs) per call, fstat included (default $AIXBROKER_STAT_TRAP, else off: left to the interposer; docs/PERFORMANCE.md)")
	cmd.Flags().StringArrayVar(&f.PassEnv, "pass-env", nil, "pass the environment variable `NAME` to the agent for this run, even one the policy strips (repeatable; 'aixbroker policy explain --env NAME' says why it is stripped)")
	cmd.Flags().BoolVar(&f.AllowDegraded, "allow-degraded", false, "run even if the kernel's Landlock is too old for the backstop (the seccomp broker still enforces)")
	return cmd
}

func runExec(cmd *cobra.Command, f execFlags, args []string) error {
	f.Agent = args[0]
	defer pauseGC()()
	if _, err := interposerOn(f.Interposer); err != nil {
		return err
	}
	if _, err := statTrapOn(f.StatTrap); err != nil {
		return err
	}
	eng, pol, err := loadEngine(f.policyFlags)
	if err != nil {
		return err
	}
	noteIgnoredProfile(cmd, f.policyFlags, eng.Vars().Project)
	if err := passEnv(eng, f.PassEnv); err != nil {
		return err
	}
	cfg, err := auditConfig(f, eng)
	if err != nil {
		return err
	}
	w, err := audit.Open(cfg)
	if err != nil {
		return fmt.Errorf("open audit log: %w; pass another file with --audit", err)
	}
	session := broker.Session{ID: audit.NewSessionID(), Profile: pol.Name, AgentCmd: args[0]}
	if err := w.WriteSync(sessionStart(session, pol, eng.Vars().Project, args)); err != nil {
		w.Close()
		return fmt.Errorf("write audit log %s: %w; pass another file with --audit", cfg.Path, err)
	}
	logAllowed, ignored := logAllowedEvents(pol)
	rec := broker.NewAuditRecorder(session, w, logAllowed)
	env, stripped := eng.FilterEnv(os.Environ())
	if !f.Quiet {
		line := startLine(eng, pol, cfg.Path, stripped)
		if ignored {
			line += "; the project file's audit.on_allow: none is ignored (allowed events are logged; pass --policy FILE to use it)"
		}
		fmt.Fprintln(cmd.ErrOrStderr(), line)
	}
	stopReport := make(chan struct{})
	go reportAuditFailure(cmd.ErrOrStderr(), w, cfg.Path, stopReport)

	brk := broker.New(eng, rec)
	brk.GuardAuditLog(cfg.Path)
	status, runErr := runSandbox(context.Background(), sandboxRun{
		cmd: cmd, flags: f, args: args, engine: eng,
		broker: brk, session: session, env: env,
	})
	end := audit.Record{Type: audit.TypeSessionEnd, SessionID: session.ID, Profile: session.Profile, AgentCmd: session.AgentCmd, ExitStatus: status}
	if runErr != nil {
		end.Result = runErr.Error()
	}
	rec.Flush()
	if err := w.Err(); err != nil {
		end.Result = "audit failed: " + err.Error()
	}
	endErr := w.WriteFinal(end)
	closeErr := w.Close()
	if closeErr == nil {
		closeErr = endErr
	}
	close(stopReport)
	if runErr != nil {
		return execError(runErr)
	}
	if closeErr != nil {
		return fmt.Errorf("close audit log %s: %w", cfg.Path, closeErr)
	}
	if !f.Quiet {
		allowed, denied := rec.Counts()
		fmt.Fprintf(cmd.ErrOrStderr(), "aixbroker: %d allowed, %d denied; audit %s (session %s)\n", allowed, denied, cfg.Path, session.ID)
	}
	if status != 0 {
		return exitError{code: status}
	}
	return nil
}

// reportAuditFailure says on stderr, at once, that the audit log can no
// longer be written; the broker refuses everything from then on and the
// session stops the agent (notify's session waits on the same channel).
func reportAuditFailure(stderr io.Writer, w *audit.Writer, path string, stop <-chan struct{}) {
	select {
	case <-w.Failed():
	case <-stop:
		return
	}
	fmt.Fprintf(stderr, "aixbroker: audit log %s: %v; the sandbox is being stopped\n", path, w.Err())
}

// pauseGC makes garbage collection rare for the first second of the
// session (GOGC 200 instead of 100), and returns the function that
// restores it early. Starting a session allocates about 5 MB (policy YAML,
// compiled matchers, the supervisor), and the collector's first cycle
// (gctrace: 5 MB goal, 48 ms of clock) fell on the startup path; on a
// loaded 2-vCPU machine its extra threads cost more wall time than its
// work. Re-enabling it at once after setup would only move that
// collection, so it resumes on a timer, while the agent already runs.
//
// It used to turn the collector off under a 16 MiB memory limit: once the
// live heap came near the limit (11 MB after the complete-mediation work)
// the runtime collected continuously, 270 cycles in that second, and
// `grep -r` over 20k files took 1.7× as long (perf: runtime.scanObject 23%
// of the supervisor's CPU). A higher GOGC cannot thrash: the goal stays
// three times the live heap.
func pauseGC() (resume func()) {
	const (
		pause   = time.Second
		percent = 200
	)
	old := debug.SetGCPercent(percent)
	on := func() { debug.SetGCPercent(old) }
	t := time.AfterFunc(pause, on)
	return func() {
		if t.Stop() {
			on()
		}
	}
}

// auditConfig is ~/.aixgate/config.yaml with the log path taken from, first
// set: --audit, the policy's audit.log, the config file.
func auditConfig(f execFlags, eng *policy.Engine) (audit.Config, error) {
	cfg, err := audit.LoadConfig(eng.Vars().ConfigDir)
	if err != nil {
		return cfg, fmt.Errorf("load audit config: %w; fix %s/config.yaml", err, eng.Vars().ConfigDir)
	}
	switch {
	case f.Audit != "":
		cfg.Path = f.Audit
	case eng.Policy().Audit.Log != "":
		p, err := eng.Vars().ExpandPath(eng.Policy().Audit.Log)
		if err != nil {
			return cfg, fmt.Errorf("expand audit.log: %w", err)
		}
		if strings.HasPrefix(eng.Policy().Origin, "project file ") && !underDir(p, eng.Vars().ConfigDir) {
			// A project file comes with the code the agent works on: it may
			// not send the log somewhere the agent can reach or /dev/null.
			return cfg, fmt.Errorf("audit.log %s: a project policy may only name a log under %s; pass --audit FILE or --policy FILE to choose another place", p, eng.Vars().ConfigDir)
		}
		cfg.Path = p
	}
	return cfg, nil
}

// auditDirWritable reports whether the policy lets the agent create names
// in the audit log's folder.
func auditDirWritable(eng *policy.Engine, log string) bool {
	abs, err := filepath.Abs(log)
	if err != nil {
		return false
	}
	return eng.Decide(policy.OpCreate, filepath.Join(filepath.Dir(abs), ".aixbroker-probe")).Allowed()
}

// logAllowedEvents says whether allowed events go to the audit log: not
// with audit.on_allow: none, unless that comes from a project file, which
// comes with the code the agent works on and may not turn the log of what
// the agent does off (review R8); ignored reports that case.
func logAllowedEvents(pol *policy.Policy) (log, ignored bool) {
	if pol.Audit.EffectiveOnAllow() != "none" {
		return true, false
	}
	if strings.HasPrefix(pol.Origin, "project file ") {
		return true, true
	}
	return false, false
}

// underDir reports whether path is dir or below it (both clean, absolute).
func underDir(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+"/")
}

func sessionStart(s broker.Session, pol *policy.Policy, cwd string, argv []string) audit.Record {
	pidStart, bootID := audit.SelfIdentity()
	return audit.Record{
		PIDStart:    pidStart,
		BootID:      bootID,
		Type:        audit.TypeSessionStart,
		SessionID:   s.ID,
		Profile:     s.Profile,
		AgentCmd:    s.AgentCmd,
		PID:         os.Getpid(),
		Cmd:         argv,
		Cwd:         cwd,
		Policy:      pol.File,
		PolicyHash:  policyHash(pol.File),
		Kernel:      kernelRelease(),
		LandlockABI: landlock.ABI(),
	}
}

// startLine is what exec prints before the agent starts: the profile, where
// the policy came from, the audit file, and the variables taken out of the
// agent's environment (names only): those a strip rule or the credential
// floor took first, then the count of those the profile does not list.
func startLine(eng *policy.Engine, pol *policy.Policy, auditPath string, stripped []string) string {
	line := fmt.Sprintf("aixbroker: profile %s (%s), audit %s", pol.Name, pol.File, auditPath)
	if auditDirWritable(eng, auditPath) {
		line += " (in a folder the agent may write: its files are refused to the agent by rule audit-log, but a folder outside the sandbox is safer)"
	}
	var secret []string
	unlisted := 0
	for _, n := range stripped {
		if eng.ExplainEnv(n).Rule.List == "env.default" {
			unlisted++
		} else {
			secret = append(secret, n)
		}
	}
	if len(secret) > 0 {
		const show = 8
		names := strings.Join(secret[:min(show, len(secret))], " ")
		if len(secret) > show {
			names += fmt.Sprintf(" and %d more", len(secret)-show)
		}
		line += "; stripped " + names
	}
	if unlisted > 0 {
		line += fmt.Sprintf("; %d variables not in the profile's env.pass_through", unlisted)
	}
	if len(stripped) > 0 {
		line += " (why: aixbroker policy explain --env NAME; for this run: --pass-env NAME)"
	}
	return line
}

// passEnv applies exec --pass-env: each NAME must be a plain variable name.
func passEnv(eng *policy.Engine, names []string) error {
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, "=*?[{\\ ") {
			return fmt.Errorf("--pass-env %q: give a variable name, such as --pass-env OPENROUTER_API_KEY (no value, no glob)", n)
		}
	}
	eng.PassEnv(names...)
	return nil
}

// policyHash is the SHA-256 of the top policy file's bytes, so an auditor
// can tell which version of the file governed the session.
func policyHash(file string) string {
	var data []byte
	var err error
	if name, ok := strings.CutPrefix(file, "builtin:"); ok {
		data, err = policy.ProfileSource(name)
	} else {
		data, err = os.ReadFile(file)
	}
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func kernelRelease() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// execError turns a launcher failure into advice.
func execError(err error) error {
	switch {
	case errors.Is(err, notify.ErrNotSupported):
		return fmt.Errorf("start sandbox: %w; run 'aixbroker doctor' to see what this machine lacks", err)
	case errors.Is(err, landlock.ErrDegraded):
		return fmt.Errorf("start sandbox: %w; upgrade the kernel, or pass --allow-degraded to rely on the seccomp broker alone", err)
	}
	return fmt.Errorf("start sandbox: %w", err)
}

// sandboxRun is what the platform's launcher needs from exec.
type sandboxRun struct {
	cmd     *cobra.Command
	flags   execFlags
	args    []string
	engine  *policy.Engine
	broker  *broker.Broker
	session broker.Session
	env     []string // the agent's environment, filtered by the policy
}
