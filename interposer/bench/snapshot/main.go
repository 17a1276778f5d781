// Command snapshot writes the interposer snapshot of a built-in profile,
// for interposer/bench/run.sh (the library alone, outside a sandbox).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/aixbroker/aixbroker/broker"
	"github.com/aixbroker/aixbroker/policy"
)

func main() {
	profile := flag.String("profile", "generic", "built-in profile")
	project := flag.String("project", ".", "${PROJECT}")
	home := flag.String("home", os.Getenv("HOME"), "${HOME}")
	flag.Parse()
	if err := run(*profile, *project, *home); err != nil {
		fmt.Fprintln(os.Stderr, "snapshot:", err)
		os.Exit(1)
	}
}

func run(profile, project, home string) error {
	p, err := policy.LoadProfile(profile)
	if err != nil {
		return err
	}
	e, err := policy.Compile(p, policy.Vars{Project: project, Home: home, TmpDir: os.TempDir(), ConfigDir: home + "/.aixgate"})
	if err != nil {
		return err
	}
	b, err := broker.Encode(broker.BuildSnapshot(e))
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(b)
	return err
}
