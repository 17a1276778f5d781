// Command aixbroker runs an AI coding agent under a deny-by-default policy
// for files, exec and environment, and writes a tamper-evident audit log of
// every decision. Each subcommand lives in its own file; this file only wires
// them together.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/aixbroker/aixbroker/internal/version"
	"github.com/aixbroker/aixbroker/notify"
	"github.com/spf13/cobra"
)

// exitError carries a process exit status through cobra without printing.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "aixbroker",
		Short: "Run AI coding agents under a deny-by-default sandbox",
		Long: `aixbroker runs an AI coding agent (claude, codex, gemini, opencode, any
process) so that it, and everything it spawns, can only reach what the policy
allows: secrets such as ~/.ssh/id_*, ~/.aws/credentials and the project's .env
do not exist for it, writes outside the project are refused, and every
decision is written to a tamper-evident audit log.

  aixbroker exec -- claude                 run an agent under its built-in profile
  aixbroker policy explain ~/.ssh/id_rsa   which rule decides a path, and why
  aixbroker audit query --since 24h --denied-only`,
		Version:           version.Version,
		SilenceUsage:      true,
		SilenceErrors:     true,
		PersistentPreRunE: insideSandbox,
	}
	root.SetVersionTemplate("aixbroker {{.Version}}\n")
	for _, add := range subcommands {
		root.AddCommand(add())
	}
	strict(root)
	return root
}

// subcommands is filled by each subcommand file's init.
var subcommands []func() *cobra.Command

func main() {
	notify.MaybeStage2() // in the sandbox's stage 2 this never returns
	err := newRootCmd().Execute()
	if err == nil {
		return
	}
	var ee exitError
	if errors.As(err, &ee) {
		os.Exit(ee.code)
	}
	fmt.Fprintln(os.Stderr, "aixbroker:", err)
	os.Exit(2)
}
