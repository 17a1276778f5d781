package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

// insideSandbox refuses, in a process that runs inside an aixbroker
// sandbox (AIXGATE_ACTIVE=1), the subcommands that cannot work there, and
// says what to run outside instead: a sandbox cannot start another (the
// kernel gives one seccomp listener per process tree) and the audit log
// and the user's profiles are hidden from the agent on purpose.
func insideSandbox(cmd *cobra.Command, _ []string) error {
	if os.Getenv(policy.ActiveVar) != "1" {
		return nil
	}
	path := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	top, _, _ := strings.Cut(path, " ")
	switch top {
	case "exec", "run", "audit", "init":
		return fmt.Errorf("%s: this runs inside an aixbroker sandbox (%s=1), where it cannot work: "+
			"a sandbox cannot start another, and the audit log and your profiles are hidden from the agent; "+
			"run 'aixbroker %s' in a terminal outside the sandbox", path, policy.ActiveVar, path)
	}
	return nil
}
