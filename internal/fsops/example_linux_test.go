package fsops_test

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/internal/fsops"
)

// A broker serving mkdir("sub/new", 0777) for a thread whose cwd it holds
// as cwdFD: resolve the parent as the caller, decide on the canonical path,
// then create the name in the very directory that was decided on.
func Example() {
	dir, _ := os.MkdirTemp("", "example-")
	defer os.RemoveAll(dir)
	_ = os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	cwdFD, _ := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	defer unix.Close(cwdFD)

	runner, err := fsops.NewRunner(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer runner.Close()
	caller, _ := fsops.ReadCreds(unix.Gettid()) // in the broker: the trapped thread's id
	caller.Umask = 0o027

	target := fsops.Target{Root: -1, TGID: os.Getpid(), TID: unix.Gettid()}
	err = runner.AsCaller(caller, func() error {
		parent, err := target.ResolveParent(cwdFD, "sub/new")
		if err != nil {
			return err
		}
		defer parent.Close()
		real, _ := filepath.EvalSymlinks(dir)
		fmt.Println("decide create on", parent.Path() == filepath.Join(real, "sub", "new"))
		return fsops.Mkdir(parent, 0o777)
	})
	fmt.Println("errno for the reply:", int(fsops.ErrnoOf(err)))
	st, _ := os.Stat(filepath.Join(dir, "sub", "new"))
	fmt.Printf("mode: %v\n", st.Mode().Perm())
	// Output:
	// decide create on true
	// errno for the reply: 0
	// mode: -rwxr-x---
}
