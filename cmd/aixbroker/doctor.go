package main

import (
	"fmt"

	"github.com/aixbroker/aixbroker/internal/doctor"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newDoctorCmd) }

func newDoctorCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that this machine can run the sandbox, and say what to do if not",
		Long: `doctor probes, for real, each kernel feature the sandbox relies on and
prints one line per check: ✓ fine, ! works with a documented loss, · for the
record, ✗ blocks 'aixbroker exec' (with the remedy under it).

On Linux: the kernel version; seccomp user notification, ADDFD_FLAG_SEND,
WAIT_KILLABLE_RECV and FD_SYNC_WAKE_UP (a filter is installed and answered in
a re-executed probe process); whether this process already runs under a
seccomp listener (aixbroker cannot nest inside one); the Landlock ABI and
what each missing feature costs; the interposer; the audit directory.
On macOS: sandbox-exec, SIP and the interposer.

The exit status is 1 when a check blocks exec.`,
		Example: `  aixbroker doctor
  aixbroker doctor --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			checks := platformChecks()
			if asJSON {
				if err := printJSON(cmd, checks); err != nil {
					return err
				}
			} else {
				doctor.Print(cmd.OutOrStdout(), checks)
			}
			if doctor.Blocking(checks) {
				if !asJSON {
					fmt.Fprintln(cmd.ErrOrStderr(), "aixbroker: a blocking check failed; 'aixbroker exec' will not start here")
				}
				return exitError{code: 1}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the checks as JSON")
	return cmd
}
