package interposer

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMain removes the binaries the tests built once for the package.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, bin := range []string{driverBin, binPath} {
		if bin != "" {
			os.RemoveAll(filepath.Dir(bin))
		}
	}
	os.Exit(code)
}
