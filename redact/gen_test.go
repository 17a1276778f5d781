package redact

import (
	"encoding/base64"
	"hash/fnv"
	"math/rand/v2"
	"strconv"
	"strings"
)

// valueOnly holds runes every generated value contains and no key, marker or
// fixed syntax does: if one of them reaches the output, a value leaked.
const valueOnly = "é中🔑Ωж"

// valueASCII is the rest of the value alphabet: everything that makes a
// parser's life hard (quotes, separators, comment characters, escapes).
const valueASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" +
	" \"'`=#:;[]{},\\/-_.!$%&*?@~<>|+^()"

// gen builds a random file of one format from fuzz input. Early choices come
// from the input bytes (so the fuzzer's mutations stay local); once they run
// out, a PRNG seeded from them takes over.
type gen struct {
	seed   []byte
	i      int
	rng    *rand.Rand
	n      int
	keys   []string // keys the keys view must show
	values []string // values (and comments) it must not show
}

func newGen(seed []byte) *gen {
	h := fnv.New64a()
	h.Write(seed)
	return &gen{seed: seed, rng: rand.New(rand.NewPCG(h.Sum64(), uint64(len(seed))))}
}

func (g *gen) intn(n int) int {
	if g.i < len(g.seed) {
		v := int(g.seed[g.i])
		g.i++
		return v % n
	}
	return g.rng.IntN(n)
}

func (g *gen) chance(k int) bool { return g.intn(k) == 0 }

func (g *gen) pick(s ...string) string { return s[g.intn(len(s))] }

func (g *gen) rune(set string) rune {
	rs := []rune(set)
	return rs[g.intn(len(rs))]
}

// value returns a value of 8 to 24 runes with at least one rune of valueOnly,
// no rune of forbid, newlines only when nl is set, and no surrounding
// whitespace; it is recorded as a value that must not leak.
func (g *gen) value(forbid string, nl bool) string {
	n := 8 + g.intn(17)
	special := g.intn(n)
	rs := make([]rune, 0, n)
	for len(rs) < n {
		var r rune
		switch {
		case len(rs) == special || g.chance(10):
			r = g.rune(valueOnly)
		case nl && g.chance(10):
			r = '\n'
		default:
			r = rune(valueASCII[g.intn(len(valueASCII))])
		}
		if (len(rs) == 0 || len(rs) == n-1) && (r == ' ' || r == '\n') {
			r = 'x'
		}
		if !strings.ContainsRune(forbid, r) {
			rs = append(rs, r)
		}
	}
	v := string(rs)
	g.values = append(g.values, v)
	return v
}

// plainValue is a value without any syntax characters.
func (g *gen) plainValue() string {
	return g.value(" \"'`=#:;[]{},\\/!$%&*?@~<>|+^()-.", false)
}

// digits returns a recorded number of 8 to 16 digits (no key holds 8 digits
// in a row, so it cannot be a false positive).
func (g *gen) digits() string {
	var b strings.Builder
	b.WriteByte(byte('1' + g.intn(9)))
	for n := 7 + g.intn(9); n > 0; n-- {
		b.WriteByte(byte('0' + g.intn(10)))
	}
	g.values = append(g.values, b.String())
	return b.String()
}

// key returns a fresh name: a few letters from the alphabet and a counter.
func (g *gen) key(alphabet string) string {
	var b strings.Builder
	b.WriteByte(alphabet[g.intn(len(alphabet))])
	for n := g.intn(6); n > 0; n-- {
		b.WriteByte(alphabet[g.intn(len(alphabet))])
	}
	g.n++
	b.WriteString(strconv.Itoa(g.n))
	return b.String()
}

// keep records a key the keys view must show.
func (g *gen) keep(k string) string {
	g.keys = append(g.keys, k)
	return k
}

func (g *gen) eol() string { return g.pick("\n", "\n", "\n", "\r\n") }

const (
	lower = "abcdefghijklmnopqrstuvwxyz"
	upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
)

func genDotenv(g *gen) string {
	var b strings.Builder
	for n := 1 + g.intn(8); n > 0; n-- {
		if g.chance(4) {
			b.WriteString(g.eol())
		}
		if g.chance(3) {
			b.WriteString(g.pick("#", "# ", "  #") + g.value("\n", false) + g.eol())
		}
		if g.chance(3) {
			b.WriteString(g.pick("export ", "export\t"))
		}
		b.WriteString(g.keep(g.key(upper+"_")) + g.pick("=", "=", " = ", "= "))
		switch g.intn(5) {
		case 0:
			b.WriteString(g.value(" \t\n\"'`", false))
		case 1:
			r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
			b.WriteString(`"` + r.Replace(g.value("", true)) + `"`)
		case 2:
			b.WriteString("'" + g.value("'\\", true) + "'") // libraries disagree on \ in '' and ``
		case 3:
			b.WriteString("`" + g.value("`\\", true) + "`")
		}
		if g.chance(4) {
			b.WriteString(" # " + g.value("\n", false))
		}
		if n > 1 || g.chance(2) {
			b.WriteString(g.eol())
		}
	}
	return b.String()
}

func genJSON(g *gen) string {
	var b strings.Builder
	genJSONObject(g, &b, 0)
	return b.String()
}

func genJSONObject(g *gen, b *strings.Builder, depth int) {
	b.WriteString("{" + g.pick("", "\n  ", " "))
	for n := g.intn(5); n >= 0; n-- {
		b.WriteString(quoteJSON(g.keep(g.key(lower+"_"))) + g.pick(":", ": ", " : "))
		genJSONValue(g, b, depth+1)
		if n > 0 {
			b.WriteString(g.pick(",", ", ", ",\n  "))
		}
	}
	b.WriteString(g.pick("", "\n", " ") + "}")
}

func genJSONValue(g *gen, b *strings.Builder, depth int) {
	switch k := g.intn(8); {
	case depth < 3 && k == 0:
		genJSONObject(g, b, depth)
	case depth < 3 && k == 1:
		b.WriteString("[")
		for n := g.intn(4); n > 0; n-- {
			genJSONValue(g, b, depth+1)
			if n > 1 {
				b.WriteString(", ")
			}
		}
		b.WriteString("]")
	case k == 2:
		b.WriteString(g.pick("", "-") + g.digits() + g.pick("", ".5", "e3"))
	case k == 3:
		b.WriteString(g.pick("true", "false", "null"))
	default:
		b.WriteString(quoteJSON(g.value("", true)))
	}
}

func genYAML(g *gen) string {
	var b strings.Builder
	if g.chance(3) {
		b.WriteString("---\n")
	}
	genYAMLMapping(g, &b, "", 0, nil)
	for g.chance(4) {
		b.WriteString("---\n")
		genYAMLMapping(g, &b, "", 0, nil)
	}
	return b.String()
}

func genYAMLMapping(g *gen, b *strings.Builder, ind string, depth int, anchors []string) []string {
	for n := 1 + g.intn(4); n > 0; n-- {
		if g.chance(5) {
			b.WriteString(ind + "# " + g.value("\n", false) + "\n")
		}
		b.WriteString(ind + g.keep(g.key(lower+"_")) + ":")
		switch k := g.intn(6); {
		case depth < 3 && k == 0:
			if g.chance(3) {
				a := g.key(lower)
				b.WriteString(" &" + a)
				anchors = append(anchors, a)
			}
			b.WriteString("\n")
			anchors = genYAMLMapping(g, b, ind+"  ", depth+1, anchors)
		case depth < 3 && k == 1:
			b.WriteString("\n")
			for m := 1 + g.intn(3); m > 0; m-- {
				if g.chance(3) {
					b.WriteString(ind + "  -\n")
					anchors = genYAMLMapping(g, b, ind+"    ", depth+1, anchors)
					continue
				}
				if g.chance(3) { // compact mapping: "- k: v" then "  k2: v2"
					b.WriteString(ind + "  - " + g.keep(g.key(lower+"_")) + ":")
					genYAMLScalar(g, b, ind+"      ", anchors)
					b.WriteString(ind + "    " + g.keep(g.key(lower+"_")) + ":")
					genYAMLScalar(g, b, ind+"      ", anchors)
					continue
				}
				b.WriteString(ind + "  -")
				genYAMLScalar(g, b, ind+"    ", anchors)
			}
		default:
			genYAMLScalar(g, b, ind+"  ", anchors)
		}
	}
	return anchors
}

// genYAMLScalar writes " value\n" in one of YAML's scalar styles.
func genYAMLScalar(g *gen, b *strings.Builder, ind string, anchors []string) {
	comment := ""
	if g.chance(4) {
		comment = " # " + g.value("\n", false)
	}
	if g.chance(5) {
		b.WriteString(g.pick(" !!str", " &"+g.key(lower)))
	}
	if g.chance(8) { // the value on the next line
		b.WriteString("\n" + ind)
	}
	switch g.intn(12) {
	case 0:
		b.WriteString(" '" + strings.ReplaceAll(g.value("\n", false), "'", "''") + "'" + comment + "\n")
	case 7: // double-quoted over several lines
		v := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(g.value("", true))
		b.WriteString(` "` + strings.ReplaceAll(v, "\n", "\n"+ind) + `"` + comment + "\n")
	case 8: // plain over several lines
		b.WriteString(" x" + g.plainValue() + "\n" + ind + "x" + g.plainValue() + comment + "\n")
	case 9: // flow sequence, maybe over several lines
		sep := g.pick(", ", ",\n"+ind)
		b.WriteString(" [" + quoteJSON(g.value("", true)) + sep + "'" + strings.ReplaceAll(g.value("\n", false), "'", "''") + "'" + sep + g.digits() + "]" + comment + "\n")
	case 10: // flow mapping
		b.WriteString(" {" + g.key(lower) + ": " + quoteJSON(g.value("", true)) + ", " + g.key(lower) + ": x" + g.plainValue() + "}" + comment + "\n")
	case 11: // folded block
		b.WriteString(" >-" + comment + "\n")
		for _, l := range strings.Split(g.value("", true), "\n") {
			b.WriteString(strings.TrimRight(ind+l, " ") + "\n")
		}
	case 1:
		v := g.plainValue()
		if !strings.ContainsAny(v[:1], lower+upper) {
			v = "x" + v
		}
		b.WriteString(" " + v + comment + "\n")
	case 2:
		b.WriteString(" |" + comment + "\n")
		for _, l := range strings.Split(g.value("", true), "\n") {
			b.WriteString(strings.TrimRight(ind+l, " ") + "\n")
		}
	case 3:
		b.WriteString(" " + g.digits() + comment + "\n")
	case 4:
		if len(anchors) > 0 {
			b.WriteString(" *" + anchors[g.intn(len(anchors))] + comment + "\n")
			return
		}
		fallthrough
	default:
		b.WriteString(" " + quoteJSON(g.value("", true)) + comment + "\n")
	}
}

func genTOML(g *gen) string {
	var b strings.Builder
	genTOMLPairs(g, &b)
	for n := g.intn(3); n > 0; n-- {
		b.WriteString("\n")
		if g.chance(2) {
			b.WriteString("[" + g.keep(g.key(lower)) + "]\n")
		} else {
			b.WriteString("[[" + g.keep(g.key(lower)) + "." + g.keep(g.key(lower)) + "]]\n")
		}
		genTOMLPairs(g, &b)
	}
	return b.String()
}

func genTOMLPairs(g *gen, b *strings.Builder) {
	for n := 1 + g.intn(5); n > 0; n-- {
		if g.chance(5) {
			b.WriteString("# " + g.value("\n", false) + g.eol())
		}
		switch g.intn(3) {
		case 0:
			b.WriteString(`"` + g.keep(g.key(lower+"-_")) + `"`)
		case 1:
			b.WriteString(g.keep(g.key(lower)) + "." + g.keep(g.key(lower)))
		default:
			b.WriteString(g.keep(g.key(lower + "-_")))
		}
		b.WriteString(g.pick(" = ", "=", "  =  "))
		genTOMLValue(g, b, 0)
		if g.chance(4) {
			b.WriteString(" # " + g.value("\n", false))
		}
		b.WriteString(g.eol())
	}
}

var tomlBasic = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

func genTOMLValue(g *gen, b *strings.Builder, depth int) {
	switch k := g.intn(9); {
	case k == 0:
		b.WriteString("'" + g.value("'", false) + "'")
	case k == 1:
		b.WriteString(`"""` + g.pick("", "\n") + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(g.value("", true)) + `"""`)
	case k == 2:
		b.WriteString("'''" + g.pick("", "\n") + g.value("'", true) + "'''")
	case k == 3:
		b.WriteString(g.pick("", "-", "+") + g.digits())
	case k == 4:
		b.WriteString(g.pick("true", "false", "1979-05-27T07:32:00Z", "1979-05-27 07:32:00", "inf"))
	case k == 5 && depth < 3:
		b.WriteString("[" + g.pick("", "\n  "))
		for n := g.intn(4); n > 0; n-- {
			genTOMLValue(g, b, depth+1)
			b.WriteString(g.pick(", ", ",\n  ", ", # "+g.value("\n", false)+"\n  "))
		}
		b.WriteString("]")
	case k == 6 && depth < 3:
		b.WriteString("{ ")
		for n := 1 + g.intn(3); n > 0; n-- {
			b.WriteString(g.key(lower) + " = ")
			genTOMLValue(g, b, depth+1)
			if n > 1 {
				b.WriteString(", ")
			}
		}
		b.WriteString(" }")
	default:
		b.WriteString(`"` + tomlBasic.Replace(g.value("", true)) + `"`)
	}
}

// genINI writes an INI file; aws adds nested keys and uses '=' only.
func genINI(g *gen, aws bool) string {
	var b strings.Builder
	seps := []string{" = ", "=", " =  ", ": "}
	if aws {
		seps = seps[:3]
	}
	for n := 1 + g.intn(3); n > 0; n-- {
		b.WriteString("[" + g.keep(g.pick("", "profile ")+g.key(lower+"-_")) + "]" + g.eol())
		for m := 1 + g.intn(5); m > 0; m-- {
			if g.chance(5) {
				b.WriteString(g.pick("#", ";", "# ") + g.value("\n", false) + g.eol())
			}
			b.WriteString(g.keep(g.key(lower+"_")) + seps[g.intn(len(seps))])
			switch {
			case aws && g.chance(4):
				b.WriteString(g.eol())
				for k := 1 + g.intn(3); k > 0; k-- {
					b.WriteString("  " + g.keep(g.key(lower+"_")) + " = " + g.value("\n", false) + g.eol())
				}
			case !aws && g.chance(4):
				b.WriteString(g.value("\n", false) + g.eol())
				for k := 1 + g.intn(3); k > 0; k-- {
					b.WriteString(g.pick("  ", "    ", "\t") + g.value("\n", false) + g.eol())
				}
			case g.chance(6):
				b.WriteString(g.eol())
			default:
				b.WriteString(g.value("\n", false) + g.eol())
			}
		}
		if g.chance(2) {
			b.WriteString(g.eol())
		}
	}
	return b.String()
}

func genNpmrc(g *gen) string {
	var b strings.Builder
	for n := 1 + g.intn(6); n > 0; n-- {
		if g.chance(4) {
			b.WriteString(g.pick("; ", "# ") + g.value("\n", false) + g.eol())
		}
		var k string
		switch g.intn(4) {
		case 0:
			k = "//" + g.key(lower) + ".example.com/" + g.pick("", "npm/") + ":_" + g.pick("authToken", "auth", "password")
		case 1:
			k = "@" + g.key(lower) + ":registry"
		default:
			k = g.key(lower + "-")
		}
		b.WriteString(g.keep(k) + g.pick("=", " = ") + g.value("\n", false) + g.eol())
	}
	return b.String()
}

func genNetrc(g *gen) string {
	var b strings.Builder
	token := func() string {
		v := g.value("\n", false)
		if strings.ContainsAny(v, " \t\"\\") || v[0] == '#' {
			return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(v) + `"`
		}
		return v
	}
	for n := 1 + g.intn(4); n > 0; n-- {
		if g.chance(4) {
			b.WriteString("# " + g.value("\n", false) + "\n")
		}
		if n == 1 && g.chance(3) {
			b.WriteString("default")
		} else {
			b.WriteString("machine " + g.keep(g.key(lower)+".example.org"))
		}
		for _, f := range []string{"login", "password", "account"} {
			if g.chance(4) {
				continue
			}
			b.WriteString(g.pick(" ", "\n  ", "\n\t") + f + " " + token())
		}
		b.WriteString("\n")
		if g.chance(4) {
			b.WriteString("macdef " + g.keep(g.key(lower)) + "\n")
			for m := 1 + g.intn(3); m > 0; m-- {
				b.WriteString(g.value("\n", false) + "\n")
			}
			b.WriteString("\n")
		}
	}
	return b.String()
}

func genPEM(g *gen) string {
	var b strings.Builder
	if g.chance(3) {
		b.WriteString("x" + g.value("\n", false) + "\n")
	}
	for n := 1 + g.intn(3); n > 0; n-- {
		label := g.pick("RSA PRIVATE KEY", "CERTIFICATE", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY")
		b.WriteString("-----BEGIN " + g.keep(label) + "-----\n")
		if g.chance(3) {
			b.WriteString(g.keep("Proc-Type") + ": " + g.value("\n", false) + "\n")
			b.WriteString(g.keep("DEK-Info") + ": " + g.value("\n", false) + "\n\n")
		}
		raw := make([]byte, 20+g.intn(200))
		for i := range raw {
			raw[i] = byte(g.intn(256))
		}
		body := base64.StdEncoding.EncodeToString(raw)
		for len(body) > 0 {
			l := body[:min(64, len(body))]
			body = body[len(l):]
			b.WriteString(l + "\n")
			if len(l) >= 8 && strings.ContainsAny(l, "0123456789+/") {
				g.values = append(g.values, l) // the output has no digit, '+' or '/'
			}
		}
		b.WriteString("-----END " + label + "-----\n")
	}
	return b.String()
}

// generators lists, per format, the file names it is served under and the
// generator.
var generators = []struct {
	format string
	names  []string
	gen    func(*gen) string
}{
	{FormatDotenv, []string{".env", ".env.local", "prod.env"}, genDotenv},
	{FormatJSON, []string{"settings.json"}, genJSON},
	{FormatYAML, []string{"config.yaml", "ci.yml"}, genYAML},
	{FormatTOML, []string{"Cargo.toml"}, genTOML},
	{FormatINI, []string{"setup.cfg", ".pypirc", "a.ini"}, func(g *gen) string { return genINI(g, false) }},
	{FormatAWS, []string{"/home/u/.aws/credentials", "/home/u/.aws/config"}, func(g *gen) string { return genINI(g, true) }},
	{FormatNpmrc, []string{".npmrc"}, genNpmrc},
	{FormatNetrc, []string{".netrc"}, genNetrc},
	{FormatPEM, []string{"id_rsa", "server.pem"}, genPEM},
}
