package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

func TestSummarizeGoals(t *testing.T) {
	rounds := func(v ...float64) [][]float64 { return [][]float64{v, v, v} }
	s := &Samples{
		Sides: []Side{{Name: "native"}, {Name: "aixbroker"}},
		Micro: map[string]map[string][][]float64{
			"open+read+close": {"native": rounds(4, 4, 5), "aixbroker": rounds(12, 12, 50)},
			"stat":            {"native": rounds(2, 2, 2), "aixbroker": rounds(3, 3, 3)},
		},
		Macro: map[string]map[string][]float64{
			"git status (20k files)": {"native": {1, 1, 1}, "aixbroker": {1.2, 1.4, 1.3}},
		},
		Startup: map[string][][]float64{"native": rounds(5), "aixbroker": rounds(40)},
		RSS:     map[string]int64{"aixbroker": 20 * 1024},
		Read:    map[string][]float64{"native": {100, 100, 100}, "aixbroker": {99, 98, 100}},
	}
	r := Summarize(s)
	want := map[string]string{
		"open+read+close p50 added ≤ 10 µs":  "met",
		"open+read+close p99 added ≤ 40 µs":  "not met", // 50 - 5 added
		"stat ≤ 1.2× native":                 "not met",
		"git status ≤ 1.5× native":           "met",
		"go build ≤ 1.15× native":            "not measured",
		"startup added ≤ 20 ms":              "not met",
		"broker peak RSS ≤ 40 MB":            "met",
		"sequential read = native (≥ 0.95×)": "met",
		"exec added ≤ 1 ms":                  "not measured",
	}
	got := map[string]string{}
	for _, g := range r.Goals {
		got[g.What] = g.Met
	}
	for what, w := range want {
		if got[what] != w {
			t.Errorf("goal %q: got %q, want %q", what, got[what], w)
		}
	}
}

// testHelper builds the timing helper into a temporary directory.
func testHelper(t *testing.T) (bin, dir string) {
	t.Helper()
	if _, err := exec.LookPath("cc"); err != nil {
		t.Skip("no C compiler")
	}
	dir = t.TempDir()
	bin, err := BuildHelper(dir)
	if err != nil {
		t.Fatal(err)
	}
	return bin, dir
}

func TestHelperOps(t *testing.T) {
	bin, dir := testHelper(t)
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if err := os.WriteFile(filepath.Join(data, "f"+strconv.Itoa(i)), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		op, dir string
		n, want int
	}{
		{op: "open", dir: data, n: 5, want: 5},
		{op: "stat", dir: data, n: 5, want: 5},
		{op: "readdir", dir: data, n: 2, want: 2},
		{op: "rename", dir: data, n: 3, want: 3},
		{op: "create", dir: data, n: 3, want: 3},
		{op: "read", dir: filepath.Join(data, "f0"), n: 2, want: 2},
	}
	for _, tt := range tests {
		out, err := exec.Command(bin, tt.op, tt.dir, strconv.Itoa(tt.n)).Output()
		if err != nil {
			t.Fatalf("%s: %v", tt.op, err)
		}
		v, err := parseNumbers(string(out), 1)
		if err != nil || len(v) != tt.want {
			t.Errorf("%s: %d figures (%v), want %d", tt.op, len(v), err, tt.want)
		}
	}
	if err := exec.Command(bin, "open", data, "6").Run(); err == nil {
		t.Error("open of a missing file: no error, want exit 1")
	}
}
