package interposer

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/aixbroker/aixbroker/policy"
)

// TestGlobAgreesWithDoublestar checks the C matcher against doublestar,
// the policy's own matcher, on patterns of every shape the policy allows.
func TestGlobAgreesWithDoublestar(t *testing.T) {
	patterns := []string{
		"/home/u/.ssh/id_*", "/home/u/.ssh/**", "/**/.env", "/**/.env.*", "/home/u/p/**",
		"/etc/ssh/ssh_host_*_key", "/a/{b,c}/d", "/a/{b,c/d}/e", "/a/{b,{c,d}}/x", "/a/[a-c]?", "/a/[!a]b",
		"/a/**/b/**/c", "/a/x**y", "/**", "/a/\\*b", "/a/*/b", "/a/**/*.pem", "/a/b*c*d",
	}
	paths := []string{
		"/", "/a", "/a/b", "/a/b/d", "/a/c/d", "/a/d/d", "/a/c/d/e", "/a/b/e", "/a/d/x", "/a/ab", "/a/bb",
		"/a/b/c", "/a/x/b/y/c", "/a/b/b/c", "/a/xy", "/a/xzzy", "/a/*b", "/a/zb", "/a/q/b", "/a/q/r/b",
		"/a/k.pem", "/a/q/r/k.pem", "/a/bcd", "/a/bxcyd", "/home/u/.ssh", "/home/u/.ssh/id_rsa",
		"/home/u/.ssh/known_hosts", "/home/u/p/.env", "/.env", "/home/u/p/.env.local", "/home/u/p",
		"/home/u/px", "/etc/ssh/ssh_host_rsa_key", "/etc/ssh/ssh_host_key", "/a/a", "/a/ca",
	}
	var in strings.Builder
	var want []string
	for _, p := range patterns {
		for _, s := range paths {
			fmt.Fprintf(&in, "%s\t%s\n", p, s)
			ok, err := doublestar.Match(p, s)
			want = append(want, fmt.Sprint(map[bool]int{true: 1, false: 0}[ok && err == nil]))
		}
	}
	got := runDriver(t, driver(t), in.String(), "glob")
	for i, w := range want {
		p, s := patterns[i/len(paths)], paths[i%len(paths)]
		if got[i] != w {
			t.Errorf("match(%q, %q) = %s, doublestar says %s", p, s, got[i], w)
		}
	}
}

// samples derives paths a glob matches, and near misses, so every rule of
// a profile is exercised.
func samples(glob string) []string {
	r := strings.NewReplacer("/**/", "/a/b/", "**", "x/y", "*", "zz", "?", "q", "[", "", "]", "", "\\", "")
	g := glob
	if i := strings.Index(g, "{"); i >= 0 {
		if j := strings.Index(g[i:], "}"); j > 0 {
			alt, _, _ := strings.Cut(g[i+1:i+j], ",")
			g = g[:i] + alt + g[i+j+1:]
		}
	}
	p := r.Replace(g)
	return []string{p, p + "x", p + "/child", strings.TrimSuffix(p, "/zz")}
}

// TestSnapshotAgreesWithEngine is the contract of the library: for stat
// and read, the snapshot decides every path as policy.Engine.Decide does.
func TestSnapshotAgreesWithEngine(t *testing.T) {
	bin := driver(t)
	fixed := []string{
		"/", "/home", "/home/u", "/home/u/p", "/home/u/p/main.go", "/home/u/p/.env", "/home/u/p/sub/.env",
		"/home/u/p/.env.local", "/home/u/.ssh", "/home/u/.ssh/id_rsa", "/home/u/.ssh/id_ed25519.pub",
		"/home/u/.ssh/known_hosts", "/home/u/.ssh/config", "/home/u/.aws/credentials", "/etc/passwd",
		"/etc/shadow", "/usr/bin/git", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/tmp/x", "/proc/self/status",
		"/dev/null", "/home/u/.gitconfig", "/home/u/other/.env", "/home/u/.npmrc", "/root",
	}
	for _, profile := range policy.ProfileNames() {
		t.Run(profile, func(t *testing.T) {
			e := engine(t, profile)
			paths := append([]string{}, fixed...)
			for _, r := range e.Rules() {
				paths = append(paths, samples(r.Glob)...)
			}
			var in strings.Builder
			var want []string
			for _, p := range paths {
				for _, op := range []policy.Op{policy.OpStat, policy.OpRead} {
					fmt.Fprintf(&in, "%s %s\n", op, p)
					d := e.Decide(op, p)
					switch d.Action {
					case policy.Deny:
						want = append(want, "deny "+string(d.Errno))
					default:
						want = append(want, string(d.Action))
					}
				}
			}
			got := runDriver(t, bin, in.String(), "decide", helloFile(t, e))
			if len(got) != len(want) {
				t.Fatalf("driver answered %d lines, want %d: %v", len(got), len(want), got[:min(len(got), 3)])
			}
			for i, w := range want {
				if got[i] != w {
					t.Errorf("%s %s: library says %q, engine %q", []policy.Op{policy.OpStat, policy.OpRead}[i%2], paths[i/2], got[i], w)
				}
			}
		})
	}
}
