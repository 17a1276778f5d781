package notify

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// openbenchFiles is how many distinct files one openbench run opens.
const openbenchFiles = 2000

// BenchmarkOpenReadClose runs testdata/openbench natively and in the
// sandbox on the same files, and reports the median and 99th percentile of
// one open+read+close, and what the sandbox adds, in microseconds. The
// "path" case opens with O_PATH and reads nothing: the broker's shortest
// path for a trapped open.
func BenchmarkOpenReadClose(b *testing.B) {
	for _, mode := range []string{"read", "path"} {
		b.Run(mode, func(b *testing.B) { benchOpen(b, mode) })
	}
}

func benchOpen(b *testing.B, mode string) {
	bin := filepath.Join(cprogs(b), "openbench")
	s := newSandbox(b)
	s.execRoots = []string{filepath.Dir(bin)}
	dir := filepath.Join(s.project, "files")
	if err := os.Mkdir(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range openbenchFiles {
		writeFile(b, filepath.Join(dir, "f"+strconv.Itoa(i)), "small file\n")
	}
	args := []string{dir, strconv.Itoa(openbenchFiles), mode}
	var native, boxed [2]float64
	for b.Loop() {
		out, err := exec.Command(bin, args...).Output()
		if err != nil {
			b.Fatal(err)
		}
		native = percentiles(b, string(out))
		got := s.run(b, append([]string{bin}, args...)...)
		if got.code != 0 {
			b.Fatalf("sandboxed openbench: exit %d: %s", got.code, got.stderr)
		}
		boxed = percentiles(b, got.stdout)
	}
	b.ReportMetric(native[0], "native-p50-µs")
	b.ReportMetric(native[1], "native-p99-µs")
	b.ReportMetric(boxed[0], "sandbox-p50-µs")
	b.ReportMetric(boxed[1], "sandbox-p99-µs")
	b.ReportMetric(boxed[0]-native[0], "added-p50-µs")
}

// BenchmarkNotifyFloor reports the round trip of a trapped syscall that a
// supervisor written in C answers at once (testdata/notifyfloor.c): the
// least any seccomp broker can add per trapped call on this machine, to
// read the figures above against.
func BenchmarkNotifyFloor(b *testing.B) {
	bin := filepath.Join(cprogs(b), "notifyfloor")
	var floor [2]float64
	for b.Loop() {
		out, err := exec.Command(bin, "20000").Output()
		if err != nil {
			b.Fatal(err)
		}
		floor = percentiles(b, string(out))
	}
	b.ReportMetric(floor[0], "p50-µs")
	b.ReportMetric(floor[1], "p99-µs")
}

func percentiles(b testing.TB, out string) [2]float64 {
	var p50, p99 float64
	if _, err := fmt.Sscanf(out, "p50=%g p99=%g", &p50, &p99); err != nil {
		b.Fatalf("parse %q: %v", out, err)
	}
	return [2]float64{p50 / 1000, p99 / 1000}
}

// BenchmarkStartup compares starting /bin/true in the sandbox (re-exec,
// Landlock, filter, hand-over, brokered exec, teardown) with starting it
// natively, in milliseconds per start.
func BenchmarkStartup(b *testing.B) {
	s := newSandbox(b)
	var native, boxed time.Duration
	for b.Loop() {
		start := time.Now()
		if err := exec.Command("/bin/true").Run(); err != nil {
			b.Fatal(err)
		}
		native += time.Since(start)
		start = time.Now()
		if got := s.run(b, "/bin/true"); got.code != 0 {
			b.Fatalf("sandboxed true: exit %d", got.code)
		}
		boxed += time.Since(start)
	}
	b.ReportMetric(float64(native.Microseconds())/1000/float64(b.N), "native-ms/start")
	b.ReportMetric(float64(boxed.Microseconds())/1000/float64(b.N), "sandbox-ms/start")
}
