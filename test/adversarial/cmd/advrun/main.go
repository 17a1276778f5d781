//go:build linux

// Command advrun runs aixbroker's adversarial suite (test/adversarial) and
// prints a held/LEAK line per attack, a pass/FAIL line per legitimate
// operation, and "N passed, M failed". It exits 1 when a failure is not
// one FINDINGS.md records ("known:" in the case's header).
//
//	go run ./test/adversarial/cmd/advrun -bin bin/aixbroker
//	go run ./test/adversarial/cmd/advrun -bin bin/aixbroker -user nobody -fast
package main

import (
	"flag"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/aixbroker/aixbroker/test/adversarial"
)

func main() {
	bin := flag.String("bin", "bin/aixbroker", "the aixbroker `binary` to attack")
	dir := flag.String("dir", "test/adversarial", "the suite's `folder`")
	as := flag.String("user", "", "run the sandbox as this `user` (needs root)")
	fast := flag.Bool("fast", false, "run only the cases marked fast")
	only := flag.String("run", "", "run only cases whose name contains this `text`")
	verbose := flag.Bool("v", false, "print what each case printed")
	flag.Parse()
	if err := run(*bin, *dir, *as, *fast, *only, *verbose); err != nil {
		fmt.Fprintln(os.Stderr, "advrun:", err)
		os.Exit(2)
	}
}

func run(bin, dir, as string, fast bool, only string, verbose bool) error {
	r := &adversarial.Runner{Dir: dir}
	var err error
	if r.Bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	if r.Dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if as != "" {
		if r.User, err = lookup(as); err != nil {
			return err
		}
	}
	if r.Parent, err = adversarial.WorldParent(r.User); err != nil {
		return err
	}
	var cases []adversarial.Case
	for _, k := range []adversarial.Kind{adversarial.Attack, adversarial.Legit} {
		cs, err := adversarial.Load(r.Dir, k)
		if err != nil {
			return err
		}
		for _, c := range cs {
			if (!fast || c.Fast) && strings.Contains(c.Name, only) {
				cases = append(cases, c)
			}
		}
	}
	build, err := os.MkdirTemp("", "advrun-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(build)
	if err := r.Compile(cases, build); err != nil {
		return err
	}
	var results []adversarial.Result
	for _, c := range cases {
		res := r.Run(c)
		results = append(results, res)
		adversarial.PrintResult(os.Stdout, res)
		if verbose {
			fmt.Println(res.Output)
		}
	}
	adversarial.Summarize(os.Stdout, results)
	unknown := 0
	for _, r := range results {
		if r.Failed() && r.Case.Known == "" {
			unknown++
		}
	}
	if unknown > 0 {
		fmt.Printf("%d failure(s) not recorded in test/adversarial/FINDINGS.md\n", unknown)
		os.Exit(1)
	}
	return nil
}

func lookup(name string) (*adversarial.Account, error) {
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("look up user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &adversarial.Account{Name: name, UID: uid, GID: gid}, nil
}
