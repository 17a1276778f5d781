package chart

import (
	"bytes"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"testing"
	"time"

	"github.com/aixbroker/aixbroker/bench"
)

// lognormal returns n latencies around median µs with a long tail.
func lognormal(rng *rand.Rand, n int, median float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = median * math.Exp(0.4*rng.NormFloat64())
	}
	return v
}

func sample() bench.Results {
	rng := rand.New(rand.NewPCG(1, 2))
	sides := []string{"native", "aixbroker", "aixbroker+interposer", "bubblewrap", "go-fuse"}
	medians := map[string]float64{"native": 4, "aixbroker": 15, "aixbroker+interposer": 16, "bubblewrap": 4, "go-fuse": 120}
	res := bench.Results{Started: time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC), Rounds: 3, LoadAvg: [2]string{"1.0 1.0 1.0", "2.0 2.0 2.0"}, Sides: sides}
	for k, op := range []string{"open+read+close", "stat", "readdir 10k", "exec /bin/true", "rename", "create+unlink"} {
		o := bench.OpLatencies{Op: op, Latencies: map[string][]float64{}}
		for _, s := range sides {
			o.Latencies[s] = lognormal(rng, 500, medians[s]*float64(k+1))
		}
		res.Micro = append(res.Micro, o)
	}
	return res
}

func TestDraw(t *testing.T) {
	full := sample()
	partial := sample()
	partial.Micro = partial.Micro[:2]
	delete(partial.Micro[1].Latencies, "go-fuse")
	zeros := sample()
	zeros.Micro[0].Latencies["native"][0] = 0 // a log scale has no zero
	empty := sample()
	for i := range empty.Micro {
		empty.Micro[i].Latencies = nil
	}
	tests := []struct {
		name    string
		res     bench.Results
		wantErr bool
	}{
		{"six operations, five sides", full, false},
		{"two operations, a side missing in one", partial, false},
		{"a zero latency", zeros, false},
		{"no latencies", empty, true},
		{"no operations", bench.Results{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Draw(tt.res, &buf)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Draw: err %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			cfg, err := png.DecodeConfig(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatalf("decode the PNG: %v", err)
			}
			if wantW, wantH := int(width.Dots(96)), int(height.Dots(96)); cfg.Width != wantW || cfg.Height != wantH {
				t.Errorf("PNG is %d×%d, want %d×%d", cfg.Width, cfg.Height, wantW, wantH)
			}
			if out := os.Getenv("CHART_OUT"); out != "" && tt.name == tests[0].name {
				if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestDurationLabel(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0.1, "0.1 µs"},
		{1, "1 µs"},
		{100, "100 µs"},
		{1000, "1 ms"},
		{100000, "100 ms"},
		{1e6, "1 s"},
		{1e7, "10 s"},
	}
	for _, tt := range tests {
		if got := durationLabel(tt.v); got != tt.want {
			t.Errorf("durationLabel(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	tests := []struct {
		v    []float64
		q    float64
		want float64
	}{
		{[]float64{5, 1, 3, 2, 4}, 50, 3},
		{[]float64{5, 1, 3, 2, 4}, 100, 5},
		{[]float64{5, 1, 3, 2, 4}, 0, 1},
		{[]float64{7}, 99, 7},
	}
	for _, tt := range tests {
		if got := percentile(tt.v, tt.q); got != tt.want {
			t.Errorf("percentile(%v, %v) = %v, want %v", tt.v, tt.q, got, tt.want)
		}
	}
}
