package compat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Options selects what RunMatrix runs and where.
type Options struct {
	Agents    []string // names; empty means every installable agent
	Scenarios []string // names; empty means all
	Prefix    string   // npm prefix of the agents
	Cache     string   // npm download cache
	Install   bool     // install the pinned agents first
	Broker    string   // aixbroker binary; empty runs natively
	User      string   // run as this user (created if missing); empty: current user
	DocsDir   string   // write COMPAT.md and compat.json here
	DumpDir   string   // write request bodies here
	Keep      bool
	Timeout   time.Duration
	// Merge keeps the other cells of an existing DocsDir/compat.json and
	// replaces only those this run produced.
	Merge bool
	// BrokerFlags are added to "aixbroker exec" (--interposer=on, ...).
	BrokerFlags []string
}

// DefaultPrefix is where `npm install -g` puts agents for this user: /usr/local
// for root, as for a user who installs globally, and a project cache
// otherwise.
func DefaultPrefix() string {
	if os.Getuid() == 0 {
		return "/usr/local"
	}
	abs, err := filepath.Abs(".cache/agents/prefix")
	if err != nil {
		return ".cache/agents/prefix"
	}
	return abs
}

// RunMatrix installs, runs and reports; progress goes to log.
func RunMatrix(ctx context.Context, o Options, log io.Writer) (*Report, error) {
	agents, err := pickAgents(o.Agents)
	if err != nil {
		return nil, err
	}
	scenarios, err := pickScenarios(o.Scenarios)
	if err != nil {
		return nil, err
	}
	if o.Install {
		if err := Install(ctx, agents, o.Prefix, o.Cache); err != nil {
			return nil, err
		}
	}
	if o.Broker != "" {
		abs, err := filepath.Abs(o.Broker)
		if err != nil {
			return nil, fmt.Errorf("find broker: %w", err)
		}
		o.Broker = abs
	}
	owner, err := ensureUser(o.User)
	if err != nil {
		return nil, err
	}
	work, err := workDir(o.User)
	if err != nil {
		return nil, fmt.Errorf("create work dir: %w", err)
	}
	if !o.Keep {
		defer os.RemoveAll(work)
	}
	if err := os.Chmod(work, 0o755); err != nil {
		return nil, fmt.Errorf("open work dir: %w", err)
	}
	srv, err := NewServer()
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	r := &Runner{Server: srv, Prefix: o.Prefix, Broker: o.Broker, BrokerFlags: o.BrokerFlags, Owner: owner, WorkDir: work, Timeout: o.Timeout, Keep: o.Keep}
	rep := newReport(o, agents, scenarios)
	for _, a := range agents {
		if a.Missing != "" {
			continue
		}
		if v := InstalledVersion(o.Prefix, a); v != a.Version {
			return nil, fmt.Errorf("run %s: %s@%s is not installed under %s (found %q)", a.Name, a.Package, a.Version, o.Prefix, v)
		}
		for _, sc := range scenarios {
			out, err := r.Run(ctx, a, sc)
			if err != nil {
				return nil, fmt.Errorf("run %s/%s: %w", a.Name, sc.Name, err)
			}
			fmt.Fprintf(log, "%-9s %-14s %-5s %5.1fs leaks=%d\n", a.Name, sc.Name, verdict(out.Pass), out.Seconds, len(out.Leaks))
			if err := dump(o.DumpDir, a, sc, srv.Requests()); err != nil {
				return nil, err
			}
			rep.Outcomes = append(rep.Outcomes, out)
		}
	}
	if o.Merge && o.DocsDir != "" {
		if err := rep.mergeInto(filepath.Join(o.DocsDir, "compat.json")); err != nil {
			return nil, err
		}
	}
	if o.DocsDir != "" {
		if err := rep.Write(o.DocsDir); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

func verdict(pass bool) string {
	if pass {
		return "pass"
	}
	return "FAIL"
}

func pickAgents(names []string) ([]Agent, error) {
	all := Agents()
	if len(names) == 0 {
		return all, nil
	}
	var out []Agent
	for _, n := range names {
		a, err := AgentByName(n)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func pickScenarios(names []string) ([]Scenario, error) {
	all, err := Scenarios()
	if err != nil || len(names) == 0 {
		return all, err
	}
	var out []Scenario
	for _, sc := range all {
		if slices.Contains(names, sc.Name) {
			out = append(out, sc)
		}
	}
	if len(out) != len(names) {
		return nil, fmt.Errorf("pick scenarios %v: some do not exist", names)
	}
	return out, nil
}

// workDir makes the folder that holds the fixtures. It is not under /tmp:
// profiles allow writing to the temporary directories, so a fake HOME there
// would make every write-outside check pass for the wrong reason. With a
// user it is under that user's home, otherwise under the project's .cache.
func workDir(name string) (string, error) {
	parent, err := filepath.Abs(filepath.Join(".cache", "compat-runs"))
	if err != nil {
		return "", fmt.Errorf("find work dir: %w", err)
	}
	if name != "" {
		u, err := user.Lookup(name)
		if err != nil {
			return "", fmt.Errorf("look up user %s: %w", name, err)
		}
		parent = filepath.Join(u.HomeDir, "compat-runs")
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("create work dir: %w", err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		return "", fmt.Errorf("open work dir: %w", err)
	}
	dir, err := os.MkdirTemp(parent, "aixcompat-")
	if err != nil {
		return "", fmt.Errorf("create work dir: %w", err)
	}
	return dir, nil
}

// ensureUser returns the uid and gid of name, creating a throwaway user
// with useradd when it does not exist (that needs root).
func ensureUser(name string) (Owner, error) {
	if name == "" {
		return Owner{UID: os.Getuid(), GID: os.Getgid()}, nil
	}
	u, err := user.Lookup(name)
	var unknown user.UnknownUserError
	if errors.As(err, &unknown) {
		out, uerr := exec.Command("useradd", "--create-home", "--shell", "/bin/bash", name).CombinedOutput()
		if uerr != nil {
			return Owner{}, fmt.Errorf("useradd %s: %w: %s", name, uerr, out)
		}
		u, err = user.Lookup(name)
	}
	if err != nil {
		return Owner{}, fmt.Errorf("look up user %s: %w", name, err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return Owner{}, fmt.Errorf("parse uid of %s: %w", name, err)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return Owner{}, fmt.Errorf("parse gid of %s: %w", name, err)
	}
	return Owner{UID: uid, GID: gid}, nil
}

func dump(dir string, a Agent, sc Scenario, reqs []Request) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create dump dir: %w", err)
	}
	var b strings.Builder
	for i, r := range reqs {
		fmt.Fprintf(&b, "=== %d %s %s\n%s\n", i, r.At.Format("15:04:05.000"), r.Path, r.Body)
	}
	path := filepath.Join(dir, a.Name+"-"+sc.Name+".txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write dump: %w", err)
	}
	return nil
}

// hostInfo describes the machine the matrix ran on.
func hostInfo() string {
	kernel, _ := os.ReadFile("/proc/sys/kernel/osrelease")
	node, _ := exec.Command("node", "--version").Output()
	return fmt.Sprintf("Linux %s, %s/%s, node %s", strings.TrimSpace(string(kernel)), runtime.GOOS, runtime.GOARCH, strings.TrimSpace(string(node)))
}
