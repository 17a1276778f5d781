package policy

import "fmt"

// Nesting limits checked before YAML parsing. A policy needs a handful of
// levels; the YAML library takes time that grows faster than quadratically
// with nesting, so a hostile project file of deep brackets would otherwise
// hang the loader.
const (
	maxFlowDepth   = 32  // [ and { open at once
	maxBlockIndent = 128 // leading spaces and "- " / "? " indicators on a line
)

// checkNesting rejects input nested deeper than a policy can need. It is a
// lexical approximation (quotes and comments are skipped) that only ever
// rejects.
func checkNesting(data []byte) error {
	line, col, depth, lead := 1, 0, 0, true
	var quote byte
	comment := false
	for i, c := range data {
		col++
		if c == '\n' {
			line, col, lead, comment = line+1, 0, true, false
			continue
		}
		switch {
		case comment:
			continue
		case quote != 0:
			if c == quote && (quote == '\'' || i == 0 || data[i-1] != '\\') {
				quote = 0
			}
			continue
		}
		if lead {
			if c == ' ' || c == '-' || c == '?' {
				if col > maxBlockIndent {
					return fmt.Errorf("%d:%d: nested too deeply (more than %d columns of indentation)", line, col, maxBlockIndent)
				}
				continue
			}
			lead = false
		}
		switch c {
		case '#':
			if i == 0 || data[i-1] == ' ' || data[i-1] == '\t' || data[i-1] == '\n' {
				comment = true
			}
		case '\'', '"':
			quote = c
		case '[', '{':
			if depth++; depth > maxFlowDepth {
				return fmt.Errorf("%d:%d: nested too deeply (more than %d levels of [ and {)", line, col, maxFlowDepth)
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}
