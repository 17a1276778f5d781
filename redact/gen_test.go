package redact

import (
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
