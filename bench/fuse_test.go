package bench

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestFuseGoal(t *testing.T) {
	rounds := func(v ...float64) [][]float64 { return [][]float64{v, v, v} }
	sides := []Side{{Name: "native"}, {Name: "aixbroker"}, {Name: fuseName}}
	tests := []struct {
		name      string
		micro     map[string]map[string][][]float64
		macro     map[string]map[string][]float64
		want      string
		wantInFig string
	}{
		{
			name: "faster everywhere",
			micro: map[string]map[string][][]float64{
				"open+read+close": {"native": rounds(4), "aixbroker": rounds(14), fuseName: rounds(120)},
				"stat":            {"native": rounds(2), "aixbroker": rounds(2), fuseName: rounds(30)},
			},
			macro: map[string]map[string][]float64{"grep -r (20k files)": {"native": {1, 1, 1}, "aixbroker": {1.5, 1.5, 1.5}, fuseName: {19, 19, 19}}},
			want:  "met", wantInFig: "all 3",
		},
		{
			name: "slower on stat",
			micro: map[string]map[string][][]float64{
				"open+read+close": {"native": rounds(4), "aixbroker": rounds(14), fuseName: rounds(120)},
				"stat":            {"native": rounds(2), "aixbroker": rounds(40), fuseName: rounds(30)},
			},
			want: "not met", wantInFig: "stat 20.00× vs 15.00×",
		},
		{
			name: "no go-fuse figures: the recorded ones",
			micro: map[string]map[string][][]float64{
				"open+read+close": {"native": rounds(4), "aixbroker": rounds(14)},
			},
			macro: map[string]map[string][]float64{"grep -r (20k files)": {"native": {1, 1, 1}, "aixbroker": {2, 2, 2}}},
			want:  "met (vs recorded figures)", wantInFig: "+110 µs",
		},
		{name: "nothing measured", want: "not measured"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &Samples{Sides: sides, Micro: tt.micro, Macro: tt.macro,
				Startup: map[string][][]float64{}, RSS: map[string]int64{}, Read: map[string][]float64{}}
			g := Summarize(s).fuseGoal("aixbroker")
			if g.Met != tt.want || !strings.Contains(g.Figure, tt.wantInFig) {
				t.Errorf("fuseGoal = %q (%s), want %q containing %q", g.Met, g.Figure, tt.want, tt.wantInFig)
			}
		})
	}
}

func TestResultsRoundTrip(t *testing.T) {
	s := &Samples{
		Sides: []Side{{Name: "native"}, {Name: "aixbroker"}, {Name: fuseName, Skip: "not root"}},
		Micro: map[string]map[string][][]float64{
			"open+read+close": {"native": {{4, 5}, nil, {6}}, "aixbroker": {{14}, {15}}},
		},
		Rounds: 3,
	}
	path := filepath.Join(t.TempDir(), "results.json")
	if err := WriteResults(path, s); err != nil {
		t.Fatal(err)
	}
	res, err := ReadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(res.Sides, ","), "native,aixbroker"; got != want {
		t.Errorf("sides %q, want %q", got, want)
	}
	if got := res.Skipped[fuseName]; got != "not root" {
		t.Errorf("skipped go-fuse: %q, want %q", got, "not root")
	}
	if len(res.Micro) != len(microOps) {
		t.Fatalf("%d operations, want %d", len(res.Micro), len(microOps))
	}
	tests := []struct {
		side string
		want int
	}{
		{"native", 3}, // a failed round (nil) is left out
		{"aixbroker", 2},
		{fuseName, 0},
	}
	for _, tt := range tests {
		if got := len(res.Micro[0].Latencies[tt.side]); got != tt.want {
			t.Errorf("open+read+close on %s: %d latencies, want %d", tt.side, got, tt.want)
		}
	}
	if _, err := ReadResults(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("ReadResults of a missing file: no error")
	}
}

func TestHelperExecProgram(t *testing.T) {
	bin, dir := testHelper(t)
	prog := filepath.Join(dir, fuseTrue)
	if err := copyTrue(prog); err != nil {
		t.Fatal(err)
	}
	if err := copyTrue(prog); err != nil { // already there
		t.Fatal(err)
	}
	tests := []struct {
		prog    string
		wantErr bool
	}{
		{"", false},
		{prog, false},
		{filepath.Join(dir, "missing"), true},
		{"/bin/false", true},
	}
	for _, tt := range tests {
		argv := []string{"exec", dir, "2"}
		if tt.prog != "" {
			argv = append(argv, tt.prog)
		}
		out, err := exec.Command(bin, argv...).Output()
		if (err != nil) != tt.wantErr {
			t.Errorf("exec %q: err %v, want error %v", tt.prog, err, tt.wantErr)
			continue
		}
		if v, _ := parseNumbers(string(out), 1); !tt.wantErr && len(v) != 2 {
			t.Errorf("exec %q: %d figures, want 2", tt.prog, len(v))
		}
	}
	if fi, err := os.Stat(prog); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("copy of /bin/true: %v, mode %v; want executable", err, fi)
	}
}
