package notify

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseExecHead(t *testing.T) {
	elf := []byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00")
	native := append(append([]byte{}, elf...), byte(elfMachine), byte(elfMachine>>8))
	foreign := append(append([]byte{}, elf...), 0x28, 0) // 32-bit ARM: binfmt_misc
	for _, tc := range []struct {
		name   string
		head   []byte
		interp string
		arg    bool
		kind   execKind
	}{
		{"native elf", native, "", false, formatNative},
		{"foreign elf", foreign, "", false, formatUnknown},
		{"script", []byte("#!/bin/sh\necho\n"), "/bin/sh", false, formatScript},
		{"script with arg", []byte("#! /bin/sh -e -x\n"), "/bin/sh", true, formatScript},
		{"env", []byte("#!/usr/bin/env python3\n"), "/usr/bin/env", true, formatScript},
		{"tabs and cr", []byte("#!\t/bin/bash\t\n"), "/bin/bash", false, formatScript},
		{"no newline", []byte("#!./run"), "./run", false, formatScript},
		{"empty #!", []byte("#!\n"), "", false, formatUnknown},
		{"text", []byte("hello world\n"), "", false, formatUnknown},
	} {
		interp, arg, kind := parseExecHead(tc.head)
		if interp != tc.interp || arg != tc.arg || kind != tc.kind {
			t.Errorf("%s: got %q %v %v, want %q %v %v", tc.name, interp, arg, kind, tc.interp, tc.arg, tc.kind)
		}
	}
}

// TestExecRace is the attack of issue 14 item 8: the exec is decided on
// the path the broker read, then CONTINUEd, and the kernel reads the path
// again; a sibling thread toggling it ran the denied binary (a copy of
// touch here: it would create the marker) while the audit said the
// allowed one ran. The check kills the new image at its first trapped
// syscall (ld.so's first open, before touch's main) and records what ran.
func TestExecRace(t *testing.T) {
	s := newSandbox(t)
	dir := filepath.Join(s.project, "bin")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, src := range map[string]string{"okay": "/bin/true", "deny": "/usr/bin/touch"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Skip(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	racer := filepath.Join(s.bin, "execrace")
	if out, err := exec.Command("gcc", "-O2", "-pthread", "-o", racer, "testdata/execrace.c").CombinedOutput(); err != nil {
		t.Fatalf("compile execrace: %v: %s", err, out)
	}
	s.execRoots = []string{s.project}
	s.policy.ExecDeny = []string{filepath.Join(dir, "deny")}
	marker := filepath.Join(s.project, "denied-ran")
	got := s.run(t, racer, dir, marker, "400")
	t.Log(strings.TrimSpace(got.stdout), strings.TrimSpace(got.stderr))
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("the denied binary ran: %s exists", marker)
	}
	kills := 0
	for _, ev := range s.events.find(filepath.Join(dir, "deny")) {
		if ev.Op == OpExecMismatch {
			kills++
			if ev.Result != "killed" || ev.Decision.Rule.Pattern != filepath.Join(dir, "okay") {
				t.Errorf("exec_mismatch event %+v: want killed, decided okay", ev)
			}
		}
	}
	if !strings.Contains(got.stdout, "killed=") {
		t.Fatalf("racer: exit %d, stdout %q", got.code, got.stdout)
	}
	if strings.Contains(got.stdout, "killed=0 ") {
		t.Skip("the race was never won on this machine: nothing shown")
	}
	if kills == 0 {
		t.Errorf("images were killed but no exec_mismatch was recorded")
	}
}
