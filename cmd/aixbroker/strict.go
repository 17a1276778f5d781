package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// strict makes every command of the tree refuse what it does not know:
// a group command (one with subcommands and nothing to run itself) given an
// unknown subcommand exits non-zero with "did you mean", instead of
// printing its help and exiting 0; a command given the wrong number of
// arguments says so in a sentence with its first example.
func strict(cmd *cobra.Command) {
	cmd.SuggestionsMinimumDistance = 2
	if cmd.HasSubCommands() && cmd.Run == nil && cmd.RunE == nil {
		cmd.Args = unknownSubcommand
		cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	} else if cmd.Args != nil {
		cmd.Args = explained(cmd.Args)
	}
	for _, sub := range cmd.Commands() {
		strict(sub)
	}
}

// unknownSubcommand refuses any argument of a group command.
func unknownSubcommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return fmt.Errorf("%s (see '%s --help')", msg, cmd.CommandPath())
}

// explained wraps an argument check so that its error names the command
// and shows how it is used.
func explained(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if check(cmd, args) == nil {
			return nil
		}
		name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
		msg := fmt.Sprintf("%s: wrong number of arguments (%d given); usage: %s", name, len(args), cmd.UseLine())
		if ex := firstExample(cmd); ex != "" {
			msg += "; for example: " + ex
		}
		return fmt.Errorf("%s", msg)
	}
}

// firstExample is the first line of the command's Example, or of the
// indented examples in its Long text.
func firstExample(cmd *cobra.Command) string {
	for _, text := range []string{cmd.Example, cmd.Long} {
		for _, line := range strings.Split(text, "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "aixbroker ") {
				if i := strings.Index(line, "  "); i > 0 {
					line = line[:i] // drop a trailing comment column
				}
				return line
			}
		}
	}
	return ""
}
