package adversarial

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Kind says whether a case attacks the sandbox or does legitimate work.
type Kind string

// Case kinds, named after their folders.
const (
	Attack Kind = "attacks"
	Legit  Kind = "legit"
)

// Case is one file of the suite and its header.
type Case struct {
	Name      string // file name without extension: 012-opath-reopen
	File      string // absolute path
	Lang      string // sh, c, py, js
	Kind      Kind
	Technique string // what the attack tries, or what the legit case does
	Want      string // legit: stdout must contain this
	Fast      bool
	Static    bool
	Requires  []string
	Needs     []string
	Known     string // an entry of FINDINGS.md: a known leak or false positive, reported but not failing the Go test
	Timeout   time.Duration
}

// Account is who runs the sandbox; nil means the current user.
type Account struct {
	Name     string
	UID, GID int
}

// interpreters run the script languages; C is compiled.
var interpreters = map[string][]string{
	"sh": {"/bin/bash"},
	"py": {"/usr/bin/python3"},
	"js": {"/usr/bin/node"},
}

// Load reads every case of kind from dir/kind, sorted by name.
func Load(dir string, kind Kind) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, string(kind), "[0-9]*.*"))
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", kind, err)
	}
	sort.Strings(files)
	var out []Case
	for _, f := range files {
		c, err := parseCase(f, kind)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func parseCase(file string, kind Kind) (Case, error) {
	base := filepath.Base(file)
	ext := strings.TrimPrefix(filepath.Ext(base), ".")
	c := Case{Name: strings.TrimSuffix(base, "."+ext), File: file, Lang: ext, Kind: kind, Timeout: 30 * time.Second}
	if _, ok := interpreters[ext]; !ok && ext != "c" {
		return c, fmt.Errorf("parse %s: unknown language %q", file, ext)
	}
	f, err := os.Open(file)
	if err != nil {
		return c, fmt.Errorf("parse case: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "#!") {
			continue
		}
		text, ok := cutComment(line)
		if !ok {
			break
		}
		key, val, ok := strings.Cut(text, ":")
		if !ok {
			continue
		}
		if err := c.set(strings.TrimSpace(key), strings.TrimSpace(val)); err != nil {
			return c, fmt.Errorf("parse %s: %w", file, err)
		}
	}
	if c.Technique == "" {
		return c, fmt.Errorf("parse %s: no technique: or operation: header", file)
	}
	if kind == Legit && c.Want == "" {
		return c, fmt.Errorf("parse %s: a legitimate case needs a want: header", file)
	}
	return c, nil
}

// cutComment returns the text of a # or // comment line.
func cutComment(line string) (string, bool) {
	for _, p := range []string{"//", "#"} {
		if rest, ok := strings.CutPrefix(line, p); ok {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

func (c *Case) set(key, val string) error {
	switch key {
	case "technique", "operation":
		c.Technique = val
	case "want":
		c.Want = val
	case "fast":
		c.Fast = val == "yes"
	case "build":
		c.Static = val == "static"
	case "requires":
		c.Requires = strings.Fields(val)
	case "needs":
		c.Needs = strings.Fields(val)
	case "known":
		c.Known = val
	case "timeout":
		s, err := strconv.Atoi(val)
		if err != nil || s <= 0 {
			return fmt.Errorf("bad timeout %q", val)
		}
		c.Timeout = time.Duration(s) * time.Second
	}
	return nil
}

// needs reports whether the case asked for the outside service s.
func (c Case) needs(s string) bool {
	for _, n := range c.Needs {
		if n == s {
			return true
		}
	}
	return false
}
