// Command aixcompat runs the agent compatibility matrix: it installs the
// agents from npm at their pinned versions, runs each through every scenario
// against the scripted model server (natively, or under `aixbroker exec`),
// and writes docs/COMPAT.md and docs/compat.json.
//
//	go run ./compat/cmd/aixcompat -broker bin/aixbroker -user aixcompat
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/aixbroker/aixbroker/compat"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "aixcompat:", err)
		os.Exit(1)
	}
}

func run() error {
	var o compat.Options
	var agents, scenarios string
	flag.StringVar(&agents, "agents", "", "comma-separated agents (default: all installable)")
	flag.StringVar(&scenarios, "scenarios", "", "comma-separated scenarios (default: all)")
	flag.StringVar(&o.Prefix, "prefix", compat.DefaultPrefix(), "npm prefix the agents are installed under")
	flag.StringVar(&o.Cache, "cache", ".cache/agents/npm", "npm download cache")
	flag.BoolVar(&o.Install, "install", true, "install the pinned agents first")
	flag.StringVar(&o.Broker, "broker", "", "aixbroker binary; empty runs the agents natively")
	brokerFlags := flag.String("broker-flags", "", "space-separated flags added to 'aixbroker exec' (e.g. --interposer=on)")
	flag.StringVar(&o.User, "user", "", "run the agents as this user, created with useradd if missing")
	flag.StringVar(&o.DocsDir, "docs", "", "write COMPAT.md and compat.json into this folder")
	flag.StringVar(&o.DumpDir, "dump", "", "write every request body the model server received here")
	flag.BoolVar(&o.Keep, "keep", false, "keep the fixtures on disk")
	flag.BoolVar(&o.Merge, "merge", false, "replace only the cells this run produced in the existing compat.json")
	flag.DurationVar(&o.Timeout, "timeout", 3*time.Minute, "time limit for one agent run")
	render := flag.String("render", "", "only re-render COMPAT.md from this compat.json (after editing compat/analysis.md)")
	flag.Parse()
	if *render != "" {
		return compat.Rerender(*render)
	}
	o.Agents, o.Scenarios = split(agents), split(scenarios)
	o.BrokerFlags = strings.Fields(*brokerFlags)
	rep, err := compat.RunMatrix(context.Background(), o, os.Stderr)
	if err != nil {
		return err
	}
	fmt.Print(rep.Summary())
	if !rep.Clean() {
		return fmt.Errorf("matrix not clean: %d leaks, %d false positives", rep.LeakCount(), rep.FalsePositives())
	}
	return nil
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}
