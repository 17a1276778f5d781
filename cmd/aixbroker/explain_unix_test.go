package main

import "testing"

// TestExplainConnect: explain --op connect names unix.connect, and says
// that the allow rule matching a socket in the project does not grant it.
func TestExplainConnect(t *testing.T) {
	home := fakeHome(t)
	dir := canonicalProject(t, map[string]string{".aixgate.yaml": "profile: p\nunix:\n  connect: ['~/run/ok.sock'] # a test server\n"})
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"--op", "connect", dir + "/docker.sock"}, []string{": deny EACCES", "rule:   unix.connect", "allow_write ${PROJECT}/**", "filesystem rules do not grant connect"}},
		{[]string{"--op", "connect", home + "/run/ok.sock"}, []string{": allow", "the agent may connect to this socket", "unix.connect ~/run/ok.sock", "# a test server"}},
		{[]string{"--op", "datagram", "/"}, []string{": deny EACCES", "unix.datagram deny"}},
	}
	for _, tt := range tests {
		out, _, err := runCLI(t, append([]string{"policy", "explain", "--project", dir}, tt.args...)...)
		if err != nil {
			t.Fatalf("explain %v: %v", tt.args, err)
		}
		assertInOrder(t, out, tt.want)
	}
}
