package policy

// ExpandPath expands ~ and ${VARS} in a plain path (not a glob) written in a
// policy, such as audit.log, and returns it absolute and cleaned.
func (v Vars) ExpandPath(p string) (string, error) {
	if err := checkVars(p); err != nil {
		return "", err
	}
	return expandPath(p, v)
}
