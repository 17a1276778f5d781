package compat

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// Kind tells whether a scenario's steps are work a user wants done
// (legitimate: a refusal is a false positive) or an attack the sandbox must
// stop.
type Kind string

// The two kinds of scenario.
const (
	Legit  Kind = "legit"
	Attack Kind = "attack"
)

// Op is an abstract tool call; each agent's dialect turns it into the
// agent's own tool (Bash, exec_command, run_shell_command, bash, Read, ...).
type Op string

// The abstract operations a step can ask for.
const (
	OpShell Op = "shell"
	OpRead  Op = "read"
	OpWrite Op = "write"
	OpEdit  Op = "edit"
)

// Scenario is one row of the matrix: a prompt and the tool calls the
// scripted model makes, with what each must show.
type Scenario struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Kind   Kind   `json:"kind"`
	Prompt string `json:"prompt"`
	Steps  []Step `json:"steps"`
	// AgentState asks to check, after the run, that the agent's own
	// config, cache and session files were written (Agent.StatePaths).
	AgentState bool `json:"agent_state,omitempty"`
}

// Step is one scripted tool call. Strings may hold ${PROJECT}, ${HOME},
// ${OUTSIDE}, ${MARK} and the canary names ${CANARY_SSH}, ${CANARY_AWS},
// ${CANARY_ENV}; Expand replaces them per run.
type Step struct {
	Op      Op     `json:"op"`
	Cmd     string `json:"cmd,omitempty"`
	Path    string `json:"path,omitempty"`
	Content string `json:"content,omitempty"`
	Old     string `json:"old,omitempty"`
	New     string `json:"new,omitempty"`
	Want    Want   `json:"want"`
}

// Want is what a step must show. Result checks look at the tool result the
// model server received; file checks look at the disk after the run.
type Want struct {
	Contains    []string    `json:"contains,omitempty"`
	NotContains []string    `json:"not_contains,omitempty"`
	Files       []FileCheck `json:"files,omitempty"`
}

// FileCheck is a check on one file after the run.
type FileCheck struct {
	Path     string `json:"path"`
	Absent   bool   `json:"absent,omitempty"`
	Contains string `json:"contains,omitempty"`
}

//go:embed scenarios/*.json
var scenarioFS embed.FS

// Scenarios returns the built-in scenarios, sorted by file name.
func Scenarios() ([]Scenario, error) {
	return LoadScenarios(scenarioFS, "scenarios")
}

// LoadScenarios reads every *.json file in dir of fsys as one Scenario.
func LoadScenarios(fsys fs.FS, dir string) ([]Scenario, error) {
	names, err := fs.Glob(fsys, path.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("list scenarios: %w", err)
	}
	sort.Strings(names)
	out := make([]Scenario, 0, len(names))
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read scenario %s: %w", name, err)
		}
		sc, err := ParseScenario(data)
		if err != nil {
			return nil, fmt.Errorf("parse scenario %s: %w", name, err)
		}
		out = append(out, sc)
	}
	return out, nil
}

// ParseScenario decodes and validates one scenario; unknown fields are
// errors so that a typo in a check cannot silently pass.
func ParseScenario(data []byte) (Scenario, error) {
	var sc Scenario
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		return Scenario{}, fmt.Errorf("decode scenario: %w", err)
	}
	return sc, sc.validate()
}

func (sc Scenario) validate() error {
	if sc.Name == "" || sc.Prompt == "" {
		return fmt.Errorf("validate scenario %q: name and prompt are required", sc.Name)
	}
	if sc.Kind != Legit && sc.Kind != Attack {
		return fmt.Errorf("validate scenario %q: kind %q is neither legit nor attack", sc.Name, sc.Kind)
	}
	if len(sc.Steps) == 0 {
		return fmt.Errorf("validate scenario %q: no steps", sc.Name)
	}
	for i, st := range sc.Steps {
		if err := st.validate(); err != nil {
			return fmt.Errorf("validate scenario %q step %d: %w", sc.Name, i+1, err)
		}
	}
	return nil
}

func (st Step) validate() error {
	switch st.Op {
	case OpShell:
		if st.Cmd == "" {
			return fmt.Errorf("shell step without cmd")
		}
	case OpRead:
		if st.Path == "" {
			return fmt.Errorf("read step without path")
		}
	case OpWrite:
		if st.Path == "" {
			return fmt.Errorf("write step without path")
		}
	case OpEdit:
		if st.Path == "" || st.Old == "" {
			return fmt.Errorf("edit step without path or old")
		}
	default:
		return fmt.Errorf("unknown op %q", st.Op)
	}
	if len(st.Want.Contains)+len(st.Want.NotContains)+len(st.Want.Files) == 0 {
		return fmt.Errorf("step checks nothing")
	}
	return nil
}

// Expand returns the step with every ${VAR} replaced from vars.
func (st Step) Expand(vars map[string]string) Step {
	x := func(s string) string { return expand(s, vars) }
	out := st
	out.Cmd, out.Path, out.Content = x(st.Cmd), x(st.Path), x(st.Content)
	out.Old, out.New = x(st.Old), x(st.New)
	out.Want = Want{
		Contains:    mapStrings(st.Want.Contains, x),
		NotContains: mapStrings(st.Want.NotContains, x),
	}
	for _, f := range st.Want.Files {
		f.Path, f.Contains = x(f.Path), x(f.Contains)
		out.Want.Files = append(out.Want.Files, f)
	}
	return out
}

func expand(s string, vars map[string]string) string {
	for k, v := range vars {
		s = strings.ReplaceAll(s, "${"+k+"}", v)
	}
	return s
}

func mapStrings(in []string, f func(string) string) []string {
	if in == nil {
		return nil
	}
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
