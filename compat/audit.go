package compat

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Refusal is one decision of the sandbox that refused or redacted
// something, read from the session's audit log.
type Refusal struct {
	Op     string `json:"op"`
	Path   string `json:"path"`
	Result string `json:"result"`
	Rule   string `json:"rule"`
	Count  int    `json:"count"`
}

func (r Refusal) String() string {
	return fmt.Sprintf("%s %s → %s (%s) ×%d", r.Op, r.Path, r.Result, r.Rule, r.Count)
}

// auditRecord is the part of an audit line the report reads.
type auditRecord struct {
	Op       string `json:"op"`
	Path     string `json:"path"`
	Decision string `json:"decision"`
	Result   string `json:"result"`
	Rule     string `json:"rule"`
}

// readRefusals lists the refused and redacted decisions in the audit log
// the broker wrote into the fake HOME, grouped by operation and path, with
// the fixture root shortened to ~ and ${PROJECT}.
func readRefusals(fx *Fixture) []Refusal {
	f, err := os.Open(filepath.Join(fx.Env.Home, ".aixgate", "audit.jsonl"))
	if err != nil {
		return nil
	}
	defer f.Close()
	seen := map[[4]string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var r auditRecord
		if json.Unmarshal(sc.Bytes(), &r) != nil || (r.Decision != "deny" && r.Decision != "redact") {
			continue
		}
		seen[[4]string{r.Op, fx.shorten(r.Path), r.Result, r.Rule}]++
	}
	out := make([]Refusal, 0, len(seen))
	for k, n := range seen {
		out = append(out, Refusal{Op: k[0], Path: k[1], Result: k[2], Rule: k[3], Count: n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Op < out[j].Op
	})
	return out
}

// shorten writes a fixture path the way a user reads it.
func (fx *Fixture) shorten(p string) string {
	for _, r := range []struct{ dir, name string }{
		{fx.Env.Project, "${PROJECT}"}, {fx.Env.Outside, "${OUTSIDE}"}, {fx.Env.Home, "~"},
	} {
		if p == r.dir || strings.HasPrefix(p, r.dir+"/") {
			p = r.name + strings.TrimPrefix(p, r.dir)
			break
		}
	}
	return p
}
