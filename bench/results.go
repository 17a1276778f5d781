package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Results is the JSON form of a run (`aixbroker bench --json`): the raw
// latencies the chart (bench/chart) is drawn from.
type Results struct {
	Started time.Time         `json:"started"`
	Rounds  int               `json:"rounds"`
	LoadAvg [2]string         `json:"loadavg"`
	Sides   []string          `json:"sides"` // the sides that ran, in order
	Skipped map[string]string `json:"skipped,omitempty"`
	Micro   []OpLatencies     `json:"micro"` // in the order of the operations
}

// OpLatencies is one micro operation's latencies, in µs, by side, every
// round's together.
type OpLatencies struct {
	Op        string               `json:"op"`
	Latencies map[string][]float64 `json:"latencies"`
}

// Results extracts the JSON form of s.
func (s *Samples) Results() Results {
	res := Results{Started: s.Started, Rounds: s.Rounds, LoadAvg: s.LoadAvg}
	for _, side := range s.Sides {
		if side.Skip != "" {
			if res.Skipped == nil {
				res.Skipped = map[string]string{}
			}
			res.Skipped[side.Name] = side.Skip
			continue
		}
		res.Sides = append(res.Sides, side.Name)
	}
	for _, op := range microOps {
		o := OpLatencies{Op: op.Name, Latencies: map[string][]float64{}}
		for _, side := range res.Sides {
			var all []float64
			for _, round := range s.Micro[op.Name][side] {
				all = append(all, round...)
			}
			if len(all) > 0 {
				o.Latencies[side] = all
			}
		}
		res.Micro = append(res.Micro, o)
	}
	return res
}

// WriteResults writes s's Results as JSON to path.
func WriteResults(path string, s *Samples) error {
	b, err := json.Marshal(s.Results())
	if err != nil {
		return fmt.Errorf("encode results: %w", err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReadResults reads what WriteResults wrote.
func ReadResults(path string) (Results, error) {
	var res Results
	b, err := os.ReadFile(path)
	if err != nil {
		return res, fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(b, &res); err != nil {
		return res, fmt.Errorf("decode %s: %w", path, err)
	}
	return res, nil
}
