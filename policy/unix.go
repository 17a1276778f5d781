package policy

import (
	"fmt"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/goccy/go-yaml/ast"
)

// Unix holds unix:, the unix sockets outside the sandbox the agent may
// reach. Connect rules carry a glob over canonical socket paths as Pattern.
type Unix struct {
	Connect        []Rule // "unix.connect"
	Datagram       Action // "" (follow default:), Allow or Deny
	DatagramSource Source // where datagram: was written
}

var (
	unixKeys     = []string{"connect", "datagram"}
	datagramVals = []string{"deny", "allow"}
)

// unix reads unix.connect and unix.datagram.
func (ps *parser) unix(key string, v ast.Node) {
	if key == "datagram" {
		if s, ok := ps.enum(v, "unix.datagram", datagramVals); ok {
			ps.p.Unix.Datagram, ps.p.Unix.DatagramSource = Action(s), ps.src(v)
		}
		return
	}
	ps.list(v, "unix.connect", func(_ int, item ast.Node, comment string) {
		pattern, ok := ps.scalar(item, "unix.connect")
		if !ok {
			return
		}
		if msg := connectPattern(pattern); msg != "" {
			ps.add(ps.src(item), "unix.connect: %s", msg)
			return
		}
		ps.p.Unix.Connect = append(ps.p.Unix.Connect, Rule{List: "unix.connect", Pattern: pattern,
			Source: ps.src(item), Profile: ps.p.Name, Comment: comment})
	})
}

// connectPattern says why a unix.connect pattern is refused, or "". A
// socket is named by its full path, so a pattern anchored anywhere
// ("agent.sock", "**/bus") is refused: it would reach every such socket.
func connectPattern(p string) string {
	if msg := validGlob(p); msg != "" {
		return msg
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, "${") {
		return fmt.Sprintf("%q must be an absolute path or glob (start with /, ~/ or ${VAR})", p)
	}
	return ""
}

// mergeUnix applies child's unix: over parent's: connect lists are the
// union, a datagram: set in the child wins.
func mergeUnix(parent, child Unix) Unix {
	m := Unix{Connect: union(parent.Connect, child.Connect), Datagram: parent.Datagram, DatagramSource: parent.DatagramSource}
	if child.Datagram != "" {
		m.Datagram, m.DatagramSource = child.Datagram, child.DatagramSource
	}
	return m
}

// unixRules is the compiled unix: section.
type unixRules struct {
	connect  []compiled // rank unused
	unlisted int32      // the rule of a connect no unix.connect entry allows
	datagram int32      // the rule of OpDatagram
	dgramOK  bool       // OpDatagram is allowed
}

// compileUnix expands the connect globs and settles the datagram rule.
func (e *Engine) compileUnix(u Unix) []*Error {
	var errs []*Error
	for _, r := range u.Connect {
		g, err := expandGlob(r.Pattern, e.vars)
		if err == nil && !doublestar.ValidatePattern(g) {
			err = fmt.Errorf("invalid glob %q", g)
		}
		if err != nil {
			errs = append(errs, &Error{File: r.Source.File, Line: r.Source.Line, Column: r.Source.Column, Msg: fmt.Sprintf("unix.connect %q: %v", r.Pattern, err)})
			continue
		}
		r.Glob = g
		e.unix.connect = append(e.unix.connect, compiled{rule: e.add(r), m: compileGlob(g)})
	}
	e.unix.unlisted = e.add(Rule{List: "unix.connect", Comment: "socket not listed in unix.connect: connecting is refused"})
	switch {
	case u.Datagram != "":
		e.unix.datagram = e.add(Rule{List: "unix.datagram", Pattern: string(u.Datagram), Source: u.DatagramSource, Profile: e.policy.Name})
		e.unix.dgramOK = u.Datagram == Allow
	case e.policy.DefaultAction() == Allow:
		e.unix.datagram, e.unix.dgramOK = e.def, true
	default:
		e.unix.datagram = e.add(Rule{List: "unix.datagram", Pattern: string(Deny),
			Comment: "unix datagram sockets are refused: a datagram can be sent to any socket path, which no rule could check"})
	}
	return errs
}

// decideUnix decides OpConnect and OpDatagram on a canonical path.
//
//   - connect: a filesystem deny rule refuses; else a unix.connect entry
//     allows; else default: allow allows; else refused. Filesystem allow
//     rules never grant connect: a folder the agent may write can hold the
//     Docker socket or ssh-agent's.
//   - datagram (the path is not looked at): unix.datagram decides; unset,
//     default: decides.
//
// A refusal is EACCES.
func (e *Engine) decideUnix(op Op, path string) cached {
	if op == OpDatagram {
		if e.unix.dgramOK {
			return cached{action: Allow, rule: e.unix.datagram}
		}
		return cached{action: Deny, errno: EACCES, rule: e.unix.datagram}
	}
	if i := e.best(path); i >= 0 && e.rules[i].rank == rankDeny {
		return cached{action: Deny, errno: EACCES, rule: e.rules[i].rule}
	}
	for _, c := range e.unix.connect {
		if c.m.match(path) {
			return cached{action: Allow, rule: c.rule}
		}
	}
	if e.policy.DefaultAction() == Allow {
		return cached{action: Allow, rule: e.def}
	}
	return cached{action: Deny, errno: EACCES, rule: e.unix.unlisted}
}

// connectMatches returns the unix.connect rules matching path.
func (e *Engine) connectMatches(path string) []Rule {
	var out []Rule
	for _, c := range e.unix.connect {
		if c.m.match(path) {
			out = append(out, e.table[c.rule])
		}
	}
	return out
}

// ConnectRules returns the unix.connect rules with their expanded Glob.
func (e *Engine) ConnectRules() []Rule {
	out := make([]Rule, len(e.unix.connect))
	for i, c := range e.unix.connect {
		out[i] = e.table[c.rule]
	}
	return out
}

// escapeSockets are names of sockets whose service acts outside the
// sandbox for whoever connects: a unix.connect entry naming one is worth a
// warning even when it is exact.
var escapeSockets = []struct{ name, what string }{
	{"docker.sock", "the Docker daemon (docker run -v /:/host is root on the machine)"},
	{"podman.sock", "the Podman service (containers with your files mounted)"},
	{"containerd.sock", "containerd (containers run outside the sandbox)"},
	{"/bus", "a D-Bus bus (systemd-run --user and service activation run commands outside)"},
	{"system_bus_socket", "the D-Bus system bus"},
	{"/systemd/private", "systemd's private socket (starts units outside)"},
	{"S.gpg-agent", "gpg-agent (signs and decrypts with your keys)"},
	{"/agent.", "an ssh-agent (signs with your keys: git push, ssh)"},
	{"tmux-", "a tmux server (send-keys types commands into your other sessions)"},
}

// checkUnix warns about unix: settings that reopen what the section
// closes: datagram: allow, connect globs reaching every socket of the
// filesystem or of the home directory, and entries naming a socket whose
// service acts outside the sandbox.
func (e *Engine) checkUnix() []Finding {
	var out []Finding
	u := e.policy.Unix
	if u.Datagram == Allow {
		out = append(out, Finding{SeverityWarning, "unix.datagram: allow lets the agent send datagrams to any socket it can name: /dev/log, systemd's $NOTIFY_SOCKET, any datagram daemon", u.DatagramSource})
	}
	home := escapeGlob(e.vars.Home)
	for _, r := range e.ConnectRules() {
		lit := r.Glob
		if i := strings.IndexAny(lit, `*?[{\`); i >= 0 {
			lit = lit[:i]
		}
		if lit == "/" || lit == "/run/" || lit == "/tmp/" || (home != "" && lit == home+"/") {
			out = append(out, Finding{SeverityWarning, r.ID() + ": reaches every socket under " + lit + ": the Docker socket, ssh-agent, the D-Bus bus, tmux and gpg-agent are ways out of the sandbox", r.Source})
			continue
		}
		for _, s := range escapeSockets {
			if strings.Contains(r.Glob, s.name) {
				out = append(out, Finding{SeverityWarning, r.ID() + ": reaches " + s.what + ", a way out of the sandbox: list it only to give the agent that", r.Source})
				break
			}
		}
	}
	return out
}

// unixWhy says why a rule that matched a connect did not decide it.
func unixWhy(r Rule) string {
	if r.List == "deny" || r.List == "unix.connect" {
		return ""
	}
	return "not applied: filesystem rules do not grant connect; list the socket in unix.connect"
}
