package main

import (
	"fmt"
	"os"
)

// interposerOn resolves --interposer, then $AIXBROKER_INTERPOSER; off by
// default.
func interposerOn(flag string) (bool, error) {
	return onOff("--interposer", flag, "AIXBROKER_INTERPOSER")
}

// statTrapOn resolves --stat-trap, then $AIXBROKER_STAT_TRAP; off by
// default: the stat family is then left to the interposer (see
// docs/PERFORMANCE.md, "Interposer and stat trap").
func statTrapOn(flag string) (bool, error) {
	return onOff("--stat-trap", flag, "AIXBROKER_STAT_TRAP")
}

// onOff reads an on/off setting from its flag, else from the environment
// variable env; unset is off.
func onOff(name, flag, env string) (bool, error) {
	v := flag
	if v == "" {
		v = os.Getenv(env)
	}
	switch v {
	case "", "0", "off":
		return false, nil
	case "1", "on":
		return true, nil
	}
	return false, fmt.Errorf("%s %q: want on or off", name, v)
}
