package macos

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/aixbroker/aixbroker/sbpl"
)

// standIn is a sandbox-exec that records its arguments, the profile, the
// profile's and its directory's modes and its environment in $RECORD, then
// runs the command after "--" as the real one would.
const standIn = `#!/bin/sh
[ "$1" = "-f" ] && [ "$3" = "--" ] || { echo "usage: sandbox-exec -f profile -- cmd" >&2; exit 64; }
printf '%s\n' "$@" > "$RECORD/args"
cp "$2" "$RECORD/profile.sb"
stat -c %a "$2" > "$RECORD/mode"
stat -c %a "$(dirname "$2")" > "$RECORD/dirmode"
env > "$RECORD/env"
shift 3
exec "$@"
`

func writeStandIn(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "sandbox-exec")
	if err := os.WriteFile(p, []byte(standIn), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func testEngine(t *testing.T, src string) *policy.Engine {
	t.Helper()
	p, err := policy.Parse("test.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(p, policy.Vars{Home: "/Users/u", Project: "/Users/u/proj", TmpDir: "/private/tmp/u", ConfigDir: "/Users/u/.aixgate"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

const testPolicy = "profile: t\ndefault: deny\nfilesystem:\n  allow_read: [/usr/**]\n  deny: [~/.ssh/**]\n"

func requireUnixTools(t *testing.T) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("the stand-in uses GNU stat; the launcher test runs on Linux (on macOS, Run is the real thing)")
	}
}

func TestLaunchWithStandIn(t *testing.T) {
	requireUnixTools(t)
	record, tmp := t.TempDir(), t.TempDir()
	eng := testEngine(t, testPolicy)
	cfg := Config{
		Argv:        []string{"sh", "-c", "exit 7"},
		Env:         []string{"PATH=/usr/bin:/bin", "RECORD=" + record, "DYLD_INSERT_LIBRARIES=/evil.dylib", "DYLD_LIBRARY_PATH=/x", "KEEP=1"},
		Engine:      eng,
		SandboxExec: writeStandIn(t),
		TempDir:     tmp,
		SessionID:   "01TEST",
	}
	var pid int
	status, err := launch(context.Background(), cfg, func(p int) { pid = p })
	if err != nil {
		t.Fatalf("launch: %v", err)
	}
	if status != 7 || pid <= 0 {
		t.Errorf("status = %d, pid = %d; want 7 and a pid", status, pid)
	}

	args := readLines(t, filepath.Join(record, "args"))
	sh, _ := exec.LookPath("sh")
	if len(args) != 6 || args[0] != "-f" || args[2] != "--" || args[4] != "-c" || args[5] != "exit 7" {
		t.Fatalf("sandbox-exec args = %q, want -f PROFILE -- /path/sh -c 'exit 7'", args)
	}
	if filepath.Base(args[3]) != "sh" || !filepath.IsAbs(args[3]) {
		t.Errorf("command = %q, want an absolute path to sh (like %s)", args[3], sh)
	}
	profile := args[1]
	if filepath.Dir(filepath.Dir(profile)) != tmp || filepath.Base(profile) != profileName {
		t.Errorf("profile %s is not in a private directory under %s", profile, tmp)
	}
	if _, err := os.Stat(filepath.Dir(profile)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("profile directory still exists after the run: %v", err)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(record, "mode"))); got != "600" {
		t.Errorf("profile mode = %s, want 600", got)
	}
	if got := strings.TrimSpace(readFile(t, filepath.Join(record, "dirmode"))); got != "700" {
		t.Errorf("profile directory mode = %s, want 700", got)
	}

	want, err := sbpl.Generate(eng, sbpl.Options{PrivateDirs: []string{filepath.Dir(profile)}, LogTag: "aixbroker:01TEST"})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(record, "profile.sb")); got != string(want) {
		t.Errorf("profile given to sandbox-exec differs from sbpl.Generate:\n%s", got)
	}

	env := readLines(t, filepath.Join(record, "env"))
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "DYLD_") }) {
		t.Errorf("DYLD_ variables reached sandbox-exec: %q", env)
	}
	if !slices.Contains(env, "KEEP=1") {
		t.Errorf("environment lost KEEP=1: %q", env)
	}
}

// TestLaunchStandInOnPATH: a sandbox-exec given by name is looked up in
// PATH (the default is the absolute /usr/bin/sandbox-exec).
func TestLaunchStandInOnPATH(t *testing.T) {
	requireUnixTools(t)
	record := t.TempDir()
	bin := filepath.Dir(writeStandIn(t))
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	status, err := launch(context.Background(), Config{
		Argv: []string{"true"}, Env: []string{"PATH=/usr/bin:/bin", "RECORD=" + record},
		Engine: testEngine(t, testPolicy), SandboxExec: "sandbox-exec", TempDir: t.TempDir(),
	}, nil)
	if err != nil || status != 0 {
		t.Fatalf("launch = %d, %v", status, err)
	}
	if args := readLines(t, filepath.Join(record, "args")); len(args) != 4 || filepath.Base(args[3]) != "true" {
		t.Errorf("args = %q", args)
	}
}

func TestLaunchRefuses(t *testing.T) {
	eng := testEngine(t, testPolicy)
	quoted := testEngine(t, "profile: q\nfilesystem:\n  deny: ['/a\"b']\n")
	tests := []struct {
		name string
		cfg  Config
		want error // nil: any error
	}{
		{name: "no command", cfg: Config{Engine: eng}},
		{name: "no policy", cfg: Config{Argv: []string{"true"}}},
		{name: "command not found", cfg: Config{Argv: []string{"no-such-command-xyz"}, Env: []string{"PATH=/usr/bin:/bin"}, Engine: eng}, want: fs.ErrNotExist},
		{name: "relative PATH entry", cfg: Config{Argv: []string{"true"}, Env: []string{"PATH=bin"}, Engine: eng}, want: fs.ErrNotExist},
		{name: "interposer", cfg: Config{Argv: []string{"/bin/true"}, Engine: eng, Interposer: "/x.dylib"}, want: ErrInterposerNotBuilt},
		{name: "untranslatable rule", cfg: Config{Argv: []string{"/bin/true"}, Engine: quoted}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tmp := t.TempDir()
			tt.cfg.TempDir, tt.cfg.SandboxExec = tmp, "/nonexistent/sandbox-exec"
			_, err := launch(context.Background(), tt.cfg, nil)
			if err == nil || (tt.want != nil && !errors.Is(err, tt.want)) {
				t.Fatalf("launch error = %v, want %v", err, tt.want)
			}
			if left, _ := os.ReadDir(tmp); len(left) != 0 {
				t.Errorf("left %d entries in the temp dir", len(left))
			}
		})
	}
}

func TestRunNeedsMacOS(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("Run is the real thing on macOS")
	}
	if _, err := Run(context.Background(), Config{}); !errors.Is(err, ErrNotSupported) {
		t.Errorf("Run error = %v, want ErrNotSupported", err)
	}
	if c := Doctor(nil, ""); len(c) != 1 || c[0].Level != Fail {
		t.Errorf("Doctor = %v, want one failing check", c)
	}
}

func TestInterposerApplies(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{path: "/usr/bin/git", want: false},
		{path: "/bin/sh", want: false},
		{path: "/System/Library/x", want: false},
		{path: "/opt/homebrew/bin/node", want: true},
		{path: "/usr/local/bin/claude", want: true},
		{path: "/Users/u/.local/bin/claude", want: true},
	}
	for _, tt := range tests {
		if got := InterposerApplies(tt.path); got != tt.want {
			t.Errorf("InterposerApplies(%s) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readLines(t *testing.T, p string) []string {
	return strings.Split(strings.TrimRight(readFile(t, p), "\n"), "\n")
}
