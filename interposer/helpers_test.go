package interposer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

// driver builds testdriver/driver.c with the library's sources.
func driver(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not installed: the C side cannot be built")
	}
	driverOnce.Do(func() { driverBin, driverErr = buildDriver() })
	if driverErr != nil {
		t.Fatal(driverErr)
	}
	return driverBin
}

var (
	driverOnce sync.Once
	driverBin  string
	driverErr  error
)

func buildDriver() (string, error) {
	dir, err := os.MkdirTemp("", "aixbroker-driver-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "driver")
	srcs := []string{"testdriver/driver.c", "src/msgpack.c", "src/match.c", "src/client.c"}
	args := append([]string{"-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-o", bin}, srcs...)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("build driver: %w\n%s", err, out)
	}
	return bin, nil
}

// runDriver runs the driver with stdin and returns its output lines.
func runDriver(t *testing.T, bin, stdin string, args ...string) []string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("driver %v: %v", args, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// testVars are the variables the tests compile profiles with.
var testVars = policy.Vars{Project: "/home/u/p", Home: "/home/u", TmpDir: "/tmp", ConfigDir: "/home/u/.aixgate"}

func engine(t *testing.T, profile string) *policy.Engine {
	t.Helper()
	p, err := policy.LoadProfile(profile)
	if err != nil {
		t.Fatal(err)
	}
	e, err := policy.Compile(p, testVars)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// helloFile writes the hello response carrying e's snapshot.
func helloFile(t *testing.T, e *policy.Engine) string {
	t.Helper()
	snap := broker.BuildSnapshot(e)
	b, err := broker.Encode(broker.Response{Type: broker.MsgHello, Version: broker.ProtoVersion, Snapshot: &snap})
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "hello.msgpack")
	if err := os.WriteFile(f, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}
