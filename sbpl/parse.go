package sbpl

import (
	"errors"
	"fmt"
	"strings"
)

// node is one parsed S-expression: an atom (symbol, string or regex
// literal) or a list.
type node struct {
	list  []node
	atom  string
	kind  atomKind
	isSeq bool // a list
}

type atomKind uint8

const (
	symbol atomKind = iota
	str             // "..." with \\ and \" escapes
	rx              // #"..." taken verbatim
)

// parseSexprs reads the S-expressions of an SBPL text: lists, symbols,
// "strings", #"regex" literals and ; comments. It accepts the subset the
// generator writes, and rejects anything it does not understand.
func parseSexprs(src string) ([]node, error) {
	p := &sexprParser{src: src}
	var out []node
	for {
		p.skipSpace()
		if p.i >= len(p.src) {
			return out, nil
		}
		n, err := p.expr(0)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
}

type sexprParser struct {
	src string
	i   int
}

func (p *sexprParser) errorf(format string, args ...any) error {
	line := 1 + strings.Count(p.src[:min(p.i, len(p.src))], "\n")
	return fmt.Errorf("parse profile: line %d: %s", line, fmt.Sprintf(format, args...))
}

func (p *sexprParser) skipSpace() {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ';':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *sexprParser) expr(depth int) (node, error) {
	if depth > 32 {
		return node{}, p.errorf("nesting too deep")
	}
	p.skipSpace()
	if p.i >= len(p.src) {
		return node{}, p.errorf("unexpected end")
	}
	switch c := p.src[p.i]; {
	case c == '(':
		p.i++
		n := node{isSeq: true}
		for {
			p.skipSpace()
			if p.i >= len(p.src) {
				return node{}, p.errorf("unclosed (")
			}
			if p.src[p.i] == ')' {
				p.i++
				return n, nil
			}
			e, err := p.expr(depth + 1)
			if err != nil {
				return node{}, err
			}
			n.list = append(n.list, e)
		}
	case c == ')':
		return node{}, p.errorf("unexpected )")
	case c == '"':
		return p.str()
	case strings.HasPrefix(p.src[p.i:], `#"`):
		end := strings.IndexByte(p.src[p.i+2:], '"')
		if end < 0 {
			return node{}, p.errorf("unterminated regex literal")
		}
		n := node{atom: p.src[p.i+2 : p.i+2+end], kind: rx}
		p.i += 3 + end
		return n, nil
	}
	start := p.i
	for p.i < len(p.src) && !strings.ContainsRune(" \t\r\n();\"", rune(p.src[p.i])) {
		p.i++
	}
	return node{atom: p.src[start:p.i], kind: symbol}, nil
}

func (p *sexprParser) str() (node, error) {
	var b strings.Builder
	for p.i++; p.i < len(p.src); p.i++ {
		switch c := p.src[p.i]; c {
		case '"':
			p.i++
			return node{atom: b.String(), kind: str}, nil
		case '\\':
			if p.i+1 >= len(p.src) || (p.src[p.i+1] != '\\' && p.src[p.i+1] != '"') {
				return node{}, p.errorf("unsupported string escape")
			}
			p.i++
			b.WriteByte(p.src[p.i])
		default:
			b.WriteByte(c)
		}
	}
	return node{}, errors.New("parse profile: unterminated string")
}
