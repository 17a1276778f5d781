package redact

import (
	"encoding/base64"
	"strings"
)

// Generators of FuzzRenderNoLeak for YAML, TOML, the INI family, netrc and
// PEM (see gen_test.go).

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
