package notify

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Capabilities a sandboxed root agent keeps. Everything else, up to the
// kernel's last capability (capabilities newer than this table included),
// is dropped by stage 2 before the exec from the bounding, inheritable,
// ambient, permitted and effective sets, so no program the agent runs
// gets it back, setuid-root or not. The broker acts with each caller's
// effective set (fsops.Thread.AsCaller), so what the agent lost, the
// broker does not do for it.
//
// keptCaps is the whole allow-list: each entry says why a root developer
// needs it and why it is safe inside the sandbox.
var keptCaps = []struct {
	cap    int
	name   string
	reason string
}{
	{unix.CAP_CHOWN, "CAP_CHOWN", "chown of files in the project (package managers, tar as root); the broker performs it on paths the policy lets the agent write"},
	{unix.CAP_DAC_OVERRIDE, "CAP_DAC_OVERRIDE", "root reads and writes its files whatever their mode; the policy, not the mode bits, decides what is reachable"},
	{unix.CAP_DAC_READ_SEARCH, "CAP_DAC_READ_SEARCH", "the same for reading and searching directories; open_by_handle_at, its one dangerous use, is refused by the filter"},
	{unix.CAP_FOWNER, "CAP_FOWNER", "chmod, utimes and unlink in sticky directories on files root does not own (tools run as root expect it)"},
	{unix.CAP_KILL, "CAP_KILL", "signals to the sandbox's own processes after a setuid; Landlock's signal scope keeps every process outside out of reach"},
	{unix.CAP_SETUID, "CAP_SETUID", "dropping privileges to a build or service user (npm, postgres initdb); no_new_privs stops any gain back"},
	{unix.CAP_SETGID, "CAP_SETGID", "the same for groups"},
	{unix.CAP_NET_BIND_SERVICE, "CAP_NET_BIND_SERVICE", "development servers on ports below 1024; binds are brokered"},
}

// Dropped, by name, for the record (capabilities(7)): CAP_SYS_TIME (clock),
// CAP_SYS_RAWIO (ioperm, /proc/kcore, raw block I/O), CAP_NET_ADMIN
// (addresses, routes, firewall of the host's interfaces), CAP_NET_RAW
// (packet sniffing), CAP_SYS_ADMIN (hostname, filesystem label, UUID and
// freeze, quotas, TIOCSCTTY steal, and most else), CAP_SYS_BOOT,
// CAP_SYS_MODULE, CAP_SYSLOG (kernel log), CAP_SYS_TTY_CONFIG (vhangup),
// CAP_SYS_RESOURCE (raising hard limits, reserved space), CAP_LINUX_IMMUTABLE,
// CAP_SETFCAP (file capabilities), CAP_MKNOD (device nodes), CAP_BPF,
// CAP_PERFMON, CAP_SYS_PTRACE, CAP_SYS_PACCT, CAP_SYS_NICE (priorities of
// any process), CAP_MAC_ADMIN, CAP_MAC_OVERRIDE, CAP_AUDIT_CONTROL,
// CAP_AUDIT_WRITE, CAP_AUDIT_READ, CAP_WAKE_ALARM, CAP_BLOCK_SUSPEND,
// CAP_CHECKPOINT_RESTORE, CAP_IPC_LOCK (memory locked beyond the limit),
// CAP_IPC_OWNER (other users' SysV objects), CAP_LEASE (leases that stall
// other processes' opens), CAP_SYS_CHROOT (chroot is refused anyway),
// CAP_NET_BROADCAST, CAP_FSETID (the kernel then clears set-user-ID bits on
// a write or chown, as for any user), CAP_SETPCAP (capability juggling).

// keptMask is the set of keptCaps as a bit mask.
func keptMask() uint64 {
	var m uint64
	for _, k := range keptCaps {
		m |= 1 << uint(k.cap)
	}
	return m
}

// brokerExceedsAgent reports the effective set every sandboxed thread
// holds after stage 2's exec, and whether the broker's effective
// capabilities exceed it: the broker must then act with the caller's set,
// not its own (a root broker would otherwise mknod, open /proc/kcore or
// chown for an agent that cannot). A root agent keeps keptCaps; an agent
// that is not root keeps nothing, since a non-root exec keeps only ambient
// capabilities and stage 2 clears them (a broker given an ambient
// CAP_DAC_READ_SEARCH would otherwise read for an agent without it).
func brokerExceedsAgent() (agent uint64, exceeds bool) {
	eff, _, _, err := capGetSelf()
	agent = eff & keptMask()
	if os.Geteuid() != 0 {
		agent = 0
	}
	return agent, err != nil || eff != agent
}

// withAgentCaps runs fn with the effective capabilities every sandboxed
// thread holds while none has changed its credentials: the supervisor's,
// less those stage 2 dropped. On the receiving thread that is two capset
// calls; elsewhere fn runs on a thread holding the caller's credentials as
// read from /proc/<tid>/status.
func (r *Request) withAgentCaps(fn func() error) error {
	if r.thread != nil {
		return r.thread.WithEffective(r.sup.agentCaps, fn)
	}
	return r.AsCallerCreate(fn)
}

// lastCap is the kernel's highest capability number.
func lastCap() int {
	data, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && n >= 0 && n < 64 {
			return n
		}
	}
	return 63 // unknown: try every bit; PR_CAPBSET_DROP of a missing one says EINVAL
}

// dropCapabilities removes every capability not in keptCaps from the
// calling thread's bounding, ambient, inheritable, permitted and effective
// sets. It runs in stage 2 on the thread that execs the agent, before the
// seccomp filter (capset is trapped). Without CAP_SETPCAP (an unprivileged
// caller) the bounding set cannot be changed, and need not be: with
// no_new_privs nothing the agent execs can gain a capability it lacks.
func dropCapabilities() error {
	keep := keptMask()
	_, perm, _, err := capGetSelf()
	if err != nil {
		return err
	}
	if perm&(1<<unix.CAP_SETPCAP) != 0 {
		for c := 0; c <= lastCap(); c++ {
			if keep&(1<<uint(c)) != 0 {
				continue
			}
			err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
			if err != nil && !errors.Is(err, unix.EINVAL) {
				return fmt.Errorf("drop capability %d from the bounding set: %w", c, err)
			}
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("clear ambient capabilities: %w", err)
	}
	eff, perm, inh, err := capGetSelf()
	if err != nil {
		return err
	}
	if err := capSetSelf(eff&keep, perm&keep, inh&keep); err != nil {
		return err
	}
	return verifyDropped(keep)
}

// verifyDropped reads the sets back: a capability outside keep that is
// still there is an error, never a warning.
func verifyDropped(keep uint64) error {
	eff, perm, inh, err := capGetSelf()
	if err != nil {
		return err
	}
	if (eff|perm|inh)&^keep != 0 {
		return fmt.Errorf("drop capabilities: still held: effective %#x permitted %#x inheritable %#x", eff&^keep, perm&^keep, inh&^keep)
	}
	return nil
}

func capGetSelf() (eff, perm, inh uint64, err error) {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return 0, 0, 0, fmt.Errorf("get capabilities: %w", err)
	}
	join := func(lo, hi uint32) uint64 { return uint64(lo) | uint64(hi)<<32 }
	return join(data[0].Effective, data[1].Effective), join(data[0].Permitted, data[1].Permitted),
		join(data[0].Inheritable, data[1].Inheritable), nil
}

func capSetSelf(eff, perm, inh uint64) error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	data := [2]unix.CapUserData{
		{Effective: uint32(eff), Permitted: uint32(perm), Inheritable: uint32(inh)},
		{Effective: uint32(eff >> 32), Permitted: uint32(perm >> 32), Inheritable: uint32(inh >> 32)},
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("set capabilities: %w", err)
	}
	return nil
}
