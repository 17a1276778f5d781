package notify

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestRaiseOwnLimits: soft limits lowered before the supervisor started (a
// parent's `ulimit -S`) are raised back to the hard limits, so a file size
// limit cannot blind the audit nor a CPU limit kill the supervisor early.
func TestRaiseOwnLimits(t *testing.T) {
	cases := []struct {
		name string
		res  int
		low  uint64
	}{
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, 0},
		{"RLIMIT_CPU", unix.RLIMIT_CPU, 100000},
		{"RLIMIT_DATA", unix.RLIMIT_DATA, 1 << 40},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var orig unix.Rlimit
			if err := unix.Getrlimit(c.res, &orig); err != nil {
				t.Fatal(err)
			}
			defer unix.Setrlimit(c.res, &orig)
			if orig.Max != unix.RLIM_INFINITY && orig.Max <= c.low {
				t.Skipf("hard limit %d already below the test's %d", orig.Max, c.low)
			}
			if err := unix.Setrlimit(c.res, &unix.Rlimit{Cur: c.low, Max: orig.Max}); err != nil {
				t.Fatal(err)
			}
			if err := raiseOwnLimits(); err != nil {
				t.Fatalf("raise own limits: %v", err)
			}
			var got unix.Rlimit
			unix.Getrlimit(c.res, &got)
			if got.Cur != orig.Max {
				t.Errorf("soft limit %d after raiseOwnLimits, want the hard limit %d", got.Cur, orig.Max)
			}
		})
	}
}
