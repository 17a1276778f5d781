package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

func newPolicyCheckCmd() *cobra.Command {
	var f policyFlags
	cmd := &cobra.Command{
		Use:   "check [FILE]",
		Short: "Validate a policy, warn about unsafe rules, run its tests",
		Long: `check validates a policy file and its extends chain, then reports:

  errors    the file does not parse, a rule does not compile, a rule allows
            the whole filesystem or the whole home directory (/, ~, ~/**),
            or an entry of its tests: list fails;
  warnings  writes allowed outside the project, the temporary directories and
            the agents' own directories; patterns that can never match; rules
            an identical deny makes useless; redact and read_only rules no
            allow rule reaches; default: allow; a --policy file that does not
            extend generic.

Errors come first. check exits 1 when there is any error, so it can guard a
CI job. With no FILE it checks the policy "aixbroker exec" would use here:
the project's .aixgate.yaml merged over --profile NAME (else generic), else
--profile NAME, else the generic profile. A project file may not set
default: allow (an error: run it deliberately with --policy FILE).`,
		Example: `  aixbroker policy check                    # the policy exec would use here
  aixbroker policy check team-policy.yaml   # a given file
  aixbroker policy check --profile codex    # a built-in profile
  aixbroker policy check --json | jq '.findings[]'`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				if f.Policy != "" {
					return fmt.Errorf("check: give the file either as FILE or as --policy, not both")
				}
				f.Policy = args[0]
			}
			return runCheck(cmd, f)
		},
	}
	addPolicyFlags(cmd, &f)
	return cmd
}

// checkFinding is one finding, as printed in JSON.
type checkFinding struct {
	Severity policy.Severity `json:"severity"`
	Message  string          `json:"message"`
	File     string          `json:"file,omitempty"`
	Line     int             `json:"line,omitempty"`
	Column   int             `json:"column,omitempty"`
}

// checkResult is what check reports.
type checkResult struct {
	Policy      string         `json:"policy"` // how the policy was chosen
	OK          bool           `json:"ok"`     // no errors
	Errors      int            `json:"errors"`
	Warnings    int            `json:"warnings"`
	Tests       int            `json:"tests"`
	TestsFailed int            `json:"tests_failed"`
	Findings    []checkFinding `json:"findings"`
}

func runCheck(cmd *cobra.Command, f policyFlags) error {
	project, err := projectDir(f.Project)
	if err != nil {
		return err
	}
	vars, err := hostVars(project)
	if err != nil {
		return err
	}
	noteIgnoredProfile(cmd, f, project)
	res := checkResult{Findings: []checkFinding{}}
	p, err := policy.Resolve(policy.ResolveOptions{
		PolicyFile: f.Policy, ProjectDir: project, ProfileName: f.Profile, ConfigDir: vars.ConfigDir,
	})
	var findings []policy.Finding
	if err != nil {
		res.Policy = describeUnresolved(f, project)
		findings = errorFindings(err)
	} else {
		res.Policy = p.Origin
		res.Tests = len(p.Tests)
		findings = policy.Check(p, vars)
	}
	// Errors first, each group in file order as Check gave it.
	slices.SortStableFunc(findings, func(a, b policy.Finding) int {
		return severityRank(a.Severity) - severityRank(b.Severity)
	})
	for _, fd := range findings {
		if fd.Severity == policy.SeverityError {
			res.Errors++
		} else {
			res.Warnings++
		}
		if strings.HasPrefix(fd.Message, "test ") {
			res.TestsFailed++
		}
		res.Findings = append(res.Findings, checkFinding{fd.Severity, fd.Message, fd.Source.File, fd.Source.Line, fd.Source.Column})
	}
	res.OK = res.Errors == 0
	if f.JSON {
		err = printJSON(cmd, res)
	} else {
		err = printCheck(cmd.OutOrStdout(), res)
	}
	if err != nil {
		return err
	}
	if !res.OK {
		return exitError{code: 1}
	}
	return nil
}

func severityRank(s policy.Severity) int {
	if s == policy.SeverityError {
		return 0
	}
	return 1
}

// describeUnresolved names the policy check tried to load when loading failed.
func describeUnresolved(f policyFlags, project string) string {
	path := filepath.Join(project, policyFileName)
	switch {
	case f.Policy != "":
		return "policy file " + f.Policy
	case fileExists(path) && f.Profile != "":
		return "project file " + path + " over profile " + f.Profile
	case fileExists(path):
		return "project file " + path
	case f.Profile != "":
		return "profile " + f.Profile
	}
	return "profile " + policy.GenericProfile
}

// errorFindings turns the located errors of loading into findings.
func errorFindings(err error) []policy.Finding {
	var out []policy.Finding
	for _, e := range flattenErrors(err) {
		var pe *policy.Error
		if errors.As(e, &pe) {
			out = append(out, policy.Finding{Severity: policy.SeverityError, Message: pe.Msg,
				Source: policy.Source{File: pe.File, Line: pe.Line, Column: pe.Column}})
			continue
		}
		out = append(out, policy.Finding{Severity: policy.SeverityError, Message: e.Error()})
	}
	return out
}

func printCheck(w io.Writer, r checkResult) error {
	var b strings.Builder
	fmt.Fprintf(&b, "checking %s\n", r.Policy)
	for _, fd := range r.Findings {
		loc := fd.File
		if fd.Line > 0 {
			loc = fmt.Sprintf("%s:%d:%d", fd.File, fd.Line, fd.Column)
		}
		if loc != "" {
			loc += ": "
		}
		fmt.Fprintf(&b, "%s%s: %s\n", loc, fd.Severity, fd.Message)
		b.WriteString(sourceExcerpt(fd.File, fd.Line, fd.Column))
	}
	passed := r.Tests - r.TestsFailed
	fmt.Fprintf(&b, "%d errors, %d warnings; %d of %d tests passed\n", r.Errors, r.Warnings, max(passed, 0), r.Tests)
	switch {
	case r.Errors > 0:
		b.WriteString("fix the errors above, then run `aixbroker policy check` again\n")
	case r.Warnings > 0:
		b.WriteString("ok: the policy can be used; read the warnings above\n")
	default:
		b.WriteString("ok\n")
	}
	return writeText(w, b.String())
}

// envResult is what explain --env reports.
type envResult struct {
	policy.EnvExplanation
	Meaning string `json:"meaning"`
	Policy  string `json:"policy"`
}

func runExplainEnv(cmd *cobra.Command, f policyFlags, name string) error {
	eng, p, err := loadEngine(f)
	if err != nil {
		return err
	}
	x := eng.ExplainEnv(name)
	res := envResult{EnvExplanation: x, Policy: p.Origin}
	switch x.Action {
	case "pass":
		res.Meaning = "passed to the agent unchanged"
	case "inject":
		res.Meaning = fmt.Sprintf("set to %q in the agent's environment, whatever its value here", x.Value)
	default:
		res.Meaning = "removed from the agent's environment"
	}
	if f.JSON {
		return printJSON(cmd, res)
	}
	rule := describeRule(x.Rule)
	if x.Rule.List == "env.default" {
		rule = "no rule: " + x.Rule.Comment
	}
	return writeText(cmd.OutOrStdout(), fmt.Sprintf("env %s: %s\n  %s\nrule:   %s\npolicy: %s\n", name, x.Action, res.Meaning, rule, res.Policy))
}
