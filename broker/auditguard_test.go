package broker

import (
	"path/filepath"
	"testing"

	"github.com/aixbroker/aixbroker/policy"
)

// TestGuardAuditLog (review R1a): whatever the policy allows, the agent
// neither reaches the audit log's files nor moves a folder above them.
func TestGuardAuditLog(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	log := filepath.Join(dir, "session.jsonl")
	b := New(allowAll{}, nil)
	b.GuardAuditLog(log)
	cases := []struct {
		op   policy.Op
		path string
		deny bool
	}{
		{policy.OpRead, log, true},
		{policy.OpStat, log, true},
		{policy.OpUnlink, log, true},
		{policy.OpCreate, log + ".new", true},
		{policy.OpCreate, log + ".head.tmp", true},
		{policy.OpWrite, log + ".head", true},
		{policy.OpRead, log + ".lock", true},
		{policy.OpRename, log + ".3", true},
		{policy.OpLink, log, true},
		{policy.OpExec, log, true},
		{policy.OpRename, dir, true},
		{policy.OpUnlink, dir, true},
		{policy.OpRename, filepath.Dir(dir), true},
		{policy.OpMkdir, dir, true},
		{policy.OpRead, dir, false}, // listing the folder
		{policy.OpCreate, filepath.Join(dir, "other.txt"), false},
		{policy.OpRead, filepath.Join(dir, "session.jsonlx"), false},
		{policy.OpCreate, filepath.Join(dir, "sub", "session.jsonl"), false},
		{policy.OpCreate, filepath.Join(filepath.Dir(dir), "x"), false},
	}
	for _, tc := range cases {
		var d policy.Decision
		if tc.op == policy.OpExec {
			d = b.DecideExec(tc.path, nil)
		} else {
			d = b.Decide(tc.op, tc.path)
		}
		if got := !d.Allowed(); got != tc.deny {
			t.Errorf("%s %s: denied %v, want %v (rule %s)", tc.op, tc.path, got, tc.deny, d.Rule.List)
		}
		if tc.deny && d.Rule.List != "audit-log" {
			t.Errorf("%s %s: rule %q, want audit-log", tc.op, tc.path, d.Rule.List)
		}
	}
}
