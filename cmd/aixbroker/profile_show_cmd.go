package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

func newProfileShowCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Show a profile's effective rules, each with the file:line it comes from",
		Long: `show prints the effective policy of a profile after its extends chain is
merged: every rule, in precedence order (deny, redact, read_only,
allow_write, allow_read, then default), with the file and line it was written on and the
comment that says why it exists. Built-in profiles are named
builtin:NAME:LINE. Patterns are shown as written; see what they match on this
machine with "aixbroker policy explain --profile NAME PATH".`,
		Example: `  aixbroker profile show generic
  aixbroker profile show claude-code --json | jq '.filesystem.deny'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProfileShow(cmd, args[0], asJSON)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON, for scripts")
	return cmd
}

// profileView is the effective policy as shown and printed in JSON.
type profileView struct {
	Name       string      `json:"name"`
	Chain      []string    `json:"chain"`
	Default    policy.Rule `json:"default"`
	Filesystem struct {
		Deny       []policy.Rule `json:"deny"`
		Redact     []policy.Rule `json:"redact"`
		ReadOnly   []policy.Rule `json:"read_only"`
		AllowWrite []policy.Rule `json:"allow_write"`
		AllowRead  []policy.Rule `json:"allow_read"`
	} `json:"filesystem"`
	Exec struct {
		Allow    []policy.Rule `json:"allow"`
		Deny     []policy.Rule `json:"deny"`
		DenyArgs []policy.Rule `json:"deny_args"`
	} `json:"exec"`
	Env struct {
		PassThrough []policy.Rule `json:"pass_through"`
		Strip       []policy.Rule `json:"strip"`
		Inject      []policy.Rule `json:"inject"`
	} `json:"env"`
	Audit struct {
		Log     string        `json:"log"`
		OnDeny  string        `json:"on_deny"`
		OnAllow string        `json:"on_allow"`
		Source  policy.Source `json:"source"`
	} `json:"audit"`
	Tests []profileTest `json:"tests"`
}

type profileTest struct {
	Path   string        `json:"path"`
	Op     policy.Op     `json:"op"`
	Want   policy.Action `json:"want"`
	Source policy.Source `json:"source"`
}

func runProfileShow(cmd *cobra.Command, name string, asJSON bool) error {
	home, err := homeDir()
	if err != nil {
		return err
	}
	p, err := policy.Resolve(policy.ResolveOptions{ProfileName: name, ConfigDir: configDir(home)})
	if err != nil {
		return policyError(err)
	}
	v := newProfileView(name, p)
	if asJSON {
		return printJSON(cmd, v)
	}
	return printProfile(cmd.OutOrStdout(), v)
}

func newProfileView(name string, p *policy.Policy) profileView {
	v := profileView{Name: name, Chain: p.Chain}
	v.Default = policy.Rule{List: "default", Pattern: string(p.DefaultAction()), Source: p.DefaultSource}
	fs := p.Filesystem
	v.Filesystem.Deny, v.Filesystem.Redact = orEmpty(fs.Deny), orEmpty(fs.Redact)
	v.Filesystem.ReadOnly = orEmpty(fs.ReadOnly)
	v.Filesystem.AllowWrite, v.Filesystem.AllowRead = orEmpty(fs.AllowWrite), orEmpty(fs.AllowRead)
	v.Exec.Allow, v.Exec.Deny, v.Exec.DenyArgs = orEmpty(p.Exec.Allow), orEmpty(p.Exec.Deny), orEmpty(p.Exec.DenyArgs)
	v.Env.PassThrough, v.Env.Strip = orEmpty(p.Env.PassThrough), orEmpty(p.Env.Strip)
	v.Env.Inject = []policy.Rule{}
	for _, in := range p.Env.Inject {
		v.Env.Inject = append(v.Env.Inject, policy.Rule{List: "env.inject", Pattern: in.Name + "=" + in.Value, Source: in.Source})
	}
	v.Audit.Log, v.Audit.Source = p.Audit.Log, p.Audit.Source
	v.Audit.OnDeny, v.Audit.OnAllow = p.Audit.EffectiveOnDeny(), p.Audit.EffectiveOnAllow()
	v.Tests = []profileTest{}
	for _, t := range p.Tests {
		op := t.Op
		if op == "" {
			op = policy.OpRead
		}
		v.Tests = append(v.Tests, profileTest{t.Path, op, t.Want, t.Source})
	}
	return v
}

func orEmpty(r []policy.Rule) []policy.Rule {
	if r == nil {
		return []policy.Rule{}
	}
	return r
}

func printProfile(w io.Writer, v profileView) error {
	var b strings.Builder
	fmt.Fprintf(&b, "profile %s: %s\n", v.Name, strings.Join(v.Chain, " extends "))
	section := func(title, empty string, rules []policy.Rule) {
		fmt.Fprintf(&b, "\n%s\n", title)
		if len(rules) == 0 {
			fmt.Fprintf(&b, "  (none%s)\n", empty)
		}
		for _, r := range rules {
			fmt.Fprintf(&b, "  %s\n", ruleLine(r))
		}
	}
	section("filesystem.deny (wins over everything)", "", v.Filesystem.Deny)
	section("filesystem.redact (served as stubs where an allow reaches)", "", v.Filesystem.Redact)
	section("filesystem.read_only (readable where an allow reaches, never changed)", "", v.Filesystem.ReadOnly)
	section("filesystem.allow_write (read and write)", "", v.Filesystem.AllowWrite)
	section("filesystem.allow_read (read only)", "", v.Filesystem.AllowRead)
	fmt.Fprintf(&b, "\ndefault (no rule matches)\n  %s\n", ruleLine(v.Default))
	section("exec.deny", "", v.Exec.Deny)
	section("exec.allow", ": any command the filesystem rules allow", v.Exec.Allow)
	section("exec.deny_args", "", v.Exec.DenyArgs)
	section("env.pass_through", ": every variable not stripped", v.Env.PassThrough)
	section("env.strip", "", v.Env.Strip)
	section("env.inject", "", v.Env.Inject)
	log := v.Audit.Log
	if log == "" {
		log = "(the default audit log)"
	}
	fmt.Fprintf(&b, "\naudit\n  log %s, on_deny %s, on_allow %s", log, v.Audit.OnDeny, v.Audit.OnAllow)
	if v.Audit.Source.File != "" {
		fmt.Fprintf(&b, "  at %s", v.Audit.Source)
	}
	b.WriteString("\n\ntests (run by `aixbroker policy check`)\n")
	if len(v.Tests) == 0 {
		b.WriteString("  (none)\n")
	}
	for _, t := range v.Tests {
		fmt.Fprintf(&b, "  %s %s → %s  at %s\n", t.Op, t.Path, t.Want, t.Source)
	}
	return writeText(w, b.String())
}

// ruleLine is one rule of profile show: pattern, options, source, comment.
func ruleLine(r policy.Rule) string {
	s := r.Pattern
	if r.Command != "" {
		s = r.Command + " '" + r.Pattern + "'"
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
	src := r.Source.String()
	if r.Source.File == "" {
		src = "built-in default"
	}
	s = fmt.Sprintf("%-40s %s", s, src)
	if r.Comment != "" {
		s += "  # " + r.Comment
	}
	return s
}
