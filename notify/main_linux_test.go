package notify

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/policy"
)

func TestMain(m *testing.M) {
	MaybeStage2()
	os.Exit(m.Run())
}

// prefixPolicy is a test double of the compiled policy: deny below Deny
// (reads ENOENT), redact below Redact, writes only below Write, exec
// everywhere but ExecDeny.
type prefixPolicy struct {
	Deny, Redact, Write, ExecDeny []string
	RedactMode                    map[string]string // redact prefix to its mode ("" is keys)
	Connect                       []string          // unix socket paths OpConnect allows
}

func under(path string, prefixes []string) (string, bool) {
	for _, p := range prefixes {
		if path == p || strings.HasPrefix(path, p+"/") {
			return p, true
		}
	}
	return "", false
}

func (p prefixPolicy) Decide(op policy.Op, path string) policy.Decision {
	if pre, ok := under(path, p.Deny); ok {
		return policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "deny", Pattern: pre}}
	}
	if pre, ok := under(path, p.Redact); ok {
		return policy.Decision{Action: policy.Redact, Rule: policy.Rule{List: "redact", Pattern: pre, Mode: p.RedactMode[pre]}}
	}
	if op == OpConnect {
		if pre, ok := under(path, p.Connect); ok {
			return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "unix.connect", Pattern: pre}}
		}
		return policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "default"}}
	}
	switch op {
	case policy.OpRead, policy.OpStat, policy.OpExec:
		return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "allow_read"}}
	}
	if pre, ok := under(path, p.Write); ok {
		return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "allow_write", Pattern: pre}}
	}
	return policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "default"}}
}

func (p prefixPolicy) DecideExec(path string, argv []string) policy.Decision {
	if pre, ok := under(path, p.ExecDeny); ok {
		return policy.Decision{Action: policy.Deny, Rule: policy.Rule{List: "exec.deny", Pattern: pre}}
	}
	return policy.Decision{Action: policy.Allow, Rule: policy.Rule{List: "exec.allow"}}
}

// events collects what the broker records.
type events struct {
	mu  sync.Mutex
	evs []broker.Event
}

func (e *events) Record(ev broker.Event) {
	e.mu.Lock()
	e.evs = append(e.evs, ev)
	e.mu.Unlock()
}

func (e *events) find(path string) []broker.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []broker.Event
	for _, ev := range e.evs {
		if ev.Path == path {
			out = append(out, ev)
		}
	}
	return out
}

// sandbox is a fake home with a secret and a project directory.
type sandbox struct {
	home, project, secret, bin string
	policy                     prefixPolicy
	events                     *events
	execRoots                  []string // added to the Landlock exec roots
	denyInodes                 *fsops.DenyInodes
	trapStat                   bool // Config.TrapStat
}

func newSandbox(t testing.TB) *sandbox {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s := &sandbox{
		home:    filepath.Join(root, "home"),
		project: filepath.Join(root, "home", "project"),
		bin:     filepath.Join(root, "bin"),
		events:  &events{},
	}
	s.secret = filepath.Join(s.home, ".ssh", "id_rsa")
	for _, d := range []string{filepath.Dir(s.secret), s.project, s.bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, s.secret, "SECRET-KEY\n")
	writeFile(t, filepath.Join(s.project, "README"), "hello project\n")
	s.policy = prefixPolicy{
		Deny:  []string{filepath.Join(s.home, ".ssh")},
		Write: []string{s.project, "/dev"},
	}
	return s
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs argv in the sandbox with the project as working directory.
func (s *sandbox) run(t testing.TB, argv ...string) result {
	t.Helper()
	return s.runCtx(t, context.Background(), argv...)
}

func (s *sandbox) runCtx(t testing.TB, ctx context.Context, argv ...string) result {
	t.Helper()
	outR, outW, _ := os.Pipe()
	errR, errW, _ := os.Pipe()
	var out, errb bytes.Buffer
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { io.Copy(&out, outR); wg.Done() }()
	go func() { io.Copy(&errb, errR); wg.Done() }()
	cfg := Config{
		Argv:   argv,
		Env:    []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + s.home, "LC_ALL=C"},
		Dir:    s.project,
		Stdout: outW, Stderr: errW,
		Broker:     broker.New(s.policy, s.events),
		DenyInodes: s.denyInodes,
		TrapStat:   s.trapStat,
		Landlock: landlock.Roots{
			Read:  []string{"/"},
			Write: []string{s.project, "/dev/null"},
			Exec:  append([]string{"/usr", "/bin", "/lib", "/lib64", s.bin}, s.execRoots...),
		},
	}
	code, err := Run(ctx, cfg)
	outW.Close()
	errW.Close()
	wg.Wait()
	outR.Close()
	errR.Close()
	if err != nil {
		t.Fatalf("Run(%q): %v (stderr %q)", argv, err, errb.String())
	}
	return result{stdout: out.String(), stderr: errb.String(), code: code}
}

// brokerHelperEnv makes the test binary act as a broker process for
// TestBrokerDeathFailsClosed: it runs the command in its arguments in a
// sandbox whose project is the variable's value.
const brokerHelperEnv = "AIXBROKER_TEST_BROKER_PROJECT"

func init() {
	project := os.Getenv(brokerHelperEnv)
	if project == "" {
		return
	}
	pol := prefixPolicy{Write: []string{project}}
	code, err := Run(context.Background(), Config{
		Argv:     flagArgs(),
		Env:      []string{"PATH=/usr/bin:/bin"},
		Dir:      project,
		Broker:   broker.New(pol, nil),
		Landlock: landlock.Roots{Read: []string{"/"}, Write: []string{project}, Exec: []string{"/usr", "/bin", "/lib", "/lib64"}},
	})
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
	}
	os.Exit(code)
}

// flagArgs returns the arguments after "--".
func flagArgs() []string {
	for i, a := range os.Args {
		if a == "--" {
			return os.Args[i+1:]
		}
	}
	return nil
}
