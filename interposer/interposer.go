// Package interposer carries the C LD_PRELOAD library of interposer/src,
// built by the Makefile (`make interposer`) and embedded in the binary, and
// installs it for one sandbox session.
//
// The library keeps the agent's view consistent with the policy (denied
// names vanish from listings and from the stat family, redacted files show
// the stub's size) and refuses denied reads without a kernel trap. It is
// never the boundary: the seccomp broker and Landlock hold when it is
// skipped. See README.md for how it works and PROTOCOL.md for what it says
// to the broker (package broker serves it).
//
// The Go build needs interposer/libaixbroker.so: run `make build` (or
// `make interposer`) before `go build`, `go vet` or `go test`.
package interposer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Environment variables the library reads.
const (
	EnvFD       = "AIXBROKER_INTERPOSER_FD"       // the inherited connector socket
	EnvSnapshot = "AIXBROKER_INTERPOSER_SNAPSHOT" // the snapshot file, when the socket is gone
)

// LibName is the library's file name in an installed directory.
const LibName = "libaixbroker.so"

// ErrUnavailable is returned where there is no library for the platform.
var ErrUnavailable = errors.New("interposer library not available on this platform")

// Install is the library written for one session into a private
// directory: 0500 once sealed, the library 0500, the snapshot 0400.
type Install struct {
	Dir      string
	Lib      string // Dir/libaixbroker.so, for LD_PRELOAD
	Snapshot string // Dir/snapshot.msgpack, for EnvSnapshot
}

// New writes the embedded library into a fresh private directory under
// parent ("" for the user's runtime dir, else the temporary dir). The
// directory stays writable until Seal.
func New(parent string) (*Install, error) {
	if len(library) == 0 {
		return nil, ErrUnavailable
	}
	if parent == "" {
		parent = os.Getenv("XDG_RUNTIME_DIR")
		if st, err := os.Stat(parent); parent == "" || err != nil || !st.IsDir() {
			parent = os.TempDir()
		}
	}
	dir, err := os.MkdirTemp(parent, "aixbroker-interposer-")
	if err != nil {
		return nil, fmt.Errorf("install interposer: %w", err)
	}
	dir, err = filepath.EvalSymlinks(dir) // the broker decides on canonical paths
	if err != nil {
		return nil, fmt.Errorf("install interposer: %w", err)
	}
	in := &Install{Dir: dir, Lib: filepath.Join(dir, LibName), Snapshot: filepath.Join(dir, "snapshot.msgpack")}
	if err := os.WriteFile(in.Lib, library, 0o500); err != nil {
		in.Remove()
		return nil, fmt.Errorf("install interposer: %w", err)
	}
	return in, nil
}

// WriteSnapshot writes the encoded snapshot (broker.Encode of a
// broker.Snapshot) next to the library.
func (in *Install) WriteSnapshot(b []byte) error {
	if err := os.WriteFile(in.Snapshot, b, 0o400); err != nil {
		return fmt.Errorf("write interposer snapshot: %w", err)
	}
	return nil
}

// Seal makes the directory read-only (0500). The broker refuses every
// change under it (broker.ReadOnlyDir) for the sandbox; this protects it
// from the owner's other processes by accident.
func (in *Install) Seal() error {
	if err := os.Chmod(in.Dir, 0o500); err != nil {
		return fmt.Errorf("seal interposer dir: %w", err)
	}
	return nil
}

// Env returns the variables that load the library in the sandbox: it is
// put first in LD_PRELOAD, keeping what env already preloads; fd is the
// connector's descriptor number in the agent (-1: none).
func (in *Install) Env(env []string, fd int) []string {
	out := make([]string, 0, len(env)+3)
	preload := in.Lib
	for _, kv := range env {
		switch k, v, _ := strings.Cut(kv, "="); k {
		case "LD_PRELOAD":
			if v != "" {
				preload += ":" + v
			}
		case EnvFD, EnvSnapshot:
		default:
			out = append(out, kv)
		}
	}
	out = append(out, "LD_PRELOAD="+preload, EnvSnapshot+"="+in.Snapshot)
	if fd >= 0 {
		out = append(out, fmt.Sprintf("%s=%d", EnvFD, fd))
	}
	return out
}

// Remove deletes the directory.
func (in *Install) Remove() error {
	os.Chmod(in.Dir, 0o700)
	if err := os.RemoveAll(in.Dir); err != nil {
		return fmt.Errorf("remove interposer dir: %w", err)
	}
	return nil
}
