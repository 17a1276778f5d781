package policy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	yamlparser "github.com/goccy/go-yaml/parser"
)

// MaxPolicySize is the largest policy file Parse accepts, in bytes.
const MaxPolicySize = 256 << 10

// The keys of each mapping of the schema (§7.6), for validation and for
// "did you mean" suggestions.
var (
	topKeys      = []string{"profile", "extends", "default", "filesystem", "exec", "env", "unix", "ipc", "audit", "tests"}
	fsKeys       = []string{"allow_read", "allow_write", "read_only", "redact", "deny"}
	execKeys     = []string{"allow", "deny", "deny_args"}
	envKeys      = []string{"pass_through", "inject", "strip"}
	auditKeys    = []string{"log", "on_deny", "on_allow"}
	testKeys     = []string{"path", "op", "want"}
	defaultVals  = []string{"deny", "allow"}
	onDenyVals   = []string{"log", "prompt", "block_silently"}
	onAllowVals  = []string{"log", "none"}
	redactModes  = []string{"keys", "stub"}
	errnoVals    = []string{"ENOENT", "EACCES"}
	testWantVals = []string{"allow", "deny", "redact"}
)

// Parse parses one policy file as written. It does not follow extends (see
// LoadFile) and does not expand variables (see Compile), but it checks
// everything it can: unknown keys, wrong types, bad globs, unknown
// variables, bad enum values. Every problem is an *Error naming
// file:line:column; several are joined. file names the source in errors and
// in each Rule's Source. Parse never panics.
func Parse(file string, data []byte) (*Policy, error) {
	if len(data) > MaxPolicySize {
		return nil, &Error{File: file, Msg: fmt.Sprintf("parse policy: file is larger than %d bytes", MaxPolicySize)}
	}
	if err := checkNesting(data); err != nil {
		return nil, &Error{File: file, Msg: "parse policy: " + err.Error()}
	}
	f, err := parseYAML(data)
	if err != nil {
		return nil, syntaxError(file, err)
	}
	ps := &parser{errList: errList{file: file}, p: &Policy{File: file, Chain: []string{file}}}
	switch {
	case len(f.Docs) == 0 || f.Docs[0].Body == nil:
		ps.add(Source{}, "empty policy: the profile key is required")
	case len(f.Docs) > 1:
		ps.add(ps.src(f.Docs[1].Body), "a policy file holds one YAML document, found %d", len(f.Docs))
	default:
		ps.top(f.Docs[0].Body)
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return ps.p, nil
}

// parseYAML parses YAML to an AST, turning a panic of the YAML library on
// hostile input into an error.
func parseYAML(data []byte) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("malformed YAML (%v)", r)
		}
	}()
	return yamlparser.ParseBytes(data, yamlparser.ParseComments)
}

// syntaxError locates an error of the YAML library.
func syntaxError(file string, err error) error {
	var ye yaml.Error
	if !errors.As(err, &ye) || ye.GetToken() == nil || ye.GetToken().Position == nil {
		return &Error{File: file, Msg: "parse policy: " + firstLine(err.Error())}
	}
	pos := ye.GetToken().Position
	return &Error{File: file, Line: pos.Line, Column: pos.Column, Msg: "parse policy: " + ye.GetMessage()}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

type parser struct {
	errList
	p *Policy
}

func (ps *parser) src(n ast.Node) Source {
	s := Source{File: ps.file}
	if n == nil {
		return s
	}
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		s.Line, s.Column = tk.Position.Line, tk.Position.Column
	}
	return s
}

// value strips an anchor and refuses aliases and tags: a policy is read by
// people, and every rule must be visible where it applies.
func (ps *parser) value(n ast.Node, what string) (ast.Node, bool) {
	switch v := n.(type) {
	case *ast.AnchorNode:
		return ps.value(v.Value, what)
	case *ast.AliasNode:
		ps.add(ps.src(n), "%s: YAML aliases are not supported in policies", what)
		return nil, false
	case *ast.TagNode:
		ps.add(ps.src(n), "%s: YAML tags are not supported in policies", what)
		return nil, false
	}
	return n, true
}

// mapping returns the entries of a mapping; a null value (an empty
// section) is an empty mapping.
func (ps *parser) mapping(n ast.Node, what string) []*ast.MappingValueNode {
	n, ok := ps.value(n, what)
	if !ok {
		return nil
	}
	switch m := n.(type) {
	case nil, *ast.NullNode:
		return nil
	case *ast.MappingNode:
		return m.Values
	case *ast.MappingValueNode:
		return []*ast.MappingValueNode{m}
	}
	ps.add(ps.src(n), "%s must be a mapping, got %s", what, kind(n))
	return nil
}

// fields walks a mapping with a fixed set of keys, reporting unknown and
// duplicate ones, and calls fn for each known key.
func (ps *parser) fields(n ast.Node, what string, valid []string, fn func(key string, v ast.Node)) {
	seen := map[string]bool{}
	for _, mv := range ps.mapping(n, what) {
		key, ok := ps.key(mv, what)
		if !ok {
			continue
		}
		switch {
		case seen[key]:
			ps.add(ps.src(mv.Key), "%s: duplicate key %s", what, key)
		case !contains(valid, key):
			ps.add(ps.src(mv.Key), "%s: unknown key %q%s", what, key, suggest(key, valid))
		default:
			seen[key] = true
			fn(key, mv.Value)
		}
	}
}

func (ps *parser) key(mv *ast.MappingValueNode, what string) (string, bool) {
	if mv == nil || mv.Key == nil {
		return "", false
	}
	k, ok := mv.Key.(*ast.StringNode)
	if !ok {
		ps.add(ps.src(mv.Key), "%s: keys must be plain names", what)
		return "", false
	}
	return k.Value, true
}

// scalar returns the text of a scalar. Numbers and booleans count as their
// text (a file may be called 2024); null and collections do not.
func (ps *parser) scalar(n ast.Node, what string) (string, bool) {
	n, ok := ps.value(n, what)
	if !ok {
		return "", false
	}
	switch v := n.(type) {
	case *ast.StringNode:
		return v.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode:
		return v.GetToken().Value, true
	case *ast.NullNode:
		if v.GetToken() != nil && v.GetToken().Value == "~" {
			ps.add(ps.src(n), "%s: a bare ~ is YAML null; quote it: '~'", what)
			return "", false
		}
	}
	ps.add(ps.src(n), "%s must be a string, got %s", what, kind(n))
	return "", false
}

// enum reads a scalar that must be one of valid.
func (ps *parser) enum(n ast.Node, what string, valid []string) (string, bool) {
	s, ok := ps.scalar(n, what)
	if !ok {
		return "", false
	}
	if !contains(valid, s) {
		ps.add(ps.src(n), "%s: invalid value %q, want one of %s%s", what, s, strings.Join(valid, "|"), suggest(s, valid))
		return "", false
	}
	return s, true
}

// list walks a sequence; a null value is an empty list.
func (ps *parser) list(n ast.Node, what string, fn func(i int, item ast.Node, comment string)) {
	n, ok := ps.value(n, what)
	if !ok {
		return
	}
	switch s := n.(type) {
	case nil, *ast.NullNode:
		return
	case *ast.SequenceNode:
		for i, item := range s.Values {
			fn(i, item, entryComment(s, i, item))
		}
	default:
		ps.add(ps.src(n), "%s must be a list, got %s", what, kind(n))
	}
}

// entryComment returns the comment written on or above a list entry.
func entryComment(s *ast.SequenceNode, i int, item ast.Node) string {
	if item != nil && item.GetComment() != nil {
		return cleanComment(item.GetComment().String())
	}
	if i < len(s.ValueHeadComments) && s.ValueHeadComments[i] != nil {
		return cleanComment(s.ValueHeadComments[i].String())
	}
	if i == 0 && s.GetComment() != nil {
		return cleanComment(s.GetComment().String())
	}
	return ""
}

func cleanComment(c string) string {
	var lines []string
	for l := range strings.SplitSeq(c, "\n") {
		if l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "#")); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, " ")
}

func kind(n ast.Node) string {
	switch n.(type) {
	case nil, *ast.NullNode:
		return "null"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.StringNode, *ast.LiteralNode:
		return "a string"
	case *ast.IntegerNode, *ast.FloatNode:
		return "a number"
	case *ast.BoolNode:
		return "a boolean"
	}
	return n.Type().String()
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// validGlob reports why a pattern as written cannot compile, or "".
func validGlob(pattern string) string {
	if pattern == "" {
		return "empty pattern"
	}
	if strings.ContainsRune(pattern, 0) {
		return "pattern contains a NUL byte"
	}
	if err := checkVars(pattern); err != nil {
		return err.Error()
	}
	probe, err := substitute(pattern, Vars{Project: "/p", Home: "/h", TmpDir: "/t", ConfigDir: "/c"}, escapeGlob)
	if err != nil {
		return err.Error()
	}
	if !doublestar.ValidatePattern(probe) {
		return fmt.Sprintf("invalid glob %q (unbalanced [ or {, or a trailing \\)", pattern)
	}
	return ""
}
