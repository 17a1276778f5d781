package redact

import (
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// renderYAML writes the keys view of a YAML stream in block style: mapping
// keys and sequence lengths are kept; every scalar except null and "" becomes
// "[redacted]". Anchors and tags are dropped and aliases are not expanded
// (an alias is a value like any other). Comments are dropped.
func renderYAML(e *emitter, text string, o opts) error {
	if flowDepth(text) > maxDepth {
		return errFormat // the parser recurses on flow nesting
	}
	f, err := parseYAML(text)
	if err != nil {
		return errFormat
	}
	e.line("# ", o.header)
	for i, doc := range f.Docs {
		if i > 0 {
			e.line("---")
		}
		if doc == nil || doc.Body == nil {
			continue
		}
		if err := yamlValue(e, doc.Body, 0, true); err != nil {
			return err
		}
	}
	return nil
}

// parseYAML runs the third-party parser; a panic in it is treated as a parse
// error, since a crafted file must not take the broker down.
func parseYAML(text string) (f *ast.File, err error) {
	defer func() {
		if recover() != nil {
			f, err = nil, errFormat
		}
	}()
	return parser.ParseBytes([]byte(text), 0)
}

// yamlValue writes node n at nesting depth. The caller has written "key:" or
// "-" (or nothing, at the top of a document); yamlValue writes the rest.
func yamlValue(e *emitter, n ast.Node, depth int, top bool) error {
	if depth > maxDepth || e.err != nil {
		return errFormat
	}
	sep := " "
	if top {
		sep = ""
	}
	switch v := n.(type) {
	case nil, *ast.NullNode:
		e.line(sep, "null")
	case *ast.TagNode:
		return yamlValue(e, v.Value, depth, top)
	case *ast.AnchorNode:
		return yamlValue(e, v.Value, depth, top)
	case *ast.StringNode:
		if v.Value == "" {
			e.line(sep, `""`)
			return nil
		}
		e.line(sep, `"`, Marker, `"`)
	case *ast.LiteralNode, *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode,
		*ast.InfinityNode, *ast.NanNode, *ast.AliasNode:
		e.line(sep, `"`, Marker, `"`)
	case *ast.MappingValueNode:
		return yamlMapping(e, []*ast.MappingValueNode{v}, depth, top)
	case *ast.MappingNode:
		if len(v.Values) == 0 {
			e.line(sep, "{}")
			return nil
		}
		return yamlMapping(e, v.Values, depth, top)
	case *ast.SequenceNode:
		return yamlSequence(e, v.Values, depth, top)
	default:
		return errFormat
	}
	return nil
}

func yamlMapping(e *emitter, values []*ast.MappingValueNode, depth int, top bool) error {
	if !top {
		e.line()
	}
	for _, mv := range values {
		if mv == nil {
			return errFormat
		}
		key, err := yamlKey(mv.Key)
		if err != nil {
			return err
		}
		e.add(indent(depth), key, ":")
		if err := yamlValue(e, mv.Value, depth+1, false); err != nil {
			return err
		}
	}
	return nil
}

func yamlSequence(e *emitter, values []ast.Node, depth int, top bool) error {
	sep := " "
	if top {
		sep = ""
	}
	if len(values) == 0 {
		e.line(sep, "[]")
		return nil
	}
	if !top {
		e.line()
	}
	for _, v := range values {
		e.add(indent(depth), "-")
		if err := yamlValue(e, v, depth+1, false); err != nil {
			return err
		}
	}
	return nil
}

// yamlKey returns a mapping key as YAML text: plain when it is a simple
// word, double-quoted otherwise. Complex keys ("? ...") are refused.
func yamlKey(k ast.MapKeyNode) (string, error) {
	var s string
	switch v := k.(type) {
	case *ast.StringNode:
		s = v.Value
	case *ast.MergeKeyNode:
		s = "<<"
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NullNode,
		*ast.InfinityNode, *ast.NanNode:
		tok := v.GetToken()
		if tok == nil {
			return "", errFormat
		}
		s = tok.Value
	default:
		return "", errFormat
	}
	if isPlainYAMLKey(s) {
		return s, nil
	}
	return quoteJSON(s), nil
}

var yamlReserved = map[string]bool{
	"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
	"null": true, "y": true, "n": true,
}

func isPlainYAMLKey(s string) bool {
	if s == "" || !(s[0] == '_' || isAlnum(s[0]) && !(s[0] >= '0' && s[0] <= '9')) {
		return false
	}
	return isWord(s, "_-./") && !yamlReserved[strings.ToLower(s)]
}

// flowDepth is an upper bound on the flow-collection nesting of text: the
// deepest run of unclosed '[' and '{', counting brackets even inside strings.
func flowDepth(text string) int {
	depth, most := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '[', '{':
			depth++
			most = max(most, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return most
}
