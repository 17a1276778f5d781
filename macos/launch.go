package macos

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/aixbroker/aixbroker/sbpl"
)

// profileName is the profile's file name inside the private directory.
const profileName = "profile.sb"

// plan is one prepared launch: the profile is on disk until cleanup.
type plan struct {
	argv    []string // sandbox-exec -f PROFILE -- PATH ARGS...
	env     []string
	dir     string
	profile string // the profile file
	private string // the private directory holding it
}

// cleanup removes the private directory and the profile in it.
func (p *plan) cleanup() error {
	if err := os.RemoveAll(p.private); err != nil {
		return fmt.Errorf("remove sandbox profile: %w", err)
	}
	return nil
}

// prepare resolves the command, writes the profile to a fresh private
// directory (mode 0700, file 0600, created exclusively) and builds the
// argument list and environment. The caller must call cleanup.
func prepare(cfg Config) (*plan, error) {
	if cfg.Engine == nil || len(cfg.Argv) == 0 {
		return nil, errors.New("prepare sandbox: no policy or no command")
	}
	if cfg.Interposer != "" {
		return nil, fmt.Errorf("prepare sandbox with interposer %s: %w", cfg.Interposer, ErrInterposerNotBuilt)
	}
	sandboxExec, err := sandboxExecPath(cfg.SandboxExec)
	if err != nil {
		return nil, err
	}
	cmd, err := lookPath(cfg.Argv[0], cfg.Env, cfg.Dir)
	if err != nil {
		return nil, err
	}
	private, err := os.MkdirTemp(cfg.TempDir, "aixbroker-sb-")
	if err != nil {
		return nil, fmt.Errorf("create sandbox profile directory: %w", err)
	}
	p := &plan{private: private, profile: filepath.Join(private, profileName), dir: cfg.Dir}
	if err := p.writeProfile(cfg); err != nil {
		return nil, errors.Join(err, p.cleanup())
	}
	p.argv = append([]string{sandboxExec, "-f", p.profile, "--"}, agentArgv(cmd, cfg)...)
	p.env = agentEnv(cfg.Env)
	return p, nil
}

func (p *plan) writeProfile(cfg Config) error {
	canon, err := filepath.EvalSymlinks(p.private) // macOS: /var/folders → /private/var/folders
	if err != nil {
		return fmt.Errorf("resolve sandbox profile directory: %w", err)
	}
	opts := sbpl.Options{PrivateDirs: []string{canon}, Interposer: cfg.Interposer, LogTag: logTag(cfg.SessionID)}
	if canon != p.private {
		opts.PrivateDirs = append(opts.PrivateDirs, p.private)
	}
	text, err := sbpl.Generate(cfg.Engine, opts)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p.profile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("write sandbox profile: %w", err)
	}
	_, err = f.Write(text)
	return errors.Join(wrapErr("write sandbox profile", err), wrapErr("close sandbox profile", f.Close()))
}

func wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// logTag is the message attached to the profile's default deny.
func logTag(session string) string {
	if session == "" {
		return ""
	}
	return "aixbroker:" + session
}

// sandboxExecPath returns the sandbox-exec to run.
func sandboxExecPath(s string) (string, error) {
	switch {
	case s == "":
		return DefaultSandboxExec, nil
	case !strings.Contains(s, "/"):
		p, err := exec.LookPath(s)
		if err != nil {
			return "", fmt.Errorf("find %s: %w", s, err)
		}
		return p, nil
	}
	return s, nil
}

// agentArgv is the command sandbox-exec runs. Hook: with an interposer,
// a trampoline goes in front of the agent (see InterposerApplies); until
// it exists prepare refuses Config.Interposer.
func agentArgv(cmd string, cfg Config) []string {
	return append([]string{cmd}, cfg.Argv[1:]...)
}

// agentEnv is the policy's environment without any DYLD_ variable: a
// library named by the caller's environment must never be injected into
// the agent.
func agentEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DYLD_") {
			out = append(out, kv)
		}
	}
	return out
}

// lookPath finds argv0 the way execvp would in the agent's environment:
// a name with a slash is a path (relative to dir), anything else is
// searched in env's PATH. The result is absolute, so the profile's exec
// rules see the file that runs.
func lookPath(argv0 string, env []string, dir string) (string, error) {
	if strings.Contains(argv0, "/") {
		p := argv0
		if !filepath.IsAbs(p) {
			base := dir
			if base == "" {
				wd, err := os.Getwd()
				if err != nil {
					return "", fmt.Errorf("find command %s: %w", argv0, err)
				}
				base = wd
			}
			p = filepath.Join(base, p)
		}
		return p, checkExecutable(p)
	}
	for _, d := range filepath.SplitList(envValue(env, "PATH")) {
		if d == "" || !filepath.IsAbs(d) {
			continue // a relative PATH entry would depend on the cwd
		}
		p := filepath.Join(d, argv0)
		if checkExecutable(p) == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("find command %s: %w in the agent's PATH", argv0, fs.ErrNotExist)
}

func checkExecutable(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("find command: %w", err)
	}
	if !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("find command %s: %w", p, fs.ErrPermission)
	}
	return nil
}

func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// launch prepares, runs and cleans up. It is Run without the log follower,
// and portable: on Linux, tests run it with a stand-in sandbox-exec.
func launch(ctx context.Context, cfg Config, started func(pid int)) (int, error) {
	p, err := prepare(cfg)
	if err != nil {
		return exitSetupFailed, err
	}
	status, runErr := p.run(ctx, cfg, started)
	return status, errors.Join(runErr, p.cleanup())
}

// exitSetupFailed is the status reported when the agent never ran.
const exitSetupFailed = 126

func (p *plan) run(ctx context.Context, cfg Config, started func(pid int)) (int, error) {
	c := exec.CommandContext(ctx, p.argv[0], p.argv[1:]...)
	c.Env, c.Dir = p.env, p.dir
	c.Stdin, c.Stdout, c.Stderr = orStd(cfg.Stdin, os.Stdin), orStd(cfg.Stdout, os.Stdout), orStd(cfg.Stderr, os.Stderr)
	if err := c.Start(); err != nil {
		return exitSetupFailed, fmt.Errorf("start %s: %w", p.argv[0], err)
	}
	if started != nil {
		started(c.Process.Pid)
	}
	err := c.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return exitSetupFailed, fmt.Errorf("wait for %s: %w", p.argv[0], err)
	}
	return exitStatus(c.ProcessState), nil
}

func orStd(f, std *os.File) *os.File {
	if f == nil {
		return std
	}
	return f
}
