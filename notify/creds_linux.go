package notify

// Credential changes. The supervisor acts for the agent with its own
// credentials while they are the agent's, which holds until a sandboxed
// thread changes its ids, groups or capabilities (a root agent dropping to
// another user, or dropping a capability). These syscalls are trapped only
// to notice that: from the first one on, every operation runs on a thread
// holding the caller's credentials as read from /proc/<tid>/status.
func init() {
	register(handleCredsChange, "setuid", "setgid", "setreuid", "setregid", "setresuid",
		"setresgid", "setfsuid", "setfsgid", "setgroups", "capset")
}

func handleCredsChange(r *Request) Reply {
	r.sup.credsChanged.Store(true) // before the change can take effect
	// TOCTOU: nothing is granted here and no path is involved: the kernel
	// performs the change with its own checks, after the supervisor has
	// switched to reading each caller's credentials.
	return Continue("credential change: noted, kernel decides")
}
