package adversarial

import "strings"

// livenessSigns are what a dead or stalled supervisor leaves in a case's
// output: the Go runtime's fatal errors (thread exhaustion, out of memory)
// on aixbroker's stderr, and the liveness attacks' own report that a
// trapped call after their flood got no answer (attacks/liveness.h).
var livenessSigns = []struct{ sign, meaning string }{
	{"fatal error: ", "the supervisor crashed"},
	{"thread exhaustion", "the supervisor ran out of threads"},
	{"runtime: program exceeds", "the supervisor ran out of threads"},
	{"ADV-LIVENESS-LOST", "a trapped call after the flood got no answer from a live supervisor"},
}

// judgeLiveness reports the supervisor's death or stall: the sandbox then
// runs with Landlock alone, and its listener slot is free for the agent's
// own filter.
func judgeLiveness(out string) []string {
	var bad []string
	for _, s := range livenessSigns {
		if strings.Contains(out, s.sign) {
			bad = append(bad, s.meaning+" ("+s.sign+"…)")
		}
	}
	return bad
}
