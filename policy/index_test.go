package policy

import "testing"

// TestIndexAgreesWithBruteForce compares the indexed search with trying
// every rule in precedence order, on every built-in profile and the
// benchmark policy.
func TestIndexAgreesWithBruteForce(t *testing.T) {
	engines := map[string]*Engine{"bench": mustCompile(t, benchPolicy(200))}
	for _, name := range ProfileNames() {
		engines[name] = compileProfile(t, name)
	}
	paths := append(benchPaths(), "/", "/home", "/home/u", "/home/u/proj", "/home/u/proj/.env", "/home/u/proj/a/.env.local",
		"/home/u/proj/k.pem", "/home/u/.ssh/id_rsa", "/home/u/.ssh/config", "/home/u/.claude.json.tmp.1", "/proc/1/environ",
		"/proc/1/task/2/environ", "/etc/ssh/ssh_host_ed25519_key", "/home/u/.cache/google-chrome/x", "/x.key", "/.pem", "/a/b.tar.pem")
	for name, e := range engines {
		for _, p := range paths {
			want := -1
			for i := range e.rules {
				if e.rules[i].m.match(p) {
					want = i
					break
				}
			}
			if got := e.best(p); got != want {
				t.Errorf("%s: best(%s) = %d, brute force %d", name, p, got, want)
			}
		}
	}
}
