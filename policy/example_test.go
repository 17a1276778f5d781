package policy_test

import (
	"fmt"
	"log"

	"github.com/aixbroker/aixbroker/policy"
)

// A project policy extending a built-in profile, compiled for one host and
// asked about a few paths.
func Example() {
	src := []byte(`profile: my-project
extends: claude-code
filesystem:
  allow_read:
    - ~/shared-libs/** # libraries this project builds against
  deny:
    - ${PROJECT}/customer-data/** # never for the agent
`)
	p, err := policy.Parse("/home/u/proj/.aixgate.yaml", src)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("extends:", p.Extends)

	base, err := policy.LoadProfile(p.Extends)
	if err != nil {
		log.Fatal(err)
	}
	// Parse reads one file; LoadFile and Resolve follow extends themselves.
	merged := policy.Merge(base, p)
	fmt.Println("chain:", merged.Chain)

	eng, err := policy.Compile(merged, policy.Vars{Project: "/home/u/proj", Home: "/home/u", TmpDir: "/tmp", ConfigDir: "/home/u/.aixgate"})
	if err != nil {
		log.Fatal(err)
	}
	for _, q := range []struct {
		op   policy.Op
		path string
	}{
		{policy.OpWrite, "/home/u/proj/main.go"},
		{policy.OpRead, "/home/u/proj/.env"},
		{policy.OpRead, "/home/u/proj/customer-data/2026.csv"},
		{policy.OpRead, "/home/u/.ssh/id_ed25519"},
		{policy.OpRead, "/home/u/other-project/main.go"},
		{policy.OpWrite, "/home/u/shared-libs/lib.go"},
	} {
		d := eng.Decide(q.op, q.path)
		fmt.Printf("%-5s %-37s %-6s %-6s %s at %s\n", q.op, q.path, d.Action, d.Errno, d.Rule.ID(), d.Rule.Source)
	}
	d := eng.DecideExec("/usr/bin/git", []string{"git", "push", "--force"})
	fmt.Println("git push --force:", d.Action, d.Rule.ID())
	// Output:
	// extends: claude-code
	// chain: [/home/u/proj/.aixgate.yaml builtin:claude-code builtin:generic]
	// write /home/u/proj/main.go                  allow         allow_write:${PROJECT}/** at builtin:generic:43
	// read  /home/u/proj/.env                     redact        redact:**/.env at builtin:generic:84
	// read  /home/u/proj/customer-data/2026.csv   deny   ENOENT deny:${PROJECT}/customer-data/** at /home/u/proj/.aixgate.yaml:7
	// read  /home/u/.ssh/id_ed25519               deny   ENOENT deny:~/.ssh/id_* at builtin:generic:89
	// read  /home/u/other-project/main.go         deny   ENOENT default:deny at builtin:generic:8
	// write /home/u/shared-libs/lib.go            deny   EACCES allow_read:~/shared-libs/** at /home/u/proj/.aixgate.yaml:5
	// git push --force: deny exec.deny_args:git push --force
}
