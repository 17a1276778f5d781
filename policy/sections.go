package policy

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/goccy/go-yaml/ast"
)

// top reads the document's root mapping.
func (ps *parser) top(n ast.Node) {
	p := ps.p
	hasProfile := false
	ps.fields(n, "policy", topKeys, func(key string, v ast.Node) {
		switch key {
		case "profile":
			hasProfile = true
			if s, ok := ps.scalar(v, "profile"); ok && s == "" {
				ps.add(ps.src(v), "profile must not be empty")
			} else {
				p.Name = s
			}
		case "extends":
			if s, ok := ps.scalar(v, "extends"); ok && s == "" {
				ps.add(ps.src(v), "extends must not be empty")
			} else {
				p.Extends, p.ExtendsSource = s, ps.src(v)
			}
		case "default":
			if s, ok := ps.enum(v, "default", defaultVals); ok {
				p.Default, p.DefaultSource = Action(s), ps.src(v)
			}
		case "filesystem":
			ps.fields(v, "filesystem", fsKeys, ps.filesystem)
		case "exec":
			ps.fields(v, "exec", execKeys, ps.exec)
		case "env":
			ps.fields(v, "env", envKeys, ps.env)
		case "unix":
			ps.fields(v, "unix", unixKeys, ps.unix)
		case "ipc":
			ps.fields(v, "ipc", ipcKeys, ps.ipc)
		case "audit":
			p.Audit.Source = ps.src(v)
			ps.fields(v, "audit", auditKeys, ps.audit)
		case "tests":
			ps.list(v, "tests", func(_ int, item ast.Node, _ string) { ps.test(item) })
		}
	})
	if _, isMap := n.(*ast.MappingNode); (isMap || isMappingValue(n)) && !hasProfile {
		ps.add(ps.src(n), "missing required key profile")
	}
}

func isMappingValue(n ast.Node) bool {
	_, ok := n.(*ast.MappingValueNode)
	return ok
}

// filesystem reads one of the five rule lists.
func (ps *parser) filesystem(key string, v ast.Node) {
	what := "filesystem." + key
	ps.list(v, what, func(_ int, item ast.Node, comment string) {
		r, ok := ps.fsRule(key, item)
		if !ok {
			return
		}
		r.Comment = comment
		fs := &ps.p.Filesystem
		switch key {
		case "allow_read":
			fs.AllowRead = append(fs.AllowRead, r)
		case "allow_write":
			fs.AllowWrite = append(fs.AllowWrite, r)
		case "read_only":
			fs.ReadOnly = append(fs.ReadOnly, r)
		case "redact":
			fs.Redact = append(fs.Redact, r)
		case "deny":
			fs.Deny = append(fs.Deny, r)
		}
	})
}

// fsRule reads a list entry: a glob, or a mapping {path: GLOB} with mode:
// and except: (redact) or errno: (deny).
func (ps *parser) fsRule(list string, item ast.Node) (Rule, bool) {
	what := "filesystem." + list
	r := Rule{List: list, Source: ps.src(item), Profile: ps.p.Name}
	if list == "redact" {
		r.Mode = "keys"
	}
	item, ok := ps.value(item, what)
	if !ok {
		return r, false
	}
	switch item.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		valid := []string{"path"}
		switch list {
		case "redact":
			valid = append(valid, "mode", "except")
		case "deny":
			valid = append(valid, "errno")
		}
		ps.fields(item, what+" entry", valid, func(key string, v ast.Node) {
			switch key {
			case "path":
				r.Pattern, ok = ps.scalar(v, what+".path")
				r.Source = ps.src(v)
			case "mode":
				r.Mode, _ = ps.enum(v, what+".mode", redactModes)
			case "except":
				r.Except = ps.exceptList(v, what+".except")
			case "errno":
				e, _ := ps.enum(v, what+".errno", errnoVals)
				r.Errno = Errno(e)
			}
		})
		if r.Pattern == "" && ok {
			ps.add(ps.src(item), "%s entry: missing required key path", what)
			return r, false
		}
	default:
		r.Pattern, ok = ps.scalar(item, what)
	}
	if !ok {
		return r, false
	}
	if msg := validGlob(r.Pattern); msg != "" {
		ps.add(r.Source, "%s: %s", what, msg)
		return r, false
	}
	return r, true
}

// exceptList reads the except: globs of a redact entry.
func (ps *parser) exceptList(n ast.Node, what string) []string {
	var out []string
	ps.list(n, what, func(_ int, item ast.Node, _ string) {
		g, ok := ps.scalar(item, what)
		if !ok {
			return
		}
		if msg := validGlob(g); msg != "" {
			ps.add(ps.src(item), "%s: %s", what, msg)
			return
		}
		out = append(out, g)
	})
	return out
}

// exec reads exec.allow, exec.deny and exec.deny_args.
func (ps *parser) exec(key string, v ast.Node) {
	what := "exec." + key
	if key == "deny_args" {
		ps.denyArgs(v)
		return
	}
	ps.list(v, what, func(_ int, item ast.Node, comment string) {
		name, ok := ps.scalar(item, what)
		if !ok {
			return
		}
		if name == "" || strings.ContainsAny(name, "/\x00") {
			ps.add(ps.src(item), "%s: %q must be a command basename such as git, not a path", what, name)
			return
		}
		r := Rule{List: what, Pattern: name, Source: ps.src(item), Profile: ps.p.Name, Comment: comment}
		if key == "allow" {
			ps.p.Exec.Allow = append(ps.p.Exec.Allow, r)
		} else {
			ps.p.Exec.Deny = append(ps.p.Exec.Deny, r)
		}
	})
}

// denyArgs reads exec.deny_args: a mapping of command → argument sequences.
func (ps *parser) denyArgs(v ast.Node) {
	values := ps.mapping(v, "exec.deny_args")
	for _, m := range values {
		cmd, ok := ps.key(m, "exec.deny_args")
		if !ok {
			continue
		}
		if cmd == "" || strings.ContainsAny(cmd, "/\x00") {
			ps.add(ps.src(m.Key), "exec.deny_args: %q must be a command basename", cmd)
			continue
		}
		what := "exec.deny_args." + cmd
		ps.list(m.Value, what, func(_ int, item ast.Node, comment string) {
			args, ok := ps.scalar(item, what)
			if !ok {
				return
			}
			if len(strings.Fields(args)) == 0 {
				ps.add(ps.src(item), "%s: empty argument pattern", what)
				return
			}
			ps.p.Exec.DenyArgs = append(ps.p.Exec.DenyArgs, Rule{List: "exec.deny_args", Command: cmd,
				Pattern: strings.Join(strings.Fields(args), " "), Source: ps.src(item), Profile: ps.p.Name, Comment: comment})
		})
	}
}

// env reads env.pass_through, env.strip and env.inject.
func (ps *parser) env(key string, v ast.Node) {
	what := "env." + key
	if key == "inject" {
		ps.inject(v)
		return
	}
	ps.list(v, what, func(_ int, item ast.Node, comment string) {
		name, ok := ps.scalar(item, what)
		if !ok {
			return
		}
		if name == "" || strings.ContainsAny(name, "=\x00/") || !doublestar.ValidatePattern(name) {
			ps.add(ps.src(item), "%s: %q is not a variable name or name glob", what, name)
			return
		}
		r := Rule{List: what, Pattern: name, Source: ps.src(item), Profile: ps.p.Name, Comment: comment}
		if key == "pass_through" {
			ps.p.Env.PassThrough = append(ps.p.Env.PassThrough, r)
		} else {
			ps.p.Env.Strip = append(ps.p.Env.Strip, r)
		}
	})
}

// inject reads env.inject: a mapping of variable name → value.
func (ps *parser) inject(v ast.Node) {
	for _, m := range ps.mapping(v, "env.inject") {
		name, ok := ps.key(m, "env.inject")
		if !ok {
			continue
		}
		if name == "" || strings.ContainsAny(name, "=\x00") {
			ps.add(ps.src(m.Key), "env.inject: %q is not a variable name", name)
			continue
		}
		val, ok := ps.scalar(m.Value, "env.inject."+name)
		if !ok {
			continue
		}
		if strings.ContainsRune(val, 0) {
			ps.add(ps.src(m.Value), "env.inject.%s: value contains a NUL byte", name)
			continue
		}
		ps.p.Env.Inject = append(ps.p.Env.Inject, Inject{Name: name, Value: val, Source: ps.src(m.Key)})
	}
}

// audit reads the audit section.
func (ps *parser) audit(key string, v ast.Node) {
	a := &ps.p.Audit
	switch key {
	case "log":
		s, ok := ps.scalar(v, "audit.log")
		if !ok {
			return
		}
		if err := checkVars(s); err != nil || s == "" {
			ps.add(ps.src(v), "audit.log: %s", orDefault(errText(err), "empty path"))
			return
		}
		a.Log = s
	case "on_deny":
		a.OnDeny, _ = ps.enum(v, "audit.on_deny", onDenyVals)
	case "on_allow":
		a.OnAllow, _ = ps.enum(v, "audit.on_allow", onAllowVals)
	}
}

// test reads one entry of tests:.
func (ps *parser) test(item ast.Node) {
	t := Test{Op: OpRead, Source: ps.src(item)}
	if k := kind(item); k != "a mapping" {
		ps.add(t.Source, "tests entry must be a mapping {path, op, want}, got %s", k)
		return
	}
	ok := true
	ps.fields(item, "tests entry", testKeys, func(key string, v ast.Node) {
		switch key {
		case "path":
			var good bool
			if t.Path, good = ps.scalar(v, "tests.path"); good {
				if err := checkVars(t.Path); err != nil {
					ps.add(ps.src(v), "tests.path: %v", err)
					good = false
				}
			}
			ok = ok && good
		case "op":
			s, good := ps.enum(v, "tests.op", opNames())
			t.Op, ok = Op(s), ok && good
		case "want":
			s, good := ps.enum(v, "tests.want", testWantVals)
			t.Want, ok = Action(s), ok && good
		}
	})
	switch {
	case !ok:
	case t.Path == "":
		ps.add(t.Source, "tests entry: missing required key path")
	case t.Want == "":
		ps.add(t.Source, "tests entry: missing required key want")
	default:
		ps.p.Tests = append(ps.p.Tests, t)
	}
}

func opNames() []string {
	names := make([]string, len(Ops))
	for i, op := range Ops {
		names[i] = string(op)
	}
	return names
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprint(err)
}
