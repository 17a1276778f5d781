//go:build linux

package notify

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestShmGuard: an object of /dev/shm made by another process of the user
// (here the test, outside the sandbox) is absent for opens and refused
// every change, removal, rename and link whatever the policy allows (the
// sandbox may write /dev); an object the sandbox creates is opened,
// truncated, linked, renamed and removed as usual, under any of its names.
func TestShmGuard(t *testing.T) {
	if _, err := os.Stat("/dev/shm"); err != nil {
		t.Skip("no /dev/shm")
	}
	tag := strconv.Itoa(os.Getpid())
	outside := "/dev/shm/aixtest-outside-" + tag
	if err := os.WriteFile(outside, []byte("CANARY-SHM-"+tag), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		for _, n := range []string{outside, outside + "-moved", outside + "-link", "/dev/shm/aixtest-own-" + tag, "/dev/shm/aixtest-own2-" + tag} {
			os.Remove(n)
		}
	})
	s := newSandbox(t)
	own := "/dev/shm/aixtest-own-" + tag
	script := `o=` + outside + `; m=` + own + `
cat $o 2>/dev/null
try() { what=$1; shift; if "$@" >/dev/null 2>&1; then echo "$what: done"; else echo "$what: refused"; fi; }
try "outside cat" cat $o
try "outside write" sh -c "printf x >> $o"
try "outside truncate" truncate -s 0 $o
try "outside chmod" chmod 666 $o
try "outside touch" touch -d @0 $o
try "outside link" ln $o $o-link
try "outside rename" mv -T $o $o-moved
try "outside rm" rm -f $o
printf own > $m
try "own over outside" mv -T $m $o
try "own cat" cat $m
try "own append" sh -c "printf more >> $m"
try "own truncate" truncate -s 3 $m
try "own link" ln $m ` + own + `2
try "own rename" mv -T ` + own + `2 $m-renamed
try "own cat renamed" cat $m-renamed
try "own rm" rm $m $m-renamed
echo end
`
	res := s.run(t, "/bin/sh", "-c", script)
	for _, line := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
		what, verdict, _ := strings.Cut(line, ": ")
		wantDone := strings.HasPrefix(what, "own") && what != "own over outside"
		if what == "end" {
			continue
		}
		if (verdict == "done") != wantDone {
			t.Errorf("%s: %s, want done=%v", what, verdict, wantDone)
		}
	}
	if !strings.HasSuffix(res.stdout, "end\n") || strings.Contains(res.stdout, "CANARY") {
		t.Errorf("stdout %q (stderr %q)", res.stdout, res.stderr)
	}
	data, err := os.ReadFile(outside)
	if err != nil || string(data) != "CANARY-SHM-"+tag {
		t.Errorf("outside object now %q, %v", data, err)
	}
	if fi, err := os.Stat(outside); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("outside object mode %v", fi.Mode())
	}
	guarded := 0
	for _, ev := range s.events.find(outside) {
		if ev.Decision.Rule.List == "shm-guard" {
			guarded++
		}
	}
	if guarded == 0 {
		t.Errorf("no shm-guard decision recorded for %s", outside)
	}
	if _, err := os.Stat(filepath.Join("/dev/shm", "aixtest-own-"+tag)); !os.IsNotExist(err) {
		t.Errorf("own object not removed: %v", err)
	}
}
