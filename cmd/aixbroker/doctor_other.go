//go:build !linux && !darwin

package main

import (
	"runtime"

	"github.com/aixbroker/aixbroker/internal/doctor"
)

func platformChecks() []doctor.Check {
	return []doctor.Check{{Name: "sandbox", Level: doctor.Fail,
		Detail: "aixbroker has no sandbox backend for " + runtime.GOOS, Remedy: "run it on Linux 5.19+ or macOS"}}
}
