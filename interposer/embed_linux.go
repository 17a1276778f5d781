//go:build linux && amd64

package interposer

import _ "embed"

// library is interposer/libaixbroker.so, built by `make interposer`. If the
// build fails with "pattern libaixbroker.so: no matching files found", run
// `make interposer` (gcc) first.
//
//go:embed libaixbroker.so
var library []byte
