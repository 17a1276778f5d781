package policy

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchPolicy writes a policy with n filesystem rules of the shapes real
// policies use: trees, anchored-anywhere names, prefixes with wildcards.
func benchPolicy(n int) string {
	var deny, redact, write, read []string
	for i := 0; len(deny)+len(redact)+len(write)+len(read) < n; i++ {
		switch i % 20 {
		case 0:
			deny = append(deny, fmt.Sprintf("~/.secret%d/**", i))
		case 1:
			deny = append(deny, fmt.Sprintf("/srv/data%d/**/*.key", i))
		case 2, 3:
			redact = append(redact, fmt.Sprintf("**/*.ext%d", i))
		case 4, 5, 6, 7, 8:
			write = append(write, fmt.Sprintf("${PROJECT}/mod%d/**", i))
		case 9, 10:
			write = append(write, fmt.Sprintf("${TMPDIR}/job%d-*/**", i))
		case 11, 12, 13, 14, 15:
			read = append(read, fmt.Sprintf("/opt/tool%d/**", i))
		default:
			read = append(read, fmt.Sprintf("~/.config/app%d/*.json", i))
		}
	}
	list := func(items []string) string { return "['" + strings.Join(items, "', '") + "']" }
	return "profile: bench\nfilesystem:\n  allow_read: " + list(read) + "\n  allow_write: " + list(write) +
		"\n  redact: " + list(redact) + "\n  deny: " + list(deny) + "\n"
}

// benchPaths are canonical paths that hit every list and the default.
func benchPaths() []string {
	var out []string
	for i := range 256 {
		switch i % 8 {
		case 0:
			out = append(out, fmt.Sprintf("/home/u/proj/mod%d/src/pkg/file%d.go", 20*(i%10)+4+i%5, i))
		case 1:
			out = append(out, fmt.Sprintf("/home/u/proj/mod%d/a/b/c/d/x.ext%d", 20*(i%10)+5, 20*(i%10)+2))
		case 2:
			out = append(out, fmt.Sprintf("/opt/tool%d/lib/x/y/lib%d.so", 20*(i%10)+11+i%5, i))
		case 3:
			out = append(out, fmt.Sprintf("/home/u/.config/app%d/settings.json", 20*(i%10)+16+i%4))
		case 4:
			out = append(out, fmt.Sprintf("/home/u/.secret%d/id_rsa", 20*(i%10)))
		case 5:
			out = append(out, fmt.Sprintf("/usr/lib/python3/dist-packages/m%d/__init__.py", i))
		case 6:
			out = append(out, fmt.Sprintf("/tmp/u/job%d-1/out/o%d", 20*(i%10)+9, i))
		default:
			out = append(out, fmt.Sprintf("/home/u/other/project/deep/path/n%d", i))
		}
	}
	return out
}

func TestBenchPolicyHas200Rules(t *testing.T) {
	e := mustCompile(t, benchPolicy(200))
	if n := len(e.Rules()); n != 200 {
		t.Errorf("bench policy has %d rules, want 200", n)
	}
	seen := map[Action]int{}
	for _, p := range benchPaths() {
		seen[e.Decide(OpRead, p).Action]++
	}
	if seen[Allow] < 100 || seen[Deny] < 64 || seen[Redact] < 32 {
		t.Errorf("bench paths do not exercise every outcome: %v", seen)
	}
}

// BenchmarkDecide200Rules measures one decision on a 200-rule policy:
// "cold" bypasses the cache (the full evaluation), "cached" is a repeated
// (op, path).
func BenchmarkDecide200Rules(b *testing.B) {
	e := mustCompile(b, benchPolicy(200))
	paths := benchPaths()
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e.decide(OpRead, paths[i%len(paths)])
		}
	})
	b.Run("cold-each", func(b *testing.B) {
		// Each decision timed on its own (the clock's cost included), to
		// report the median and the 99th percentile rather than the mean.
		var samples []time.Duration
		for i := 0; b.Loop(); i++ {
			start := time.Now()
			e.decide(OpRead, paths[i%len(paths)])
			samples = append(samples, time.Since(start))
		}
		slices.Sort(samples)
		b.ReportMetric(float64(samples[len(samples)/2].Nanoseconds()), "p50-ns")
		b.ReportMetric(float64(samples[len(samples)*99/100].Nanoseconds()), "p99-ns")
	})
	b.Run("cached", func(b *testing.B) {
		for _, p := range paths {
			e.Decide(OpRead, p)
		}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			e.Decide(OpRead, paths[i%len(paths)])
		}
	})
	b.Run("cached-parallel", func(b *testing.B) {
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for i := 0; pb.Next(); i++ {
				e.Decide(OpRead, paths[i%len(paths)])
			}
		})
	})
}

// BenchmarkDecideProfile is a decision under the claude-code profile.
func BenchmarkDecideProfile(b *testing.B) {
	p, err := LoadProfile("claude-code")
	if err != nil {
		b.Fatal(err)
	}
	e, err := Compile(p, testVars)
	if err != nil {
		b.Fatal(err)
	}
	paths := []string{"/home/u/proj/src/main.go", "/usr/lib/x86_64-linux-gnu/libc.so.6", "/home/u/.ssh/id_rsa", "/home/u/proj/.env", "/home/u/other/x", "/proc/12/status"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.decide(OpRead, paths[i%len(paths)])
	}
}

func BenchmarkCompileProfile(b *testing.B) {
	p, err := LoadProfile("claude-code")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Compile(p, testVars); err != nil {
			b.Fatal(err)
		}
	}
}
