package bench

import (
	"math"
	"slices"
)

// percentile is the p-th percentile (0–100) of v by nearest rank, NaNs
// (failed rounds) left out; NaN for no data.
func percentile(v []float64, p float64) float64 {
	s := valid(v)
	if len(s) == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	i := int(math.Ceil(p/100*float64(len(s)))) - 1
	return s[max(0, min(i, len(s)-1))]
}

func median(v []float64) float64 { return percentile(v, 50) }

// valid is a copy of v without NaNs.
func valid(v []float64) []float64 {
	out := make([]float64, 0, len(v))
	for _, x := range v {
		if !math.IsNaN(x) {
			out = append(out, x)
		}
	}
	return out
}

// spread is the smallest and largest of v, NaNs left out.
func spread(v []float64) (lo, hi float64) {
	v = valid(v)
	if len(v) == 0 {
		return math.NaN(), math.NaN()
	}
	return slices.Min(v), slices.Max(v)
}

// perRound applies f to each round's samples.
func perRound(rounds [][]float64, f func([]float64) float64) []float64 {
	out := make([]float64, len(rounds))
	for i, r := range rounds {
		out[i] = f(r)
	}
	return out
}

// paired combines two sides' per-round figures round by round (the rounds
// both have), so that a change of load between rounds cancels out.
func paired(a, b []float64, f func(x, y float64) float64) []float64 {
	n := min(len(a), len(b))
	out := make([]float64, n)
	for i := range n {
		out[i] = f(a[i], b[i])
	}
	return out
}

func diff(x, y float64) float64  { return x - y }
func ratio(x, y float64) float64 { return x / y }
