package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aixbroker/aixbroker/internal/fsops"
	"github.com/aixbroker/aixbroker/internal/landlock"
	"github.com/aixbroker/aixbroker/notify"
	"github.com/aixbroker/aixbroker/policy"
	"github.com/spf13/cobra"
	"golang.org/x/sys/unix"
)

// runSandbox runs the agent under the seccomp supervisor and Landlock.
func runSandbox(ctx context.Context, r sandboxRun) (int, error) {
	cfg := notify.Config{
		Argv:          r.args,
		Env:           r.env,
		Dir:           r.engine.Vars().Project,
		Broker:        r.broker,
		DenyInodes:    denyInodes(r.cmd, r.engine),
		Landlock:      landlockRoots(r.engine.Roots()),
		AllowDegraded: r.flags.AllowDegraded,
		AllowSysV:     r.engine.Policy().SysVAllowed(),
	}
	cfg.TrapStat, _ = statTrapOn(r.flags.StatTrap)
	if on, _ := interposerOn(r.flags.Interposer); on {
		defer setupInterposer(r.cmd.ErrOrStderr(), r.engine, &cfg)()
	}
	return notify.Run(ctx, cfg)
}

// denyInodes records the inodes of the files the deny and redact rules name
// that exist now, so a hard link made to one before the session is still
// recognised. Globs without ** are expanded (~/.ssh/id_*); a deny of a
// whole folder (~/.aws/**) records the regular files below it, at most
// maxDenyWalk in all; other ** globs are matched by name only, and so are
// globs on /proc and /sys, where no hard link can be made (expanding
// /proc/*/task/*/environ cost hundreds of milliseconds of startup).
func denyInodes(cmd *cobra.Command, eng *policy.Engine) *fsops.DenyInodes {
	var paths []string
	budget := maxDenyWalk
	for _, r := range eng.Rules() {
		if r.List != "deny" && r.List != "redact" || onPseudoFS(r.Glob) {
			continue
		}
		if dir, ok := strings.CutSuffix(r.Glob, "/**"); ok && r.List == "deny" && !hasMeta(dir) && dir != "/" && !underDir(eng.Vars().Project, dir) {
			paths = append(paths, regularFiles(dir, &budget)...)
			continue
		}
		if strings.Contains(r.Glob, "**") {
			continue
		}
		matches, err := filepath.Glob(r.Glob)
		if err != nil {
			continue // the policy's own matcher validated the glob; filepath's syntax differs ({a,b})
		}
		paths = append(paths, matches...)
	}
	d, err := fsops.NewDenyInodes(paths)
	if err != nil {
		fmt.Fprintf(cmd.ErrOrStderr(), "aixbroker: warning: %v (those files are still denied by name)\n", err)
	}
	return d
}

// onPseudoFS reports whether the directory above glob's first wildcard is on
// procfs or sysfs: their files cannot be hard-linked (link(2) answers EXDEV
// or EPERM), so their inodes need not be recorded.
func onPseudoFS(glob string) bool {
	dir := glob
	if i := strings.IndexAny(glob, "*?[{"); i >= 0 {
		dir = glob[:i]
	}
	dir = filepath.Dir(dir + "x")
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return false
	}
	return st.Type == unix.PROC_SUPER_MAGIC || st.Type == unix.SYSFS_MAGIC
}

func landlockRoots(r policy.Roots) landlock.Roots {
	exec := append(append([]string{}, r.ReadDirs...), r.WriteDirs...)
	return landlock.Roots{Read: r.ReadDirs, Write: r.WriteDirs, Exec: exec}
}

// maxDenyWalk bounds the files recorded below denied folders, to keep
// startup fast whatever the home folder holds.
const maxDenyWalk = 4096

// regularFiles lists regular files below dir (symlinks not followed), at
// most *budget of them.
func regularFiles(dir string, budget *int) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || *budget <= 0 {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			out = append(out, p)
			*budget--
		}
		return nil
	})
	return out
}

func hasMeta(s string) bool { return strings.ContainsAny(s, "*?[{\\") }
