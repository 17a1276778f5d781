package macos

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/aixbroker/aixbroker/policy"
)

// Doctor checks what the macOS backend needs: sandbox-exec, that the
// policy's generated profile loads (when eng is not nil), SIP's status,
// the interposer, and the system log.
func Doctor(eng *policy.Engine, interposer string) []Check {
	h := host{executable: checkExecutable, run: runOutput, interposer: interposer}
	if eng != nil {
		h.probe = func() error { return probe(eng) }
	}
	return checks(h)
}

func runOutput(name string, args ...string) (string, error) {
	out, err := exec.Command(name, args...).CombinedOutput()
	return string(out), err
}

// probe runs /usr/bin/true under the policy's profile.
func probe(eng *policy.Engine) error {
	devnull, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("open %s: %w", os.DevNull, err)
	}
	defer devnull.Close()
	status, err := launch(context.Background(), Config{
		Argv: []string{"/usr/bin/true"}, Env: []string{"PATH=/usr/bin:/bin"}, Engine: eng,
		Stdin: devnull, Stdout: devnull, Stderr: devnull,
	}, nil)
	if err != nil {
		return err
	}
	if status != 0 {
		return errors.New("exit status " + fmt.Sprint(status))
	}
	return nil
}
