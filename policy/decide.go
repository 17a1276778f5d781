package policy

import "slices"

// Decide returns the decision for op on path, a canonical absolute path
// (symlinks resolved, no "." or ".." segments, no trailing slash). Any other
// path is denied (rule "invalid-path"). The winning rule is the
// highest-precedence matching rule (deny > redact > read_only >
// allow_write > allow_read > default); what it means depends on the
// operation:
//
//	op                    deny           redact         read_only    allow_write  allow_read   no rule
//	read                  Deny ENOENT*   Redact         Allow        Allow        Allow        default
//	stat                  Deny ENOENT*   Redact         Allow        Allow        Allow        traverse, else default
//	exec                  Deny ENOENT*   Deny EACCES    Allow        Allow        Allow        default
//	write, unlink         Deny EACCES    Redact EACCES  Deny EACCES  Allow        Deny EACCES  default
//	create                Deny EACCES    (see below)    Deny EACCES  Allow        Deny EACCES  default
//	mkdir                 as create                                                            traverse-write, else default
//	rename, link (source) Deny EACCES    Deny EACCES    Deny EACCES  Allow        Deny EACCES  default
//	connect               Deny EACCES    unix.connect decides (see decideUnix)
//	datagram              unix.datagram decides, the path is not looked at
//
// (*) EACCES instead when the deny rule says errno: EACCES. A default of
// deny gives ENOENT for read, stat and exec and EACCES for the others; a
// default of allow gives Allow. "traverse": a directory at or above the
// literal directory of an allow_read or allow_write pattern (/home and
// /home/u for ${PROJECT}=/home/u/p) exists for stat, so the agent can walk
// to what it may use; its contents stay hidden from read unless allowed.
// "traverse-write": a missing directory above the literal directory of an
// allow_write pattern may be created (mkdir only, never a file), so an
// agent's first run can make ~/.local before writing ~/.local/share/opencode.
// Redact EACCES means the mutation is refused: a redacted file is never
// written, truncated, deleted, renamed or linked. Rename and link decide the
// source; callers decide the target name with OpCreate, so a denied or
// redacted file can never be moved or linked into an allowed name.
//
// A redact rule does not decide create and mkdir: a new name holds nothing
// of the user's, so creating .env.local or unpacking a .env is decided by
// the rules below redact (read_only, allow_write, allow_read, the default),
// as if the redact rule were not there. OpCreate therefore says nothing
// about an existing file at that name: a caller that may replace one
// (rename onto an existing name) must also decide OpUnlink on it, which a
// redact rule refuses. Reads of the new file are redacted like any other.
//
// Redact and read_only narrow, they never widen: they apply only where the
// path is readable without them (an allow_write or allow_read rule matches,
// or the default is allow). Elsewhere they are ignored and the default
// decides, so redact '**/.env' does not reveal that ~/other/.env exists.
//
// "guard": the directories above a read_only path (and the literal
// directory of a read_only pattern) cannot be created, renamed or removed
// (Deny EACCES, rule list "guard"), whatever allows them: otherwise the
// agent could move the directory away, write the path under the new name
// and move it back.
func (e *Engine) Decide(op Op, path string) Decision {
	if !validOp(op) {
		return e.decision(e.decide(op, path))
	}
	if c, ok := e.cache.get(op, path); ok {
		return e.decision(c)
	}
	c := e.decide(op, path)
	e.cache.put(op, path, c)
	return e.decision(c)
}

func (e *Engine) decision(c cached) Decision {
	return Decision{Action: c.action, Errno: c.errno, Rule: e.table[c.rule]}
}

// decide evaluates the table of Decide without the cache.
func (e *Engine) decide(op Op, path string) cached {
	if !isCanonical(path) {
		return cached{action: Deny, errno: denyErrno(op), rule: e.bad}
	}
	if op == OpConnect || op == OpDatagram {
		return e.decideUnix(op, path)
	}
	rank, rule := rankNone, e.def
	if i := e.best(path); i >= 0 {
		rank, rule = e.rules[i].rank, e.rules[i].rule
		if (rank == rankRedact || rank == rankReadOnly) && !e.reachable(path) {
			rank, rule = rankNone, e.def // redact and read_only narrow an allow; they never widen
		}
		if rank == rankRedact && (op == OpCreate || op == OpMkdir) {
			rank, rule = e.below(path, e.unredacted) // a new name holds nothing of the user's
		}
	}
	if rank == rankNone && op == OpStat {
		if t, ok := e.trav[path]; ok {
			return cached{action: Allow, rule: t}
		}
	}
	if rank == rankNone && op == OpMkdir {
		_, guarded := e.guard[path]
		if t, ok := e.travWrite[path]; ok && !guarded {
			return cached{action: Allow, rule: t}
		}
	}
	c := outcome(op, rank, rule, e.table[rule].Errno, e.policy.DefaultAction())
	if c.action == Allow && (op == OpCreate || op == OpMkdir || op == OpRename || op == OpUnlink) {
		if g, ok := e.guard[path]; ok {
			return cached{action: Deny, errno: EACCES, rule: g}
		}
	}
	return c
}

// below returns the best rule matching path from index from (in e.rules)
// on, with its rank, or the default rule.
func (e *Engine) below(path string, from int) (int, int32) {
	if i := e.first(path, from); i >= 0 {
		return e.rules[i].rank, e.rules[i].rule
	}
	return rankNone, e.def
}

// outcome is the table of Decide for one operation and winning list.
func outcome(op Op, rank int, rule int32, ruleErrno Errno, def Action) cached {
	hiding := op == OpRead || op == OpStat || op == OpExec
	switch {
	case !validOp(op):
		return cached{action: Deny, errno: EACCES, rule: rule}
	case rank == rankNone && def == Allow:
		return cached{action: Allow, rule: rule}
	case rank == rankNone:
		return cached{action: Deny, errno: denyErrno(op), rule: rule}
	case rank == rankDeny && hiding && ruleErrno != "":
		return cached{action: Deny, errno: ruleErrno, rule: rule}
	case rank == rankDeny:
		return cached{action: Deny, errno: denyErrno(op), rule: rule}
	case rank == rankRedact && (op == OpRead || op == OpStat):
		return cached{action: Redact, rule: rule}
	case rank == rankRedact && (op == OpWrite || op == OpCreate || op == OpMkdir || op == OpUnlink):
		return cached{action: Redact, errno: EACCES, rule: rule}
	case rank == rankRedact:
		return cached{action: Deny, errno: EACCES, rule: rule}
	case (rank == rankReadOnly || rank == rankRead) && !hiding:
		return cached{action: Deny, errno: EACCES, rule: rule}
	}
	return cached{action: Allow, rule: rule}
}

// denyErrno is the errno of a plain denial: reads hide, writes refuse.
func denyErrno(op Op) Errno {
	if op == OpRead || op == OpStat || op == OpExec {
		return ENOENT
	}
	return EACCES
}

func validOp(op Op) bool {
	for _, o := range Ops {
		if o == op {
			return true
		}
	}
	return false
}

// DecideExec decides executing the file at path with argv. First the file
// itself, as Decide(OpExec, path); then, on an allowed file:
//
//   - exec.deny: denied (EACCES) when the basename of path or of argv[0] is
//     listed;
//   - exec.allow: when the list is not empty, the basename of path must be
//     in it (argv[0] is chosen by the caller and proves nothing), else
//     denied (EACCES);
//   - exec.deny_args: for a command named by the basename of path or of
//     argv[0], a pattern's space-separated tokens appearing as a contiguous
//     run of argv[1:] deny (EACCES): "push --force" denies
//     "git push --force origin" but not "git push origin --force" nor
//     "git push -f".
//
// Matching by name is a convenience, not a boundary: a copied or renamed
// binary has another name. The boundary is which files are executable at
// all (the filesystem rules, and Landlock's EXECUTE right).
func (e *Engine) DecideExec(path string, argv []string) Decision {
	d := e.Decide(OpExec, path)
	if !d.Allowed() {
		return d
	}
	base, arg0 := baseName(path), ""
	if len(argv) > 0 {
		arg0 = baseName(argv[0])
	}
	if r, ok := e.exec.denied(base, arg0); ok {
		return Decision{Action: Deny, Errno: EACCES, Rule: r}
	}
	if r, ok := e.exec.notAllowed(base); ok {
		return Decision{Action: Deny, Errno: EACCES, Rule: r}
	}
	var args []string
	if len(argv) > 1 {
		args = argv[1:]
	}
	if r, ok := e.exec.deniedArgs(base, arg0, args); ok {
		return Decision{Action: Deny, Errno: EACCES, Rule: r}
	}
	return d
}

// Explanation is a decision with every matching rule it beat.
type Explanation struct {
	Op       Op
	Path     string
	Decision Decision
	Beaten   []Rule // other matching filesystem rules, in precedence order (with redact rules an except: takes Path out of)

	unreached bool // no allow rule reaches Path: redact and read_only rules do not apply
}

// Why says why a rule of Beaten did not decide, when precedence alone does
// not say it: a redact or read_only rule that matched a path no allow rule
// reaches.
// It returns "" otherwise.
func (x Explanation) Why(r Rule) string {
	if x.Op == OpConnect {
		return unixWhy(r)
	}
	if ex := excepting(r, x.Path); ex != "" {
		return "not applied: the rule's except " + ex + " matches this path"
	}
	if x.unreached && (r.List == "redact" || r.List == "read_only") {
		return "not applied: " + r.List + " only narrows what an allow rule grants, and no allow rule reaches this path"
	}
	if r.List == "redact" && (x.Op == OpCreate || x.Op == OpMkdir) && x.Decision.Rule.List != "redact" {
		return "not applied: redact refuses changes to an existing file; a new name holds nothing of the user's and is decided by the rules below redact"
	}
	return ""
}

// excepting returns the except glob of r that matches path, or "".
func excepting(r Rule, path string) string {
	for i, g := range r.ExceptGlobs {
		if m := compileGlob(g); m.match(path) && i < len(r.Except) {
			return r.Except[i]
		}
	}
	return ""
}

// Explain decides like Decide (without the cache) and also returns every
// other filesystem rule that matches path, in precedence order (for
// connect, the other matching unix.connect rules first).
func (e *Engine) Explain(op Op, path string) Explanation {
	x := Explanation{Op: op, Path: path, Decision: e.decision(e.decide(op, path))}
	if !isCanonical(path) || op == OpDatagram {
		return x
	}
	x.unreached = !e.reachable(path)
	var matched []Rule
	if op == OpConnect {
		matched = e.connectMatches(path)
	}
	for _, i := range e.matches(path) {
		matched = append(matched, e.table[e.rules[i].rule])
	}
	for _, r := range matched {
		if r.List == x.Decision.Rule.List && r.Pattern == x.Decision.Rule.Pattern && r.Source == x.Decision.Rule.Source {
			continue
		}
		x.Beaten = append(x.Beaten, r)
	}
	return x
}

// containsRun reports whether tokens appear as a contiguous run of args.
func containsRun(args, tokens []string) bool {
	if len(tokens) == 0 || len(tokens) > len(args) {
		return false
	}
	for i := 0; i+len(tokens) <= len(args); i++ {
		if slices.Equal(args[i:i+len(tokens)], tokens) {
			return true
		}
	}
	return false
}
