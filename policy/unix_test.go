package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const unixPolicy = `profile: u
filesystem:
  allow_write: ['${PROJECT}/**', /run/user/1000/**]
  deny: [/run/user/1000/secret/**]
unix:
  connect:
    - /run/user/1000/pulse/native # the sound server
    - ~/.cache/sock/*.sock
    - /run/user/1000/secret/agent.sock
`

func TestDecideUnix(t *testing.T) {
	e := mustCompile(t, unixPolicy)
	open := mustCompile(t, "profile: o\ndefault: allow\nfilesystem:\n  deny: [/d/**]\n")
	dgram := mustCompile(t, "profile: g\nunix:\n  datagram: allow\n")
	openNoDgram := mustCompile(t, "profile: o\ndefault: allow\nunix:\n  datagram: deny\n")
	tests := []struct {
		name      string
		e         *Engine
		op        Op
		path      string
		want      Action
		wantErrno Errno
		wantRule  string
	}{
		{"listed socket", e, OpConnect, "/run/user/1000/pulse/native", Allow, "", "unix.connect:/run/user/1000/pulse/native"},
		{"listed by glob under ~", e, OpConnect, "/home/u/.cache/sock/a.sock", Allow, "", "unix.connect:~/.cache/sock/*.sock"},
		{"allow_write does not grant connect", e, OpConnect, "/run/user/1000/bus", Deny, EACCES, "unix.connect"},
		{"nor in the project", e, OpConnect, "/home/u/proj/docker.sock", Deny, EACCES, "unix.connect"},
		{"a filesystem deny beats unix.connect", e, OpConnect, "/run/user/1000/secret/agent.sock", Deny, EACCES, "deny:/run/user/1000/secret/**"},
		{"not canonical", e, OpConnect, "/run/user/1000/pulse/../bus", Deny, EACCES, "invalid-path"},
		{"datagram refused by default", e, OpDatagram, "/", Deny, EACCES, "unix.datagram:deny"},
		{"datagram allowed by the policy", dgram, OpDatagram, "/", Allow, "", "unix.datagram:allow"},
		{"default allow grants connect", open, OpConnect, "/run/docker.sock", Allow, "", "default:allow"},
		{"but not to a denied path", open, OpConnect, "/d/x.sock", Deny, EACCES, "deny:/d/**"},
		{"default allow grants datagram", open, OpDatagram, "/", Allow, "", "default:allow"},
		{"unless datagram says deny", openNoDgram, OpDatagram, "/", Deny, EACCES, "unix.datagram:deny"},
		{"connect does not change the file ops", e, OpWrite, "/run/user/1000/pulse/native", Allow, "", "allow_write:/run/user/1000/**"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 2 { // the second answer comes from the cache
				d := tt.e.Decide(tt.op, tt.path)
				if d.Action != tt.want || d.Errno != tt.wantErrno || d.Rule.ID() != tt.wantRule {
					t.Fatalf("Decide(%s, %s) = %s %s by %s, want %s %s by %s", tt.op, tt.path, d.Action, d.Errno, d.Rule.ID(), tt.want, tt.wantErrno, tt.wantRule)
				}
			}
		})
	}
}

func TestExplainConnect(t *testing.T) {
	e := mustCompile(t, unixPolicy)
	tests := []struct {
		path     string
		wantRule string
		wantWhy  map[string]string // beaten rule ID → start of Why
	}{
		{"/run/user/1000/bus", "unix.connect", map[string]string{"allow_write:/run/user/1000/**": "not applied: filesystem rules do not grant connect"}},
		{"/run/user/1000/secret/agent.sock", "deny:/run/user/1000/secret/**", map[string]string{
			"unix.connect:/run/user/1000/secret/agent.sock": "",
			"allow_write:/run/user/1000/**":                 "not applied: filesystem rules do not grant connect",
		}},
	}
	for _, tt := range tests {
		x := e.Explain(OpConnect, tt.path)
		if x.Decision.Rule.ID() != tt.wantRule {
			t.Errorf("Explain(connect, %s) by %s, want %s", tt.path, x.Decision.Rule.ID(), tt.wantRule)
		}
		got := map[string]string{}
		for _, r := range x.Beaten {
			got[r.ID()] = x.Why(r)
		}
		if len(got) != len(tt.wantWhy) {
			t.Errorf("Explain(connect, %s) beaten %v, want %v", tt.path, got, tt.wantWhy)
		}
		for id, want := range tt.wantWhy {
			if why, ok := got[id]; !ok || !strings.HasPrefix(why, want) || (want == "") != (why == "") {
				t.Errorf("Explain(connect, %s): beaten %s why %q, want %q", tt.path, id, why, want)
			}
		}
	}
}

func TestParseUnix(t *testing.T) {
	tests := []struct {
		name    string
		src     string
		wantErr string // "" for a valid file
	}{
		{"connect list and datagram", "profile: x\nunix:\n  connect: [/run/a.sock, '${HOME}/b.sock']\n  datagram: deny\n", ""},
		{"empty section", "profile: x\nunix:\n", ""},
		{"relative pattern", "profile: x\nunix:\n  connect: [agent.sock]\n", "must be an absolute path"},
		{"anchored anywhere", "profile: x\nunix:\n  connect: ['**/bus']\n", "must be an absolute path"},
		{"unknown key", "profile: x\nunix:\n  conect: [/a]\n", `unknown key "conect"`},
		{"bad datagram", "profile: x\nunix:\n  datagram: yes\n", "invalid value"},
		{"bad glob", "profile: x\nunix:\n  connect: ['/a/[b']\n", "invalid glob"},
		{"unknown variable", "profile: x\nunix:\n  connect: ['${XDG_RUNTIME_DIR}/bus']\n", "unknown variable"},
		{"not a list", "profile: x\nunix:\n  connect: {a: b}\n", "must be a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("Parse: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("Parse error %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestMergeUnix(t *testing.T) {
	parent, err := Parse("p.yaml", []byte("profile: p\nunix:\n  connect: [/a.sock, /b.sock]\n  datagram: allow\n"))
	if err != nil {
		t.Fatal(err)
	}
	child, err := Parse("c.yaml", []byte("profile: c\nunix:\n  connect: [/b.sock, /c.sock]\n  datagram: deny\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name         string
		parent       *Policy
		child        *Policy
		wantConnect  []string
		wantDatagram Action
	}{
		{"union, child's datagram wins", parent, child, []string{"/a.sock", "/b.sock", "/c.sock"}, Deny},
		{"unset datagram keeps the parent's", child, &Policy{Name: "e"}, []string{"/b.sock", "/c.sock"}, Deny},
		{"and the other way", parent, &Policy{Name: "e"}, []string{"/a.sock", "/b.sock"}, Allow},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Merge(tt.parent, tt.child)
			var got []string
			for _, r := range m.Unix.Connect {
				got = append(got, r.Pattern)
			}
			if strings.Join(got, " ") != strings.Join(tt.wantConnect, " ") || m.Unix.Datagram != tt.wantDatagram {
				t.Errorf("Merge: connect %q datagram %q, want %q %q", got, m.Unix.Datagram, tt.wantConnect, tt.wantDatagram)
			}
		})
	}
}

// TestProjectFileUnix: a project file may list sockets in unix.connect,
// but not allow datagrams for everything.
func TestProjectFileUnix(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		wantErr string
	}{
		{"connect entries", "profile: p\nunix:\n  connect: [/run/user/1000/pulse/native]\n", ""},
		{"datagram allow", "profile: p\nunix:\n  datagram: allow\n", "cannot set unix.datagram: allow"},
		{"datagram deny", "profile: p\nunix:\n  datagram: deny\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, ProjectFileName), []byte(tt.file), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := Resolve(ResolveOptions{ProjectDir: dir})
			if tt.wantErr != "" {
				var pe *Error
				if !errors.As(err, &pe) || !strings.Contains(pe.Msg, tt.wantErr) || pe.Line != 3 {
					t.Fatalf("Resolve: %v, want an error at line 3 containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.name == "connect entries" && len(p.Unix.Connect) != 1 {
				t.Errorf("Resolve kept connect %v, want the project's entry", p.Unix.Connect)
			}
		})
	}
}

func TestCheckUnix(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // substrings of the findings, in order
	}{
		{"narrow entry", "profile: x\nextends: generic\nunix:\n  connect: [/run/user/1000/pulse/native]\n", nil},
		{"everything", "profile: x\nextends: generic\nunix:\n  connect: ['/**']\n", []string{"reaches every socket under /"}},
		{"the home directory", "profile: x\nextends: generic\nunix:\n  connect: ['~/**/*.sock']\n", []string{"reaches every socket under /home/u/"}},
		{"datagram allow", "profile: x\nextends: generic\nunix:\n  datagram: allow\n", []string{"unix.datagram: allow lets the agent"}},
		{"the Docker socket, exactly", "profile: x\nextends: generic\nunix:\n  connect: [/var/run/docker.sock]\n", []string{"reaches the Docker daemon"}},
		{"the session bus", "profile: x\nextends: generic\nunix:\n  connect: ['/run/user/*/bus']\n", []string{"reaches a D-Bus bus"}},
		{"an ssh-agent", "profile: x\nextends: generic\nunix:\n  connect: ['/tmp/ssh-*/agent.*']\n", []string{"reaches an ssh-agent"}},
		{"a test of connect", "profile: x\nextends: generic\ntests:\n  - {path: /run/docker.sock, op: connect, want: deny}\n  - {path: /, op: datagram, want: deny}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "p.yaml")
			if err := os.WriteFile(path, []byte(tt.src), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := LoadFile(path, "")
			if err != nil {
				t.Fatal(err)
			}
			got := Check(p, testVars)
			if len(got) != len(tt.want) {
				t.Fatalf("Check = %v, want %d findings %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i].Message, w) {
					t.Errorf("finding %d = %q, want it to contain %q", i, got[i].Message, w)
				}
			}
		})
	}
}

// TestProfilesRefuseEscapeSockets: no built-in profile reaches the
// sockets that lead out of the sandbox, nor allows datagrams.
func TestProfilesRefuseEscapeSockets(t *testing.T) {
	escapes := []string{"/run/docker.sock", "/var/run/docker.sock", "/run/user/1000/bus", "/tmp/ssh-abc/agent.123",
		"/home/u/.gnupg/S.gpg-agent", "/run/user/1000/gnupg/S.gpg-agent", "/tmp/tmux-1000/default", "/run/user/1000/systemd/private"}
	for _, name := range wantProfiles {
		p, err := LoadProfile(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := Compile(p, testVars)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range escapes {
			if d := e.Decide(OpConnect, s); d.Allowed() {
				t.Errorf("%s: connect %s allowed by %s", name, s, d.Rule.ID())
			}
		}
		if d := e.Decide(OpDatagram, "/"); d.Allowed() {
			t.Errorf("%s: datagram allowed by %s", name, d.Rule.ID())
		}
	}
}
