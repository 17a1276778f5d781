package bench

import (
	"math"
	"testing"
)

func TestPercentile(t *testing.T) {
	v := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	tests := []struct {
		p    float64
		want float64
	}{
		{p: 50, want: 5},
		{p: 90, want: 9},
		{p: 99, want: 10},
		{p: 100, want: 10},
		{p: 0, want: 1},
	}
	for _, tt := range tests {
		if got := percentile(v, tt.p); got != tt.want {
			t.Errorf("percentile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if got := percentile(nil, 50); !math.IsNaN(got) {
		t.Errorf("percentile(nil) = %v, want NaN", got)
	}
}

func TestPaired(t *testing.T) {
	tests := []struct {
		name string
		a, b []float64
		want []float64
	}{
		{name: "equal lengths", a: []float64{4, 6}, b: []float64{2, 3}, want: []float64{2, 2}},
		{name: "a shorter", a: []float64{4}, b: []float64{2, 3}, want: []float64{2}},
		{name: "empty", a: nil, b: []float64{1}, want: []float64{}},
	}
	for _, tt := range tests {
		got := paired(tt.a, tt.b, ratio)
		if len(got) != len(tt.want) {
			t.Fatalf("%s: got %v, want %v", tt.name, got, tt.want)
		}
		for i := range got {
			if got[i] != tt.want[i] {
				t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
			}
		}
	}
}

func TestFailedRoundsLeftOut(t *testing.T) {
	side := []float64{2, math.NaN(), 9}
	native := []float64{1, 1, 3}
	if got, want := median(paired(side, native, ratio)), 2.0; got != want {
		t.Errorf("median ratio = %v, want %v (round 2 failed, rounds 1 and 3 paired with their own native runs)", got, want)
	}
	if lo, hi := spread(side); lo != 2 || hi != 9 {
		t.Errorf("spread = %v–%v, want 2–9", lo, hi)
	}
}
