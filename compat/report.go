package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Report is the matrix: which agent passed which scenario, and why not.
type Report struct {
	Generated string         `json:"generated"`
	Mode      string         `json:"mode"`
	Broker    string         `json:"broker,omitempty"`
	Host      string         `json:"host"`
	User      string         `json:"user"`
	Agents    []AgentInfo    `json:"agents"`
	Scenarios []ScenarioInfo `json:"scenarios"`
	Outcomes  []Outcome      `json:"outcomes"`
	Stats     []Stats        `json:"stats"`
}

// AgentInfo is one agent's column header.
type AgentInfo struct {
	Name    string `json:"name"`
	Package string `json:"package,omitempty"`
	Version string `json:"version,omitempty"`
	Profile string `json:"profile"`
	Missing string `json:"missing,omitempty"`
}

// ScenarioInfo is one scenario's row header.
type ScenarioInfo struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	Kind  Kind   `json:"kind"`
}

// Stats is one profile's false-positive rate and leak count.
type Stats struct {
	Agent       string  `json:"agent"`
	Profile     string  `json:"profile"`
	LegitCalls  int     `json:"legit_calls"`
	Refused     int     `json:"refused"`
	FPRate      float64 `json:"fp_rate"`
	AttacksHeld int     `json:"attacks_held"`
	Attacks     int     `json:"attacks"`
	Leaks       int     `json:"leaks"`
}

func newReport(o Options, agents []Agent, scenarios []Scenario) *Report {
	rep := &Report{
		Generated: time.Now().UTC().Format(time.RFC3339),
		Mode:      "native (no sandbox)",
		Host:      hostInfo(),
		User:      o.User,
	}
	if rep.User == "" {
		rep.User = fmt.Sprintf("uid %d", os.Getuid())
	}
	if o.Broker != "" {
		rep.Mode = "aixbroker exec --profile <profile>"
		if v, err := exec.Command(o.Broker, "version").Output(); err == nil {
			rep.Broker = strings.TrimSpace(string(v))
		}
	}
	for _, a := range agents {
		rep.Agents = append(rep.Agents, AgentInfo{Name: a.Name, Package: a.Package, Version: a.Version, Profile: a.Profile, Missing: a.Missing})
	}
	for _, sc := range scenarios {
		rep.Scenarios = append(rep.Scenarios, ScenarioInfo{Name: sc.Name, Title: sc.Title, Kind: sc.Kind})
	}
	return rep
}

// computeStats fills Stats from Outcomes. A legitimate call is a step of a
// legitimate scenario; it is refused when its checks fail. An agent-state
// problem counts as one refused call too.
func (rep *Report) computeStats() {
	rep.Stats = nil
	for _, a := range rep.Agents {
		if a.Missing != "" {
			continue
		}
		st := Stats{Agent: a.Name, Profile: a.Profile}
		for _, o := range rep.Outcomes {
			if o.Agent != a.Name {
				continue
			}
			st.Leaks += len(o.Leaks)
			if o.Kind == Attack {
				st.Attacks++
				if o.Pass {
					st.AttacksHeld++
				}
				continue
			}
			for _, s := range o.Steps {
				st.LegitCalls++
				if !s.Pass {
					st.Refused++
				}
			}
			for _, p := range o.Problems {
				if strings.HasPrefix(p, "agent state") {
					st.LegitCalls++
					st.Refused++
				}
			}
		}
		if st.LegitCalls > 0 {
			st.FPRate = float64(st.Refused) / float64(st.LegitCalls)
		}
		rep.Stats = append(rep.Stats, st)
	}
}

// LeakCount is the number of leaks over all outcomes.
func (rep *Report) LeakCount() int {
	n := 0
	for _, o := range rep.Outcomes {
		n += len(o.Leaks)
	}
	return n
}

// FalsePositives is the number of refused legitimate calls.
func (rep *Report) FalsePositives() int {
	rep.computeStats()
	n := 0
	for _, s := range rep.Stats {
		n += s.Refused
	}
	return n
}

// Clean reports whether every outcome passed.
func (rep *Report) Clean() bool {
	for _, o := range rep.Outcomes {
		if !o.Pass {
			return false
		}
	}
	return true
}

// Summary is the closing text printed after a run.
func (rep *Report) Summary() string {
	rep.computeStats()
	var b strings.Builder
	pass, fail := 0, 0
	for _, o := range rep.Outcomes {
		if o.Pass {
			pass++
		} else {
			fail++
		}
	}
	for _, s := range rep.Stats {
		fmt.Fprintf(&b, "%-9s profile %-12s false positives %d/%d (%.1f%%)  attacks held %d/%d  leaks %d\n",
			s.Agent, s.Profile, s.Refused, s.LegitCalls, 100*s.FPRate, s.AttacksHeld, s.Attacks, s.Leaks)
	}
	fmt.Fprintf(&b, "leaks: %d\n", rep.LeakCount())
	fmt.Fprintf(&b, "compat: %d passed, %d failed\n", pass, fail)
	return b.String()
}

// Write writes COMPAT.md and compat.json into dir.
func (rep *Report) Write(dir string) error {
	rep.computeStats()
	data, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compat.json"), append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write compat.json: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "COMPAT.md"), []byte(rep.Markdown()), 0o644); err != nil {
		return fmt.Errorf("write COMPAT.md: %w", err)
	}
	return nil
}

func (rep *Report) outcome(agent, scenario string) (Outcome, bool) {
	for _, o := range rep.Outcomes {
		if o.Agent == agent && o.Scenario == scenario {
			return o, true
		}
	}
	return Outcome{}, false
}

// Rerender reads a compat.json and writes COMPAT.md (and the JSON, with
// its statistics recomputed) beside it.
func Rerender(jsonPath string) error {
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return fmt.Errorf("read report: %w", err)
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return fmt.Errorf("decode report: %w", err)
	}
	if err := rep.refreshTitles(); err != nil {
		return err
	}
	return rep.Write(filepath.Dir(jsonPath))
}

// mergeInto takes the cells of the report at jsonPath that this report did
// not rerun, so that one scenario can be rerun without the whole matrix.
func (rep *Report) mergeInto(jsonPath string) error {
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		return fmt.Errorf("read report to merge: %w", err)
	}
	var old Report
	if err := json.Unmarshal(data, &old); err != nil {
		return fmt.Errorf("decode report to merge: %w", err)
	}
	fresh := map[[2]string]bool{}
	for _, o := range rep.Outcomes {
		fresh[[2]string{o.Agent, o.Scenario}] = true
	}
	merged := []Outcome{}
	for _, o := range old.Outcomes {
		if !fresh[[2]string{o.Agent, o.Scenario}] {
			merged = append(merged, o)
		}
	}
	rep.Outcomes = append(merged, rep.Outcomes...)
	rep.Agents, rep.Scenarios = old.Agents, old.Scenarios
	if err := rep.refreshTitles(); err != nil {
		return err
	}
	sort.SliceStable(rep.Outcomes, func(i, j int) bool {
		return rep.order(rep.Outcomes[i]) < rep.order(rep.Outcomes[j])
	})
	return nil
}

// order ranks an outcome by agent, then scenario, as the report lists them.
func (rep *Report) order(o Outcome) int {
	a, s := len(rep.Agents), len(rep.Scenarios)
	for i, x := range rep.Agents {
		if x.Name == o.Agent {
			a = i
		}
	}
	for i, x := range rep.Scenarios {
		if x.Name == o.Scenario {
			s = i
		}
	}
	return a*1000 + s
}

// refreshTitles takes the scenarios' titles and kinds from the built-in
// scenarios, which may have been reworded since the report was written.
func (rep *Report) refreshTitles() error {
	scs, err := Scenarios()
	if err != nil {
		return err
	}
	for i, info := range rep.Scenarios {
		for _, sc := range scs {
			if sc.Name == info.Name {
				rep.Scenarios[i] = ScenarioInfo{Name: sc.Name, Title: sc.Title, Kind: sc.Kind}
			}
		}
	}
	return nil
}
