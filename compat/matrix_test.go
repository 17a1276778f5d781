package compat

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLeakScan(t *testing.T) {
	fx, err := NewFixture(t.TempDir(), Owner{UID: os.Getuid(), GID: os.Getgid()})
	if err != nil {
		t.Fatal(err)
	}
	ssh, env := fx.Canary["CANARY_SSH"], fx.Canary["CANARY_ENV"]
	tests := []struct {
		name  string
		write map[string]string // file (relative to the fixture root) → text
		reqs  []Request
		want  []Leak
	}{
		{name: "clean fixture", want: nil},
		{name: "canary in a request", reqs: []Request{{Path: "/v1/messages", Body: `{"x":"` + ssh + `"}`}},
			want: []Leak{{Canary: ssh, Where: "request /v1/messages"}}},
		{name: "canary in a session file", write: map[string]string{"home/.claude/s.jsonl": "db " + env},
			want: []Leak{{Canary: env, Where: "file home/.claude/s.jsonl"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for rel, text := range tt.write {
				path := filepath.Join(fx.Root, rel)
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(path)
			}
			got := scanLeaks(fx, tt.reqs)
			if len(got) != len(tt.want) {
				t.Fatalf("scanLeaks = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("leak %d = %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

// TestMatrix runs real agents under aixbroker. It runs only when asked:
// AIXBROKER_COMPAT=claude (or a comma list of agents). An agent that cannot
// be installed then fails the test; it is never skipped once asked for.
// AIXBROKER_COMPAT_BROKER names the aixbroker binary (default
// ../bin/aixbroker, built by `make build`); "native" runs without it.
// AIXBROKER_COMPAT_FLAGS adds flags to "aixbroker exec" (--interposer=on).
func TestMatrix(t *testing.T) {
	agents := os.Getenv("AIXBROKER_COMPAT")
	if agents == "" {
		t.Skip("set AIXBROKER_COMPAT=claude (or make compat-claude) to run real agents")
	}
	broker := os.Getenv("AIXBROKER_COMPAT_BROKER")
	switch broker {
	case "":
		broker = "../bin/aixbroker"
	case "native":
		broker = ""
	}
	if broker != "" {
		if _, err := os.Stat(broker); err != nil {
			t.Fatalf("aixbroker binary: %v (run make build)", err)
		}
	}
	cache, err := filepath.Abs("../.cache/agents/npm")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{
		Agents: strings.Split(agents, ","), Prefix: DefaultPrefix(), Cache: cache, Install: true,
		Broker: broker, BrokerFlags: strings.Fields(os.Getenv("AIXBROKER_COMPAT_FLAGS")), User: os.Getenv("AIXBROKER_COMPAT_USER"), Timeout: 2 * time.Minute,
	}
	var log strings.Builder
	rep, err := RunMatrix(context.Background(), o, &log)
	t.Log("\n" + log.String())
	if err != nil {
		t.Fatalf("RunMatrix: %v", err)
	}
	t.Log("\n" + rep.Summary())
	if n := rep.LeakCount(); n != 0 {
		t.Errorf("%d leaks", n)
	}
	for _, o := range rep.Outcomes {
		if !o.Pass {
			t.Errorf("%s/%s failed: %v %v\n%s", o.Agent, o.Scenario, o.Problems, failedSteps(o), o.Output)
		}
	}
}

func failedSteps(o Outcome) []string {
	var out []string
	for i, s := range o.Steps {
		if !s.Pass {
			out = append(out, fmt.Sprintf("step %d: %s", i+1, strings.Join(s.Problems, "; ")))
		}
	}
	return out
}
