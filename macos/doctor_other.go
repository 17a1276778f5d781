//go:build !darwin

package macos

import "github.com/aixbroker/aixbroker/policy"

// Doctor needs macOS: it returns one failing check.
func Doctor(eng *policy.Engine, interposer string) []Check {
	return []Check{{Name: "macOS sandbox", Level: Fail, Detail: ErrNotSupported.Error()}}
}
