package main

import (
	"fmt"
	"os"
)

// interposerOn resolves --interposer, then $AIXBROKER_INTERPOSER; off by
// default.
func interposerOn(flag string) (bool, error) {
	v := flag
	if v == "" {
		v = os.Getenv("AIXBROKER_INTERPOSER")
	}
	switch v {
	case "", "0", "off":
		return false, nil
	case "1", "on":
		return true, nil
	}
	return false, fmt.Errorf("--interposer %q: want on or off", v)
}
