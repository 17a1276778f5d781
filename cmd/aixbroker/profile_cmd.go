package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
)

func init() { subcommands = append(subcommands, newProfileCmd) }

func newProfileCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "profile",
		Short: "List and show the built-in and user profiles",
		Long: `A profile is a named policy. aixbroker ships one per agent (claude-code,
codex, gemini, opencode, cursor, aider), each extending "generic", the
agent-neutral base. Your own profiles live in ~/.aixgate/profiles/NAME.yaml
($AIXGATE_CONFIG_DIR/profiles) and can extend the built-in ones; a user
profile cannot replace a built-in profile of the same name.`,
		Example: `  aixbroker profile list
  aixbroker profile show claude-code
  aixbroker exec --profile codex -- codex`,
	}
	cmd.AddCommand(newProfileListCmd(), newProfileShowCmd())
	return cmd
}

// profileInfo is one line of profile list.
type profileInfo struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"` // "built-in" or "user"
	Description string `json:"description"`
	File        string `json:"file,omitempty"`     // a user profile's path
	Shadowed    bool   `json:"shadowed,omitempty"` // a user profile hidden by a built-in of the same name
}

func newProfileListCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the built-in and user profiles, one line each",
		Example: "  aixbroker profile list\n  aixbroker profile list --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			profiles, err := listProfiles()
			if err != nil {
				return err
			}
			if asJSON {
				return printJSON(cmd, profiles)
			}
			return printProfiles(cmd.OutOrStdout(), profiles)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON, for scripts")
	return cmd
}

// listProfiles returns the built-in profiles, then the user's, each sorted.
func listProfiles() ([]profileInfo, error) {
	out := []profileInfo{}
	builtin := map[string]bool{}
	for _, name := range policy.ProfileNames() {
		src, err := policy.ProfileSource(name)
		if err != nil {
			return nil, err
		}
		builtin[name] = true
		out = append(out, profileInfo{Name: name, Kind: "built-in", Description: describeProfile(name, src)})
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return out, nil // no home, no user profiles
	}
	dir := filepath.Join(configDir(home), "profiles")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list user profiles: %w", err)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".yaml")
		if !ok || e.IsDir() || !validProfileName(name) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		src, err := readHead(path, 4096)
		desc := describeProfile(name, src)
		if err != nil {
			desc = "unreadable: " + err.Error()
		}
		out = append(out, profileInfo{Name: name, Kind: "user", Description: desc, File: path, Shadowed: builtin[name]})
	}
	return out, nil
}

// readHead reads at most n bytes of a file: enough for its header comment.
func readHead(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// describeProfile returns the first sentence of a profile's header comment,
// without the "NAME:" it starts with.
func describeProfile(name string, src []byte) string {
	var para []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		text, ok := strings.CutPrefix(line, "#")
		text = strings.TrimSpace(text)
		if !ok || text == "" {
			break
		}
		para = append(para, text)
	}
	desc := strings.Join(para, " ")
	desc = strings.TrimPrefix(desc, name+":")
	desc = strings.TrimSpace(strings.TrimPrefix(desc, ".aixgate.yaml:"))
	if i := strings.Index(desc, ". "); i >= 0 {
		desc = desc[:i+1]
	}
	if desc == "" {
		return "(no description: start the file with a # comment)"
	}
	return desc
}

func printProfiles(w io.Writer, profiles []profileInfo) error {
	width := 0
	for _, p := range profiles {
		width = max(width, len(p.Name))
	}
	var b strings.Builder
	for _, p := range profiles {
		kind := p.Kind
		if p.Shadowed {
			kind = "user, unused: a built-in profile has this name"
		}
		fmt.Fprintf(&b, "%-*s  %-8s  %s\n", width, p.Name, kind, p.Description)
	}
	b.WriteString("\nshow one with `aixbroker profile show NAME`\n")
	return writeText(w, b.String())
}
