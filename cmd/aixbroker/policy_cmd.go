package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newPolicyCmd) }

func newPolicyCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Check a policy and ask it questions",
		Long: `policy check validates a policy and runs its tests; policy explain tells
what the policy decides for one path or environment variable, and why.

Both use the policy that "aixbroker exec" would use here, first match wins:
--policy FILE (used as written), the project's .aixgate.yaml (merged over
--profile NAME, else generic), --profile NAME, the generic profile. exec
merges a project file over the agent's profile: pass --profile claude-code
to see what "exec -- claude" decides. The reference is docs/policy.md.`,
		Example: `  aixbroker policy check
  aixbroker policy explain ~/.ssh/id_rsa
  aixbroker policy explain --op write ../other-repo/main.go`,
	}
	cmd.AddCommand(newPolicyCheckCmd(), newPolicyExplainCmd())
	return cmd
}

func newPolicyExplainCmd() *cobra.Command {
	var f policyFlags
	var op, env string
	cmd := &cobra.Command{
		Use:   "explain PATH",
		Short: "Say what the policy decides for a path, by which rule, written where",
		Long: `explain says what the policy decides for one operation on PATH: allow,
deny (and the error the agent sees) or redact, the rule that won with the
file and line it was written on, and the other matching rules it beat.

PATH is made absolute against the current directory and cleaned. Symlinks
that exist are resolved first, as the sandbox decides on the real file: the
output says "(resolved from ...)" when that changed the path.

Operations (--op): read (the default), stat, write, create, unlink, rename
(the source of a rename), link (the source of a hard link), exec, connect
(to the unix socket at PATH: unix.connect allows it, filesystem allow rules
never do), datagram (creating a unix datagram socket: unix.datagram; PATH is
not looked at).

With --env NAME, explain says what happens to the environment variable NAME
instead: passed to the agent, stripped (and by which rule), or injected.`,
		Example: `  aixbroker policy explain ~/.ssh/id_rsa          # deny, by which rule
  aixbroker policy explain .env                    # redact: the agent reads a stub
  aixbroker policy explain --op write ~/.bashrc    # refused with EACCES
  aixbroker policy explain --op exec /usr/bin/curl
  aixbroker policy explain --env AWS_SECRET_ACCESS_KEY
  aixbroker policy explain --json --profile codex ~/.codex/auth.json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case env != "" && len(args) > 0:
				return fmt.Errorf("explain: give either PATH or --env NAME, not both")
			case env != "":
				return runExplainEnv(cmd, f, env)
			case len(args) == 0:
				return fmt.Errorf("explain: which path? e.g. `aixbroker policy explain ~/.ssh/id_rsa`")
			}
			return runExplain(cmd, f, policy.Op(op), args[0])
		},
	}
	addPolicyFlags(cmd, &f)
	cmd.Flags().StringVar(&op, "op", string(policy.OpRead), "the `operation`: "+opNames())
	cmd.Flags().StringVar(&env, "env", "", "explain the environment variable `NAME` instead of a path")
	return cmd
}

func opNames() string {
	var s []string
	for _, o := range policy.Ops {
		s = append(s, string(o))
	}
	return strings.Join(s, ", ")
}

// explainResult is what explain reports, as text or JSON.
type explainResult struct {
	Op           policy.Op     `json:"op"`
	Path         string        `json:"path"`                    // the path decided on
	Given        string        `json:"given"`                   // as typed
	ResolvedFrom string        `json:"resolved_from,omitempty"` // the absolute path before symlinks were resolved, when they changed it
	Decision     policy.Action `json:"decision"`
	Errno        policy.Errno  `json:"errno,omitempty"`
	Meaning      string        `json:"meaning"` // what the agent sees, in words
	Rule         policy.Rule   `json:"rule"`
	Beaten       []beatenRule  `json:"beaten"`
	Policy       string        `json:"policy"` // how the policy was chosen
}

// beatenRule is a matching rule that did not decide, and why when
// precedence alone does not say it (a redact or read_only rule that no
// allow rule reaches).
type beatenRule struct {
	policy.Rule
	Why string `json:"why,omitempty"`
}

func runExplain(cmd *cobra.Command, f policyFlags, op policy.Op, given string) error {
	if !slices.Contains(policy.Ops, op) {
		return fmt.Errorf("explain: unknown operation %q; use one of %s", op, opNames())
	}
	eng, p, err := loadEngine(f)
	if err != nil {
		return err
	}
	noteIgnoredProfile(cmd, f, eng.Vars().Project)
	path, from, err := explainPath(given, eng.Vars().Home)
	if err != nil {
		return err
	}
	x := eng.Explain(op, path)
	d := x.Decision
	if op == policy.OpExec && d.Allowed() {
		// The exec lists (allow, deny by basename) apply after the file rules.
		if de := eng.DecideExec(path, []string{path}); !de.Allowed() {
			x.Beaten = append([]policy.Rule{d.Rule}, x.Beaten...)
			d = de
		}
	}
	res := explainResult{
		Op: op, Path: path, Given: given, ResolvedFrom: from,
		Decision: d.Action, Errno: d.Errno, Meaning: meaning(op, d),
		Rule: d.Rule, Beaten: []beatenRule{}, Policy: p.Origin,
	}
	for _, r := range x.Beaten {
		res.Beaten = append(res.Beaten, beatenRule{Rule: r, Why: x.Why(r)})
	}
	if f.JSON {
		return printJSON(cmd, res)
	}
	return printExplain(cmd.OutOrStdout(), res)
}

// explainPath turns PATH as typed into the canonical path the sandbox would
// decide on: ~ expanded, made absolute against the current directory,
// cleaned, symlinks resolved as far as the path exists. from is the
// absolute path before symlinks were resolved, or "" when none were.
func explainPath(given, home string) (path, from string, err error) {
	p := given
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = home + p[1:]
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", "", fmt.Errorf("explain %s: %w", given, err)
	}
	path, err = canonical(abs)
	if err != nil {
		return "", "", fmt.Errorf("explain %s: %w", given, err)
	}
	if path != abs {
		from = abs
	}
	return path, from, nil
}

// meaning says in words what the agent experiences.
func meaning(op policy.Op, d policy.Decision) string {
	switch {
	case d.Action == policy.Allow && d.Rule.List == "traverse":
		return "the directory exists for the agent so it can walk to what it may use; its contents stay hidden unless allowed"
	case d.Action == policy.Allow && d.Rule.List == "read_only":
		return "the agent may " + string(op) + " it; it is read-only: writing, creating, deleting, renaming or linking it is refused"
	case d.Action == policy.Allow && op == policy.OpConnect:
		return "the agent may connect to this socket"
	case d.Action == policy.Allow && op == policy.OpDatagram:
		return "the agent may create unix datagram sockets, which send to any socket path"
	case d.Action == policy.Allow:
		return "the agent may " + string(op) + " it"
	case d.Rule.List == "read_only":
		return "refused with EACCES: the file is read-only for the agent (it runs, or governs the sandbox, outside it)"
	case d.Rule.List == "guard":
		return "refused with EACCES: the directory holds a read-only path, so it cannot be created, moved or removed"
	case d.Action == policy.Redact && op == policy.OpStat:
		return "the name exists for the agent; reading it gives the redacted copy"
	case d.Action == policy.Redact && d.Errno != "":
		return "refused with EACCES: a redacted file is never changed, moved or deleted"
	case d.Action == policy.Redact && d.Rule.Mode == "stub":
		return "the agent reads a stub instead of the content"
	case d.Action == policy.Redact:
		return "the agent reads a stub that keeps the key names and hides every value"
	case d.Errno == policy.ENOENT:
		return "the agent is told it does not exist (ENOENT)"
	}
	return "the agent is refused (EACCES: permission denied)"
}

func printExplain(w io.Writer, r explainResult) error {
	var b strings.Builder
	verdict := string(r.Decision)
	if r.Errno != "" {
		verdict += " " + string(r.Errno)
	}
	fmt.Fprintf(&b, "%s %s: %s\n", r.Op, r.Path, verdict)
	fmt.Fprintf(&b, "  %s\n", r.Meaning)
	if r.ResolvedFrom != "" {
		fmt.Fprintf(&b, "  (resolved from %s: decided on the real file, as the sandbox does)\n", r.ResolvedFrom)
	}
	fmt.Fprintf(&b, "rule:   %s\n", describeRule(r.Rule))
	for i, rule := range r.Beaten {
		label := "beats:  "
		if i > 0 {
			label = "        "
		}
		fmt.Fprintf(&b, "%s%s\n", label, describeRule(rule.Rule))
		if rule.Why != "" {
			fmt.Fprintf(&b, "          %s\n", rule.Why)
		}
	}
	fmt.Fprintf(&b, "policy: %s\n", r.Policy)
	return writeText(w, b.String())
}

// describeRule is one rule on one line: list, pattern, where, and why.
func describeRule(r policy.Rule) string {
	s := r.List
	switch {
	case r.List == "default":
		s = "default: " + r.Pattern + " (no rule matched)"
	case r.Command != "":
		s += " " + r.Command + " '" + r.Pattern + "'"
	case r.Pattern != "":
		s += " " + r.Pattern
	}
	if r.Mode != "" {
		s += " (mode " + r.Mode + ")"
	}
	if len(r.Except) > 0 {
		s += " (except " + strings.Join(r.Except, ", ") + ")"
	}
	if r.Errno != "" {
		s += " (errno " + string(r.Errno) + ")"
	}
	if r.Source.File != "" {
		s += " at " + r.Source.String()
	} else if r.List == "default" {
		s += " at built-in default"
	}
	if r.Comment != "" {
		s += "  # " + r.Comment
	}
	return s
}
