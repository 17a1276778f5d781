package policy

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "severity:line:substring", in order
	}{
		{"clean", "profile: x\nfilesystem:\n  allow_write: ['${PROJECT}/**', '${TMPDIR}/**']\n", nil},
		{"read everything", "profile: x\nfilesystem:\n  allow_read: [/**]\n", []string{"error:3:the whole filesystem"}},
		{"read root", "profile: x\nfilesystem:\n  allow_read: [/]\n", []string{"error:3:the whole filesystem"}},
		{"relative everything", "profile: x\nfilesystem:\n  allow_read: ['**']\n", []string{"error:3:the whole filesystem"}},
		{"write home", "profile: x\nfilesystem:\n  allow_write:\n    - ~/**\n", []string{"error:4:the whole home directory"}},
		{"read home", "profile: x\nfilesystem:\n  allow_read: ['~', '${HOME}/**']\n", []string{"error:3:the whole home directory", "error:3:the whole home directory"}},
		{"stray write", "profile: x\nfilesystem:\n  allow_write: [/etc/**, ~/.bashrc, ~/.claude/**]\n", []string{"warning:3:allows writing outside", "warning:3:allows writing outside"}},
		{"dotdot", "profile: x\nfilesystem:\n  deny: [../x]\n", []string{"warning:3:can never match"}},
		{"shadowed", "profile: x\nfilesystem:\n  allow_read: [/a/**]\n  deny: [/a/**]\n", []string{"warning:3:never takes effect"}},
		{"default allow", "profile: x\ndefault: allow\n", []string{"warning:2:default: allow"}},
		{"tests pass", "profile: x\nfilesystem:\n  deny: [~/.ssh/**]\ntests:\n  - {path: ~/.ssh/id_rsa, want: deny}\n  - {path: main.go, op: write, want: deny}\n", nil},
		{"test fails", "profile: x\nfilesystem:\n  allow_read: ['${PROJECT}/**']\ntests:\n  - {path: main.go, want: deny}\n", []string{"error:5:test failed: read /home/u/proj/main.go: want deny, got allow by allow_read:${PROJECT}/** at t.yaml:3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse("t.yaml", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			p.Chain = append(p.Chain, "builtin:generic") // as if it extended generic; see TestCheckWantsGeneric
			got := Check(p, testVars)
			if len(got) != len(tt.want) {
				t.Fatalf("Check = %v, want %d findings %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				parts := strings.SplitN(w, ":", 3)
				f := got[i]
				if string(f.Severity) != parts[0] || f.Source.Line != atoi(parts[1]) || !strings.Contains(f.Message, parts[2]) {
					t.Errorf("finding %d = %s, want %s", i, f, w)
				}
			}
		})
	}
}

func TestCheckReportsCompileErrors(t *testing.T) {
	p, err := Parse("t.yaml", []byte("profile: x\nfilesystem:\n  allow_read: ['${PROJECT}/**']\n  deny: ['${TMPDIR}/x']\n"))
	if err != nil {
		t.Fatal(err)
	}
	got := Check(p, Vars{Home: "/h"})
	if len(got) != 2 || got[0].Severity != SeverityError || got[0].Source.Line != 3 || got[1].Source.Line != 4 {
		t.Errorf("Check without PROJECT and TMPDIR = %v, want two errors at lines 3 and 4", got)
	}
}

func TestCheckWantsGeneric(t *testing.T) {
	tests := []struct {
		extends string
		want    int
	}{
		{"", 1},
		{"codex", 0},
		{"defaults/generic", 0},
	}
	for _, tt := range tests {
		src := "profile: x\n"
		if tt.extends != "" {
			src += "extends: " + tt.extends + "\n"
		}
		dir := writeFiles(t, map[string]string{"p.yaml": src})
		p, err := LoadFile(dir+"/p.yaml", "")
		if err != nil {
			t.Fatal(err)
		}
		var got int
		for _, f := range Check(p, testVars) {
			if strings.Contains(f.Message, "does not extend generic") {
				got++
			}
		}
		if got != tt.want {
			t.Errorf("extends %q: %d generic warnings, want %d", tt.extends, got, tt.want)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}
