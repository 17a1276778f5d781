package adversarial

import "strings"

// execMarker is what a program on exec.deny prints when it got to run
// (attacks/exec_race.h).
const execMarker = "AIXADV-DENIED-EXEC-RAN"

// judgeExec flags a case whose output shows that a program the policy
// refuses to execute ran anyway (issue 14 item 8): the exec races of
// attacks 170-175.
func judgeExec(out string) []string {
	if n := strings.Count(out, execMarker); n > 0 {
		return []string{"a program on exec.deny (or a denied command line) ran: " + firstLineWith(out, execMarker)}
	}
	return nil
}

func firstLineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// serviceMarker is what attack 176 prints when it bound a socket name an
// outside client connects to.
const serviceMarker = "AIXADV-BOUND-SERVICE-NAME"

// judgeServiceNames flags a case that bound such a name (issue 14 item 9).
func judgeServiceNames(out string) []string {
	if strings.Contains(out, serviceMarker) {
		return []string{"bound a socket name outside clients connect to: " + firstLineWith(out, serviceMarker)}
	}
	return nil
}
