//go:build !linux || !amd64

package interposer

// library is empty where the Linux library does not apply (macOS uses the
// sandbox-exec backend).
var library []byte
