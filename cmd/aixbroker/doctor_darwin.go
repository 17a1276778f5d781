package main

import (
	"github.com/aixbroker/aixbroker/internal/doctor"
	"github.com/aixbroker/aixbroker/macos"
)

// platformChecks are the macOS checks of package macos (sandbox-exec, SIP,
// the interposer) in doctor's form.
func platformChecks() []doctor.Check {
	var out []doctor.Check
	for _, c := range macos.Doctor(nil, "") {
		out = append(out, doctor.Check{Name: c.Name, Level: doctor.Level(c.Level), Detail: c.Detail})
	}
	return out
}
