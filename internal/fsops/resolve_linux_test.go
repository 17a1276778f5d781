package fsops

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestSplitLast(t *testing.T) {
	tests := []struct {
		path, wantDir, wantName string
	}{
		{"a", ".", "a"},
		{"a/b", "a", "b"},
		{"a/b/", "a", "b/"},
		{"a//b//", "a/", "b//"},
		{"/a", "/", "a"},
		{"//a", "/", "a"},
		{"/", "/", "/"},
		{"///", "/", "/"},
		{"a/.", "a", "."},
		{"..", ".", ".."},
	}
	for _, tt := range tests {
		dir, name := splitLast(tt.path)
		if dir != tt.wantDir || name != tt.wantName {
			t.Errorf("splitLast(%q) = %q, %q; want %q, %q", tt.path, dir, name, tt.wantDir, tt.wantName)
		}
	}
}

func TestRewriteProc(t *testing.T) {
	tg := Target{Root: -1, TGID: 10, TID: 12}
	tests := []struct{ path, want string }{
		{"/proc/self", "/proc/10"},
		{"/proc/self/", "/proc/10/"},
		{"/proc/self/status", "/proc/10/status"},
		{"//proc//self/fd/3", "/proc/10/fd/3"},
		{"/proc/thread-self/comm", "/proc/10/task/12/comm"},
		{"/proc/selfish", "/proc/selfish"},
		{"/proc/1/status", "/proc/1/status"},
		{"proc/self", "proc/self"},
		{"/tmp/proc/self", "/tmp/proc/self"},
	}
	for _, tt := range tests {
		if got := tg.rewriteProc(tt.path); got != tt.want {
			t.Errorf("rewriteProc(%q) = %q, want %q", tt.path, got, tt.want)
		}
	}
}

func TestResolveParentCanonical(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir)
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path     string
		wantPath string // canonical path of the operated name, or
		wantErr  string // an errno name
	}{
		{path: "f", wantPath: real + "/f"},
		{path: "dlink/x", wantPath: real + "/d/x"},
		{path: "dlink/../g", wantPath: real + "/g"},
		{path: "d/new/", wantPath: real + "/d/new"},
		{path: "ln", wantPath: real + "/ln"},
		{path: real + "/dlink/y", wantPath: real + "/d/y"},
		{path: ".", wantPath: real},
		{path: "/", wantPath: "/"},
		{path: "", wantErr: "ENOENT"},
		{path: "nodir/x", wantErr: "ENOENT"},
		{path: "f/x", wantErr: "ENOTDIR"},
		{path: "loop1/x", wantErr: "ELOOP"},
		{path: "/proc/self/cwd/x", wantErr: "ELOOP"},
		{path: "/proc/self/root/etc/passwd", wantErr: "ELOOP"},
	}
	dirfd := openDir(t, dir)
	for _, tt := range tests {
		p, err := hostTarget().ResolveParent(dirfd, tt.path)
		if tt.wantErr != "" {
			if got := errnoName(err); got != tt.wantErr {
				t.Errorf("ResolveParent(%q): got %s, want %s", tt.path, got, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ResolveParent(%q): %v", tt.path, err)
			continue
		}
		if got := p.Path(); got != tt.wantPath {
			t.Errorf("ResolveParent(%q).Path() = %q, want %q", tt.path, got, tt.wantPath)
		}
		p.Close()
	}
}

func TestResolveFileEmptyPath(t *testing.T) {
	dir := t.TempDir()
	makeTree(t, dir)
	fd, err := unix.Open(filepath.Join(dir, "f"), unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	f, err := hostTarget().ResolveFile(fd, "", true, true)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if want, _ := filepath.EvalSymlinks(filepath.Join(dir, "f")); f.Path != want {
		t.Errorf("AT_EMPTY_PATH resolves to %q, want %q", f.Path, want)
	}
	if _, err := hostTarget().ResolveFile(fd, "", true, false); errnoName(err) != "ENOENT" {
		t.Errorf("empty path without AT_EMPTY_PATH: got %v, want ENOENT", err)
	}
}

// TestProcSelfIsTarget: /proc/self means the target; reaching the broker's
// own /proc entries any other way is refused.
func TestProcSelfIsTarget(t *testing.T) {
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	pid := cmd.Process.Pid
	tg := Target{Root: -1, TGID: pid, TID: pid}
	want := map[string]string{
		"/proc/self/status":        "/proc/" + strconv.Itoa(pid) + "/status",
		"/proc/thread-self/status": "/proc/" + strconv.Itoa(pid) + "/task/" + strconv.Itoa(pid) + "/status",
	}
	for path, w := range want {
		f, err := tg.ResolveFile(-1, path, true, false)
		if err != nil {
			t.Errorf("ResolveFile(%q): %v", path, err)
			continue
		}
		if f.Path != w {
			t.Errorf("ResolveFile(%q) = %q, want %q", path, f.Path, w)
		}
		f.Close()
	}

	dir := t.TempDir()
	if err := os.Symlink("/proc/self", filepath.Join(dir, "me")); err != nil {
		t.Fatal(err)
	}
	procfd := openDir(t, "/proc")
	refused := []struct {
		dirfd int
		path  string
	}{
		{-1, filepath.Join(dir, "me", "status")},
		{procfd, "self/status"},
		{-1, "/proc/" + strconv.Itoa(os.Getpid()) + "/environ"},
		{-1, "/proc/" + strconv.Itoa(unix.Gettid()) + "/environ"},
	}
	for _, r := range refused {
		_, err := tg.ResolveFile(r.dirfd, r.path, true, false)
		if !errors.Is(err, ErrBrokerProc) || ErrnoOf(err) != unix.EACCES {
			t.Errorf("ResolveFile(%q) = %v, want ErrBrokerProc (EACCES)", r.path, err)
		}
	}
}

func TestCanonical(t *testing.T) {
	dir := t.TempDir()
	real, _ := filepath.EvalSymlinks(dir)
	named := filepath.Join(real, "x (deleted)")
	if err := os.WriteFile(named, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(real, "gone")
	if err := os.WriteFile(gone, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(p string) int {
		fd, err := unix.Open(p, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { unix.Close(fd) })
		return fd
	}
	namedFD, goneFD := open(named), open(gone)
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	var pipe [2]int
	if err := unix.Pipe2(pipe[:], unix.O_CLOEXEC); err != nil {
		t.Fatal(err)
	}
	defer unix.Close(pipe[0])
	defer unix.Close(pipe[1])

	if got, err := Canonical(namedFD); err != nil || got != named {
		t.Errorf("Canonical(name ending in (deleted)) = %q, %v; want %q", got, err, named)
	}
	if got, err := Canonical(goneFD); ErrnoOf(err) != unix.ENOENT {
		t.Errorf("Canonical(unlinked) = %q, %v; want ENOENT", got, err)
	}
	if got, err := Canonical(pipe[0]); ErrnoOf(err) != unix.ENOENT {
		t.Errorf("Canonical(pipe) = %q, %v; want ENOENT", got, err)
	}
}

// TestChrootedTarget resolves for a target whose root is a directory: ".."
// and absolute symlinks stay inside it, as the kernel keeps them for a
// chrooted process.
func TestChrootedTarget(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"etc", "work/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc", filepath.Join(root, "work", "abs")); err != nil {
		t.Fatal(err)
	}
	realRoot, _ := filepath.EvalSymlinks(root)
	tg, err := NewTarget(openDir(t, root), os.Getpid(), unix.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	if !tg.chrooted {
		t.Fatal("a temp dir is not the broker's root")
	}
	cwd := openDir(t, filepath.Join(root, "work", "sub"))
	tests := []struct {
		dirfd      int
		path, want string
	}{
		{-1, "/etc/passwd", realRoot + "/etc/passwd"},
		{-1, "/../../etc/x", realRoot + "/etc/x"},
		{cwd, "../abs/x", realRoot + "/etc/x"},
		{cwd, "../../../../etc/y", realRoot + "/etc/y"},
		{cwd, "z", realRoot + "/work/sub/z"},
	}
	for _, tt := range tests {
		p, err := tg.ResolveParent(tt.dirfd, tt.path)
		if err != nil {
			t.Errorf("ResolveParent(%q): %v", tt.path, err)
			continue
		}
		if got := p.Path(); got != tt.want {
			t.Errorf("ResolveParent(%q) = %q, want %q", tt.path, got, tt.want)
		}
		p.Close()
	}
	outside := openDir(t, t.TempDir())
	if _, err := tg.ResolveParent(outside, "x"); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("relative to a dirfd outside the root: got %v, want ErrOutsideRoot", err)
	}
	host, err := NewTarget(openDir(t, "/"), os.Getpid(), unix.Gettid())
	if err != nil || host.chrooted {
		t.Errorf("NewTarget(/) = chrooted %v, %v; want the broker's root", host.chrooted, err)
	}
}

// FuzzSplitRewrite checks the string handling in front of openat2 on any
// input: the last component never contains a slash inside, the directory
// part is never empty, and only /proc/self and /proc/thread-self prefixes
// are rewritten.
func FuzzSplitRewrite(f *testing.F) {
	for _, s := range []string{"a/b", "/", "//proc//self/x", "/proc/thread-self", "a/b/", ".", "", "/proc/selfx"} {
		f.Add(s)
	}
	tg := Target{Root: -1, TGID: 7, TID: 9}
	f.Fuzz(func(t *testing.T, path string) {
		if path == "" {
			return
		}
		dir, name := splitLast(path)
		if dir == "" || name == "" {
			t.Fatalf("splitLast(%q) = %q, %q: empty part", path, dir, name)
		}
		if name != "/" && strings.Contains(strings.TrimRight(name, "/"), "/") {
			t.Fatalf("splitLast(%q): name %q has a slash inside", path, name)
		}
		got := tg.rewriteProc(path)
		if got != path && !strings.HasPrefix(got, "/proc/7") {
			t.Fatalf("rewriteProc(%q) = %q", path, got)
		}
		if got != path && !strings.Contains(path, "self") {
			t.Fatalf("rewriteProc(%q) = %q without self", path, got)
		}
	})
}

// TestOwnFDPaths: a path through one of the target's own descriptors
// (/proc/self/fd/N/name, as Bun writes *at calls) resolves like
// openat(N, name); another process's descriptors stay refused.
func TestOwnFDPaths(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	dfd := openDir(t, dir)
	n := strconv.Itoa(dfd)
	tg := hostTarget()
	tests := []struct {
		path  string
		want  string // canonical path, or "" for an error
		errno unix.Errno
	}{
		{path: "/proc/self/fd/" + n + "/f", want: filepath.Join(dir, "f")},
		{path: "/proc/thread-self/fd/" + n + "/f", want: filepath.Join(dir, "f")},
		{path: "/dev/fd/" + n + "/f", want: filepath.Join(dir, "f")},
		{path: "/proc/self/fd/" + n + "/missing", errno: unix.ENOENT},
		{path: "/proc/self/fd/99999/f", errno: unix.EBADF},
		{path: "/proc/" + strconv.Itoa(os.Getppid()) + "/fd/0/x", errno: unix.ELOOP}, // not the target's own
	}
	for _, tt := range tests {
		f, err := tg.ResolveFile(-1, tt.path, true, false)
		if tt.want == "" {
			if ErrnoOf(err) != tt.errno {
				t.Errorf("ResolveFile(%q) = %v, want %v", tt.path, err, tt.errno)
			}
			if err == nil {
				f.Close()
			}
			continue
		}
		if err != nil || f.Path != tt.want {
			t.Errorf("ResolveFile(%q) = %q, %v, want %q", tt.path, f.Path, err, tt.want)
		}
		if err == nil {
			f.Close()
		}
	}
	p, err := tg.ResolveParent(-1, "/proc/self/fd/"+n+"/new")
	if err != nil || p.Path() != filepath.Join(dir, "new") {
		t.Fatalf("ResolveParent = %v, %v, want %s/new", p, err, dir)
	}
	p.Close()
}
