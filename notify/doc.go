// Package notify is the Linux seccomp user-notification supervisor: it
// starts the agent in a sandbox and answers, from outside it, every path
// syscall the sandbox traps.
//
// # Starting the sandbox
//
// [Run] re-executes the running binary as a stage-2 child. main() must call
// [MaybeStage2] first thing: in the child it never returns. The child locks
// its OS thread, sets no_new_privs, applies Landlock (package
// internal/landlock), installs the filter of internal/seccomp with
// NEW_LISTENER on that thread, passes the listener to the parent over
// SCM_RIGHTS, closes its copy, waits for the parent's acknowledgement (so
// nothing it does before the exec is trapped without a supervisor), and
// execs the agent from the same thread. The exec itself is the first trapped
// syscall. Run serves notifications until the agent exits, forwards
// termination signals, then kills whatever the agent left behind and
// returns the agent's exit status (128+signal when killed by a signal).
//
// # Serving a syscall
//
// A [Supervisor] receives notifications on one goroutine and serves each
// inline, with no goroutine hand-off on the target's critical path. A
// request that may block (opening a FIFO or a device) calls
// [Request.Detach], and a watchdog does the same for any request running
// longer than 20 ms: the receive role passes to a new goroutine, so one
// blocked handler never stalls the sandbox. At most 128 requests are
// detached at once (each holds an OS thread); beyond, a request that would
// block fails with EAGAIN. The watchdog also fails the session closed
// (stderr, an audit record, the sandbox killed) when notifications wait
// with nobody receiving them. Each notification becomes a [Request] and is
// passed to the [Handler] registered for its syscall name. The handler
// returns a [Reply]; the supervisor sends it and then records one
// broker.Event per decision the handler took (or, if it took none, one
// event with no decision carrying the path as the agent gave it, or the
// canonical path of an O_PATH open, and the operation the syscall implies),
// with the result and the latency. A syscall is trapped only if a
// handler is registered for it (see internal/seccomp.Build).
//
// # Writing a handler
//
// One file per syscall family (open_linux.go, exec_linux.go, rename...),
// registering its syscalls in init:
//
//	func init() { register(handleMkdir, "mkdir", "mkdirat") }
//
//	func handleMkdir(r *Request) Reply {
//		dirArg, pathArg, modeArg := 0, 0, 1 // mkdir(path, mode)
//		if r.Syscall == "mkdirat" {
//			dirArg, pathArg, modeArg = 0, 1, 2
//		}
//		path, err := r.ReadPath(pathArg)
//		if err != nil {
//			return ErrorOf(err)
//		}
//		dirfd, err := r.DirFD(dirArg, path) // AT_FDCWD or a dirfd; owned by r
//		...
//		t, err := r.Target(path)              // fsops.Target for resolution
//		p, err := t.ResolveParent(dirfd, path) // O_PATH parent + last name
//		defer p.Close()
//		if err := r.Valid(); err != nil {     // still the same live thread?
//			return ErrorOf(err)
//		}
//		if d := r.Decide(policy.OpCreate, p.Path()); !d.Allowed() {
//			return Denied(d, policy.OpCreate)
//		}
//		err = r.AsCaller(func() error { return fsops.Mkdir(p, mode) })
//		return ErrorOf(err) // nil error: success, return value 0
//	}
//
// Rules every handler follows:
//   - Read arguments only through the Request (ReadPath, ReadMemory, Arg),
//     and call r.Valid after reading memory or opening anything under
//     /proc/<tid> and before acting: it proves the thread is still the one
//     that trapped.
//   - Decide on the canonical path of what was resolved, through r.Decide
//     or r.DecideExec (they also record the audit event). Deny when unsure.
//     An operation on an existing file also passes r.CheckProc (the /proc
//     entries of processes outside the sandbox that Landlock would have
//     refused the agent, and, for a write, any entry of theirs and
//     autogroup) and r.guardShm (an object of /dev/shm the broker did not
//     create in this session: another process's POSIX shared memory or
//     semaphore, shmguard_linux.go).
//   - Act on descriptors the broker resolved, with the caller's credentials
//     (r.AsCaller), never by letting the kernel continue: a sibling thread
//     can rewrite the path after the check. A [Continue] reply takes a
//     reason and sits under a "// TOCTOU:" comment saying why it is safe.
//   - Descriptors from r.DirFD are closed by the supervisor after the
//     reply; anything else the handler opens, it closes, except an fd given
//     to [InjectFD], which the supervisor closes after injecting it.
//
// The package depends on broker and policy types only, never on audit.
package notify
