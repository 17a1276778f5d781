package main

import (
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// TestLogAllowedEvents (review R8): a project file's audit.on_allow: none
// is ignored; from --policy or a profile it is honoured.
func TestLogAllowedEvents(t *testing.T) {
	cases := []struct {
		origin, onAllow string
		log, ignored    bool
	}{
		{"project file /p/.aixgate.yaml", "none", true, true},
		{"project file /p/.aixgate.yaml", "log", true, false},
		{"--policy /home/u/p.yaml", "none", false, false},
		{"profile generic", "", true, false},
	}
	for _, c := range cases {
		pol := &policy.Policy{Origin: c.origin}
		pol.Audit.OnAllow = c.onAllow
		log, ignored := logAllowedEvents(pol)
		if log != c.log || ignored != c.ignored {
			t.Errorf("%s, on_allow %q: log %v ignored %v, want %v %v", c.origin, c.onAllow, log, ignored, c.log, c.ignored)
		}
	}
}
