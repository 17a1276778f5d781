package broker

import (
	"path/filepath"
	"strings"

	"github.com/aixbroker/aixbroker/policy"
)

// auditLogRule is the rule of the refusals that keep the agent away from
// the audit log's files, whatever the policy allows.
var auditLogRule = policy.Rule{List: "audit-log", Pattern: "the audit log's files are never touched by the sandbox"}

// auditGuard knows the audit log's files: the log (dir/base), its rotated
// files, head, head temporaries and lock (dir/base.*), and the folders
// above them.
type auditGuard struct {
	dir, base string
}

// GuardAuditLog makes the broker refuse the agent every access to the
// audit log at path and to its side files (rotated files, head, lock),
// and the removal or renaming of the log's folder and of every folder
// above it, whatever the policy says: a log given with --audit below a
// folder the agent may write would otherwise be the agent's to read,
// delete or replace by a symbolic link. path need not exist yet; its
// folder must. Call it before the broker is used.
func (b *Broker) GuardAuditLog(path string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return
	}
	dir := filepath.Dir(abs)
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real // decisions are taken on canonical paths
	}
	b.guard = &auditGuard{dir: dir, base: filepath.Base(abs)}
}

// refuses reports whether op on the canonical path touches the audit log.
func (g *auditGuard) refuses(op policy.Op, path string) bool {
	if g == nil {
		return false
	}
	if path == g.dir || strings.HasPrefix(g.dir, path+"/") || path == "/" {
		// The log's folder or one above it: listing and lookups go
		// through, moving or removing it (to put another in its place)
		// does not.
		switch op {
		case policy.OpRename, policy.OpUnlink:
			return true
		case policy.OpWrite, policy.OpCreate, policy.OpMkdir, policy.OpLink:
			return path == g.dir
		}
		return false
	}
	parent, name := filepath.Split(path)
	if len(parent) < 2 || parent[:len(parent)-1] != g.dir {
		return false
	}
	return name == g.base || strings.HasPrefix(name, g.base+".")
}

func (g *auditGuard) deny() policy.Decision {
	r := auditLogRule
	r.Glob = g.dir + "/" + g.base + "{,.*}"
	return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: r}
}
