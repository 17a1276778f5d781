//go:build !linux

package landlock

// ABI is 0: Landlock is Linux-only.
func ABI() int { return 0 }

// Restrict fails: Landlock is Linux-only.
func Restrict(roots Roots, allowDegraded bool) (int, error) { return 0, ErrDegraded }
