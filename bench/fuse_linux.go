package bench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// fuseName is the go-fuse passthrough side's name.
const fuseName = "go-fuse"

// fuseSide is the go-fuse passthrough side: the project served by server
// (bench/cmd/fusepass, a go-fuse loopback file system) on a mount point
// under root, and the same commands run natively with paths under the
// mount. Skip says why it cannot run here.
func fuseSide(server, root string) Side {
	mnt := filepath.Join(root, "fuse")
	side := Side{
		Name:      fuseName,
		Wrap:      func(argv []string) []string { return argv },
		Project:   mnt,
		Exec:      filepath.Join(mnt, fuseTrue),
		NoStartup: true,
	}
	switch {
	case server == "":
		side.Skip = "no FUSE server given (--fuse; make bench builds bin/fusepass)"
	case os.Geteuid() != 0 && !haveFusermount():
		side.Skip = "not root and no fusermount3: a FUSE mount needs one or the other"
	default:
		f, err := os.OpenFile("/dev/fuse", os.O_RDWR, 0)
		if err != nil {
			side.Skip = fmt.Sprintf("cannot open /dev/fuse: %v", err)
			break
		}
		f.Close()
	}
	return side
}

func haveFusermount() bool {
	for _, name := range []string{"fusermount3", "fusermount"} {
		if _, err := exec.LookPath(name); err == nil {
			return true
		}
	}
	return false
}

// fuseTrue is where the project holds a copy of /bin/true, so that the go-fuse
// side's exec loads a program through the mount.
const fuseTrue = "tools/true"

// fuseMount is a running fusepass.
type fuseMount struct {
	cmd    *exec.Cmd
	mnt    string
	took   time.Duration // from start to mounted
	exited chan struct{}
}

// mountReady bounds how long the server may take to mount.
const mountReady = 30 * time.Second

// mountFuse starts server serving source on mnt and waits until it is
// mounted; serverReads refuses the kernel's FUSE passthrough. The server is stopped with SIGTERM (see stop), also when this
// process dies (Pdeathsig), and unmounts on it.
func mountFuse(ctx context.Context, server, source, mnt string, serverReads bool) (*fuseMount, error) {
	server, err := filepath.Abs(server)
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", server, err)
	}
	if err := copyTrue(filepath.Join(source, fuseTrue)); err != nil {
		return nil, err
	}
	// A mount left behind by a killed run; EINVAL when there is none.
	_ = unix.Unmount(mnt, unix.MNT_DETACH)
	if err := os.MkdirAll(mnt, 0o755); err != nil {
		return nil, fmt.Errorf("create mount point: %w", err)
	}
	// Not CommandContext: SIGKILL would leave the mount behind.
	cmd := exec.Command(server, "-source", source, "-mount", mnt, fmt.Sprintf("-kernel-passthrough=%v", !serverReads))
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("pipe fusepass output: %w", err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", server, err)
	}
	m := &fuseMount{cmd: cmd, mnt: mnt, exited: make(chan struct{})}
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		ready <- strings.TrimSpace(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	go func() { _ = cmd.Wait(); close(m.exited) }()
	timer := time.NewTimer(mountReady)
	defer timer.Stop()
	select {
	case line := <-ready:
		if line == "ready" {
			m.took = time.Since(start)
			return m, nil
		}
		m.stop()
		return nil, fmt.Errorf("fusepass did not mount: %s", lastLine(stderr.String()))
	case <-timer.C:
		m.stop()
		return nil, fmt.Errorf("fusepass did not mount within %s: %s", mountReady, lastLine(stderr.String()))
	case <-ctx.Done():
		m.stop()
		return nil, ctx.Err()
	}
}

// stop asks the server to unmount and exit, kills it if it has not within
// a few seconds, detaches the mount if it is still there, and returns the
// server's peak resident memory in KiB.
func (m *fuseMount) stop() int64 {
	hwm := readHWM(m.cmd.Process.Pid)
	_ = m.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-m.exited:
	case <-time.After(10 * time.Second):
		_ = m.cmd.Process.Kill()
		<-m.exited
	}
	if mounted(m.mnt) {
		_ = unix.Unmount(m.mnt, unix.MNT_DETACH)
	}
	return hwm
}

// mounted reports whether dir is a mount point, from /proc/self/mountinfo.
func mounted(dir string) bool {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		// ID parent major:minor root mountpoint ...; spaces in the mount
		// point are escaped as \040.
		if f := strings.Fields(line); len(f) > 4 && strings.ReplaceAll(f[4], `\040`, " ") == dir {
			return true
		}
	}
	return false
}

// copyTrue puts a copy of /bin/true at dst unless one is there.
func copyTrue(dst string) error {
	if _, err := os.Stat(dst); err == nil {
		return nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("stat %s: %w", dst, err)
	}
	b, err := os.ReadFile("/bin/true")
	if err != nil {
		return fmt.Errorf("read /bin/true: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(dst), err)
	}
	if err := os.WriteFile(dst+".tmp", b, 0o755); err != nil {
		return fmt.Errorf("copy /bin/true: %w", err)
	}
	if err := os.Rename(dst+".tmp", dst); err != nil {
		return fmt.Errorf("copy /bin/true: %w", err)
	}
	return nil
}
