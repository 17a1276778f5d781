package notify

import (
	"os"
	"strings"
	"sync"

	"github.com/aixbroker/aixbroker/policy"
)

// The sandbox never changes a cgroup file system, whatever the policy
// says: writing its pid into another cgroup's cgroup.procs (or creating a
// cgroup and moving there) would take it out of the session cgroup, and
// cgroup.freeze, cgroup.kill or a limit would act on processes outside.
// The broker writes with the caller's credentials, so a root agent, or a
// user with a delegated subtree, could; every mutating operation on a
// path under a cgroup or cgroup2 mount is refused (EACCES) and recorded
// with the rule "cgroupfs". Reading stays as the policy says.

// cgroupRule is the rule a refusal names in the audit.
var cgroupRule = policy.Rule{List: "cgroupfs", Pattern: "cgroup file systems are never written by the sandbox"}

var (
	cgroupMountsOnce sync.Once
	cgroupMountList  []string
)

// cgroupMounts lists the mount points of cgroup and cgroup2 file systems
// (the sandbox cannot mount: the list read once stays true).
func cgroupMounts() []string {
	cgroupMountsOnce.Do(func() {
		mi, err := os.ReadFile("/proc/self/mountinfo")
		if err != nil {
			cgroupMountList = []string{"/sys/fs/cgroup"}
			return
		}
		for _, line := range strings.Split(string(mi), "\n") {
			pre, post, ok := strings.Cut(line, " - ")
			fields, rest := strings.Fields(pre), strings.Fields(post)
			if ok && len(fields) >= 5 && len(rest) >= 1 && (rest[0] == "cgroup2" || rest[0] == "cgroup") {
				cgroupMountList = append(cgroupMountList, unescapeMount(fields[4]))
			}
		}
	})
	return cgroupMountList
}

// guardCgroup turns an allowed mutating decision on a path under a cgroup
// mount into a refusal.
func guardCgroup(op policy.Op, path string, d policy.Decision) policy.Decision {
	if !d.Allowed() || op == policy.OpRead || op == policy.OpStat || op == policy.OpExec {
		return d
	}
	for _, m := range cgroupMounts() {
		if path == m || strings.HasPrefix(path, m+"/") {
			return policy.Decision{Action: policy.Deny, Errno: policy.EACCES, Rule: cgroupRule}
		}
	}
	return d
}
