//go:build linux

package notify

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/aixbroker/aixbroker/policy"
)

// createdCases: a file the agent created under a redacted name may be
// removed again, and nothing else the name may hold. agent runs on the
// sandboxed thread, outside (when set) on the test's own unsandboxed thread
// in between (another process of the user's), then the sandboxed thread
// unlinks proj/<name>.
var createdCases = []struct {
	name    string
	agent   func(d string) error
	outside func(d string) error
	file    string // under proj/, unlinked last
	flags   int    // of the unlinkat
	want    string
}{
	{"echo > .env.local, then rm", func(d string) error {
		return create(p(d, "proj/.env.local"), unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC)
	}, nil, ".env.local", 0, "ok"},
	{"a .env unpacked in a new directory, then rm -r", func(d string) error {
		if err := os.Mkdir(p(d, "proj/copy"), 0o755); err != nil {
			return err
		}
		return create(p(d, "proj/copy/.env"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
	}, nil, "copy/.env", 0, "ok"},
	{"a new pem, removed with unlinkat", func(d string) error {
		return create(p(d, "proj/k.pem"), unix.O_WRONLY|unix.O_CREAT)
	}, nil, "k.pem", 0, "ok"},
	{"a new .env.link symlink", func(d string) error {
		return unix.Symlink("tmp", p(d, "proj/.env.link"))
	}, nil, ".env.link", 0, "ok"},
	{"a new .env.node made with mknod", func(d string) error {
		return unix.Mknod(p(d, "proj/.env.node"), unix.S_IFREG|0o600, 0)
	}, nil, ".env.node", 0, "ok"},
	{"the user's .env", nil, nil, ".env", 0, "EACCES"},
	{"the agent's .env replaced by another process with a new file", func(d string) error {
		return create(p(d, "proj/.env.local"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
	}, func(d string) error {
		if err := os.Remove(p(d, "proj/.env.local")); err != nil {
			return err
		}
		return os.WriteFile(p(d, "proj/.env.local"), []byte("USER=1\n"), 0o600)
	}, ".env.local", 0, "EACCES"},
	{"the agent's .env replaced by another process with the user's .env", func(d string) error {
		return create(p(d, "proj/.env.local"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
	}, func(d string) error {
		return os.Rename(p(d, "proj/.env"), p(d, "proj/.env.local"))
	}, ".env.local", 0, "EACCES"},
	{"the agent's symlink replaced by another process with its own", func(d string) error {
		return unix.Symlink("tmp", p(d, "proj/.env.link"))
	}, func(d string) error {
		if err := os.Remove(p(d, "proj/.env.link")); err != nil {
			return err
		}
		return os.Symlink("tmp", p(d, "proj/.env.link"))
	}, ".env.link", 0, "EACCES"},
	{"the agent's .env.local, after its hard link to another redacted name was refused", func(d string) error {
		if err := create(p(d, "proj/.env.local"), unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
			return err
		}
		if err := unix.Link(p(d, "proj/.env.local"), p(d, "proj/.env.copy")); !errors.Is(err, unix.EACCES) {
			return fmt.Errorf("link .env.local .env.copy: got %v, want EACCES", err)
		}
		return nil
	}, nil, ".env.local", 0, "ok"},
	{"a hard link of the agent's unredacted file to a redacted name", func(d string) error {
		return unix.Link(p(d, "proj/tmp"), p(d, "proj/.env.linked"))
	}, nil, ".env.linked", 0, "EACCES"},
	{"a .env.d directory the agent made: rmdir stays refused", func(d string) error {
		return os.Mkdir(p(d, "proj/.env.d"), 0o755)
	}, nil, ".env.d", unix.AT_REMOVEDIR, "EACCES"},
}

// createdSyscalls are redactSyscalls and those that make files and
// directories.
var createdSyscalls = slices.Concat(redactSyscalls, []string{"mknod", "mknodat", "mkdir", "mkdirat"})

// TestRemoveCreatedRedacted runs createdCases with the real engine, each in
// its own tree, and checks what is left: the name is gone exactly when the
// unlink succeeded, and the user's .env is untouched.
func TestRemoveCreatedRedacted(t *testing.T) {
	base, e := redactEngine(t)
	sb := newSandboxThread(t, e, nil, createdSyscalls...)
	for i, c := range createdCases {
		dir := filepath.Join(base, strconv.Itoa(i))
		redactTree(t, dir)
		if c.agent != nil {
			if err := sb.do(func() error { return c.agent(dir) }); err != nil {
				t.Fatalf("%s: the agent's step: %v", c.name, err)
			}
		}
		if c.outside != nil {
			if err := c.outside(dir); err != nil {
				t.Fatalf("%s: the outside step: %v", c.name, err)
			}
		}
		target := p(dir, "proj/"+c.file)
		got := errName(sb.do(func() error { return unlinkAt(target, c.flags) }))
		if got != c.want {
			t.Errorf("%s: unlink: got %s, want %s", c.name, got, c.want)
		}
		_, err := os.Lstat(target)
		if gone := err != nil; gone != (got == "ok") {
			t.Errorf("%s: unlink said %s, the name is gone: %v", c.name, got, gone)
		}
		if got, err := os.ReadFile(p(dir, "proj/.env")); err == nil && string(got) != "SECRET=1\n" {
			t.Errorf("%s: the user's .env now reads %q", c.name, got)
		}
	}
}

// unlinkAt removes path with unlinkat on its directory: rm's way.
func unlinkAt(path string, flags int) error {
	return atDir(filepath.Dir(path), func(fd int) error { return unix.Unlinkat(fd, filepath.Base(path), flags) })
}

// TestRemoveCreatedRecord: the removal allowed for a file the agent created
// is recorded with the redact rule and the reason, and the file is
// forgotten afterwards.
func TestRemoveCreatedRecord(t *testing.T) {
	base, e := redactEngine(t)
	sb := newSandboxThread(t, e, nil, createdSyscalls...)
	dir := filepath.Join(base, "0")
	redactTree(t, dir)
	env := p(dir, "proj/.env.local")
	if err := sb.do(func() error { return create(env, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL) }); err != nil {
		t.Fatal(err)
	}
	if err := sb.do(func() error { return unix.Unlink(env) }); err != nil {
		t.Fatalf("unlink the agent's .env.local: %v", err)
	}
	if !sb.sup.created.empty() {
		t.Errorf("the removed file is still remembered")
	}
	// The supervisor records a request after answering it: later requests
	// (an unlink of a missing name) let it catch up.
	ev, ok := sb.rec.find(policy.OpUnlink, env)
	for i := 0; !ok && i < 100; i++ {
		sb.do(func() error { return unix.Unlink(p(dir, "proj/missing")) })
		ev, ok = sb.rec.find(policy.OpUnlink, env)
	}
	if !ok || !ev.Decision.Allowed() || ev.Decision.Rule.List != "redact" || ev.Decision.Rule.Comment != createdComment {
		t.Errorf("audit event: got %+v (found %v), want allowed by the redact rule, %q", ev.Decision, ok, createdComment)
	}
}

// TestUnprivilegedRemoveCreated reruns the created-file tests as nobody.
func TestUnprivilegedRemoveCreated(t *testing.T) {
	out := rerunAsNobody(t, "^TestRemoveCreated(Redacted|Record)$")
	for _, name := range []string{"TestRemoveCreatedRedacted", "TestRemoveCreatedRecord"} {
		if !strings.Contains(out, "--- PASS: "+name) {
			t.Errorf("%s did not run as nobody:\n%s", name, out)
		}
	}
}

// TestCreatedFilesBound: past the bound the oldest entry is dropped, and a
// forgotten or unknown one is not found.
func TestCreatedFilesBound(t *testing.T) {
	c := createdFiles{limit: 3}
	id := func(n uint64) fileID { return fileID{dev: 1, handle: "1:" + strconv.Itoa(int(n)), btimeSec: 100} }
	for n := range uint64(4) {
		c.add(id(n), "/p/"+strconv.Itoa(int(n)))
	}
	c.forget(id(2))
	tests := []struct {
		id   fileID
		path string
		want bool
	}{
		{id(0), "/p/0", false}, // dropped: the oldest past the bound
		{id(1), "/p/1", true},
		{id(2), "/p/2", false}, // forgotten
		{id(3), "/p/3", true},
		{id(3), "/p/1", false}, // another path
		{fileID{dev: 1, handle: "1:3", btimeSec: 101}, "/p/3", false}, // another birth
		{fileID{dev: 2, handle: "1:3", btimeSec: 100}, "/p/3", false}, // another device
	}
	for _, tt := range tests {
		if got := c.has(tt.id, tt.path); got != tt.want {
			t.Errorf("has(%+v, %s) = %v, want %v", tt.id, tt.path, got, tt.want)
		}
	}
}

// BenchmarkSandboxedCreateUnlink creates a file and removes it, under a
// name no rule redacts and under a redacted one (remembered, then
// forgotten).
func BenchmarkSandboxedCreateUnlink(b *testing.B) {
	for _, name := range []string{"plain", ".env.local"} {
		b.Run(name, func(b *testing.B) {
			base, e := redactEngine(b)
			dir := filepath.Join(base, "0", "proj")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			sb := newSandboxThread(b, e, nil, createdSyscalls...)
			path := filepath.Join(dir, name)
			for b.Loop() {
				err := sb.do(func() error {
					if err := create(path, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); err != nil {
						return err
					}
					return unix.Unlink(path)
				})
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCreatedFilesCompact: a full ring first drops the entries already
// forgotten (a removed shm object, an unlinked redacted file), so a live
// old entry stays remembered until the live ones alone fill the bound.
func TestCreatedFilesCompact(t *testing.T) {
	c := createdFiles{limit: 3}
	id := func(n int) fileID { return fileID{dev: 1, handle: "1:" + strconv.Itoa(n)} }
	for n := range 3 {
		c.add(id(n), "/p")
	}
	c.forget(id(1))
	c.add(id(3), "/p") // compacts: 0 and 2 stay
	for _, n := range []int{0, 2, 3} {
		if !c.hasID(id(n)) {
			t.Errorf("entry %d dropped while forgotten ones were left", n)
		}
	}
	c.add(id(4), "/p") // full of live entries: the oldest, 0, goes
	for n, want := range map[int]bool{0: false, 1: false, 2: true, 3: true, 4: true} {
		if got := c.hasID(id(n)); got != want {
			t.Errorf("hasID(%d) = %v, want %v", n, got, want)
		}
	}
}
