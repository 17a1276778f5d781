package main

// Helpers shared by the commands that read a policy (init, policy, profile,
// exec): the --policy/--profile/--project/--json flags, policy resolution
// with the host's variables, error messages that say what to do, and JSON
// output.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

// projectDir returns the project directory: flag, or the current directory
// when flag is empty, made absolute and cleaned. It must be a directory.
func projectDir(flag string) (string, error) {
	dir := flag
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("find the current directory: %w", err)
		}
		dir = wd
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find project directory %s: %w", dir, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("open project directory: %w; pass an existing directory with --project", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("open project directory %s: not a directory; pass a directory with --project", abs)
	}
	return abs, nil
}

// printJSON writes v to the command's output as indented JSON.
func printJSON(cmd *cobra.Command, v any) error {
	enc := json.NewEncoder(cmd.OutOrStdout())
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// policyFlags are the flags of every command that needs a policy, and the
// agent command exec runs (not a flag: exec fills it from its arguments).
type policyFlags struct {
	Policy  string // --policy FILE: use this file, nothing else
	Profile string // --profile NAME: a built-in or ~/.aixgate/profiles profile
	Project string // --project DIR: the project (default: the current directory)
	JSON    bool   // --json: print for scripts
	Agent   string // argv[0] of the agent, to pick its built-in profile
}

// addPolicyFlags registers --policy, --profile, --project and --json.
func addPolicyFlags(cmd *cobra.Command, f *policyFlags) {
	cmd.Flags().StringVar(&f.Policy, "policy", "", "use this policy `file` instead of .aixgate.yaml or a profile")
	cmd.Flags().StringVar(&f.Profile, "profile", "", "use the profile `name` (see `aixbroker profile list`); a project's .aixgate.yaml is merged over it")
	cmd.Flags().StringVar(&f.Project, "project", "", "project `dir`ectory: ${PROJECT}, and where .aixgate.yaml is looked for (default: the current directory)")
	cmd.Flags().BoolVar(&f.JSON, "json", false, "print as JSON, for scripts")
}

// loadEngine finds the policy a session in f.Project would run under,
// merges its extends chain and compiles it with the host's variables. The
// policy comes from, first match wins: --policy, the project's .aixgate.yaml
// (merged over the profile the next steps choose), --profile, the built-in
// profile of f.Agent (claude → claude-code), the generic profile (see
// policy.Resolve). The returned Policy's Origin says which. A broken policy
// gives an error naming file:line:col and what to do.
func loadEngine(f policyFlags) (*policy.Engine, *policy.Policy, error) {
	project, err := projectDir(f.Project)
	if err != nil {
		return nil, nil, err
	}
	vars, err := hostVars(project)
	if err != nil {
		return nil, nil, err
	}
	p, err := policy.Resolve(policy.ResolveOptions{
		PolicyFile:   f.Policy,
		ProjectDir:   project,
		ProfileName:  f.Profile,
		AgentCommand: f.Agent,
		ConfigDir:    vars.ConfigDir,
	})
	if err != nil {
		return nil, nil, policyError(err)
	}
	eng, err := policy.Compile(p, vars)
	if err != nil {
		return nil, p, policyError(err)
	}
	return eng, p, nil
}

// hostVars returns the policy variables for a session in project:
// PROJECT = project, HOME = the user's home directory, TMPDIR = $TMPDIR or
// /tmp, AIXGATE_CONFIG_DIR = $AIXGATE_CONFIG_DIR or ~/.aixgate. Each is made
// absolute and canonical (symlinks resolved as far as the path exists),
// because the engine decides on canonical paths.
func hostVars(project string) (policy.Vars, error) {
	home, err := homeDir()
	if err != nil {
		return policy.Vars{}, err
	}
	tmp := os.Getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	v := policy.Vars{Project: project, Home: home, TmpDir: tmp, ConfigDir: configDir(home)}
	for _, p := range []*string{&v.Project, &v.Home, &v.TmpDir, &v.ConfigDir} {
		if *p, err = canonical(*p); err != nil {
			return policy.Vars{}, err
		}
	}
	return v, nil
}

// homeDir is the user's home directory ($HOME).
func homeDir() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("find the home directory: %w; set HOME", err)
	}
	return home, nil
}

// fileExists reports whether path names an existing file (any kind).
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// noteIgnoredProfile tells on stderr when --profile is not used: only
// --policy, which is used as written, leaves it out. (A project's
// .aixgate.yaml no longer wins over --profile: it is merged over it.)
func noteIgnoredProfile(cmd *cobra.Command, f policyFlags, _ string) {
	if f.Profile == "" || f.Policy == "" {
		return
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "note: --profile %s is not used: --policy %s is used as written\n", f.Profile, f.Policy)
}

// configDir is $AIXGATE_CONFIG_DIR, or ~/.aixgate when it is unset. User
// profiles live in its profiles/ folder.
func configDir(home string) string {
	if dir := os.Getenv("AIXGATE_CONFIG_DIR"); dir != "" {
		return dir
	}
	return filepath.Join(home, policy.ConfigDirName)
}

// validProfileName reports whether name can name a profile (and so a file
// NAME.yaml in the profiles folder) rather than a path.
func validProfileName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, `/\`) &&
		!strings.HasSuffix(name, ".yaml") && !strings.HasSuffix(name, ".yml")
}

// canonical makes p absolute and clean and resolves the symlinks of its
// longest existing prefix; the part that does not exist is kept as written.
// This is how the kernel would see the path once the missing part is made.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("make %s absolute: %w", p, err)
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if dir == filepath.Dir(dir) {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// policyError turns the located errors of the policy package into a message
// that shows each problem as file:line:col, the line itself when the file
// can be read, and what to do next.
func policyError(err error) error {
	var b strings.Builder
	errs := flattenErrors(err)
	for _, e := range errs {
		b.WriteString(e.Error())
		b.WriteByte('\n')
		var pe *policy.Error
		if errors.As(e, &pe) {
			b.WriteString(sourceExcerpt(pe.File, pe.Line, pe.Column))
		}
	}
	if errors.Is(err, policy.ErrUnknownProfile) {
		b.WriteString("see the profiles with `aixbroker profile list`")
	} else {
		lines := "line"
		if len(errs) > 1 {
			lines = "lines"
		}
		fmt.Fprintf(&b, "fix the %s above, then run `aixbroker policy check`", lines)
	}
	return errors.New(safeText(b.String()))
}

// flattenErrors undoes errors.Join, one level at a time.
func flattenErrors(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flattenErrors(e)...)
		}
		return out
	}
	return []error{err}
}

// safeText makes text from a policy file safe to print on a terminal: a
// project's .aixgate.yaml is written by whoever wrote the repository, and
// its comments and patterns must not be able to send escape sequences or
// reorder text with bidirectional controls. Newlines and tabs are kept;
// other control characters, bidi controls and invalid UTF-8 are shown as
// \x or \u escapes.
func safeText(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, "\\x%02x", s[i])
		case unicode.IsControl(r):
			fmt.Fprintf(&b, "\\x%02x", r)
		case unicode.Is(unicode.Bidi_Control, r) || r == '\u200b' || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, "\\u%04x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// writeText writes s to w after safeText.
func writeText(w io.Writer, s string) error {
	_, err := io.WriteString(w, safeText(s))
	return err
}

// sourceExcerpt returns line of file, indented, with a caret under col, or
// "" when the file cannot be read (a built-in profile, a vanished file).
func sourceExcerpt(file string, line, col int) string {
	if line <= 0 || !filepath.IsAbs(file) {
		return ""
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	lines := strings.Split(string(data), "\n")
	if line > len(lines) {
		return ""
	}
	text := strings.TrimRight(lines[line-1], "\r")
	if r := []rune(text); len(r) > 160 {
		text = string(r[:160]) + "…"
	}
	out := fmt.Sprintf("    %s\n", text)
	if col > 0 && col <= len(text)+1 {
		out += fmt.Sprintf("    %s^\n", strings.Repeat(" ", col-1))
	}
	return out
}
