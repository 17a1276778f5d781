package bench

import (
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

//go:embed helper/microbench.c
var helperSource []byte

// BuildHelper compiles the timing helper into dir with the system's cc. It
// is linked dynamically: the interposer side needs a program that loads it.
func BuildHelper(dir string) (string, error) {
	src := filepath.Join(dir, "microbench.c")
	bin := filepath.Join(dir, "microbench")
	if err := os.WriteFile(src, helperSource, 0o644); err != nil {
		return "", fmt.Errorf("write helper source: %w", err)
	}
	cc := "cc"
	if _, err := exec.LookPath(cc); err != nil {
		cc = "gcc"
	}
	out, err := exec.Command(cc, "-O2", "-o", bin, src).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("compile helper with %s: %w: %s", cc, err, out)
	}
	return bin, nil
}
