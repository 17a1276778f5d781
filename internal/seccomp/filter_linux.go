package seccomp

import (
	"errors"
	"fmt"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// Arch maps syscall names to one architecture's numbers.
type Arch struct {
	Name      string
	AuditArch uint32            // seccomp_data.arch the filter accepts
	X32Bit    uint32            // numbers with this bit set are killed (0: none)
	Numbers   map[string]uint32 // syscall name to number
}

// ErrNoArch means aixbroker has no syscall table for this architecture.
var ErrNoArch = errors.New("no seccomp syscall table for this architecture (only x86_64)")

// Offsets in struct seccomp_data.
const (
	offNr   = 0
	offArch = 4
	offArgs = 16
)

const retKillProcess = unix.SECCOMP_RET_KILL_PROCESS

// Build assembles Table for arch. Notify rows are emitted only for syscalls
// trap reports true for (the supervisor's handlers); a Notify row without a
// handler is left out, so that syscall runs natively under Landlock.
func Build(arch *Arch, trap func(syscall string) bool) ([]bpf.RawInstruction, error) {
	if arch == nil {
		return nil, ErrNoArch
	}
	prog := []bpf.Instruction{
		bpf.LoadAbsolute{Off: offArch, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: arch.AuditArch, SkipTrue: 1},
		bpf.RetConstant{Val: retKillProcess},
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
	if arch.X32Bit != 0 {
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: arch.X32Bit, SkipFalse: 1},
			bpf.RetConstant{Val: retKillProcess})
	}
	for _, r := range Table {
		nr, ok := arch.Numbers[r.Syscall]
		if !ok || (r.Action == Notify && !trap(r.Syscall)) {
			continue
		}
		prog = append(prog, ruleInstructions(nr, r)...)
	}
	prog = append(prog, bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW})
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, fmt.Errorf("assemble seccomp filter: %w", err)
	}
	return raw, nil
}

// ruleInstructions returns one row's code. The accumulator holds the
// syscall number on entry and on fall-through.
func ruleInstructions(nr uint32, r Rule) []bpf.Instruction {
	ret := bpf.RetConstant{Val: retValue(r)}
	if r.When == nil {
		return []bpf.Instruction{
			bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: nr, SkipTrue: 1},
			ret,
		}
	}
	test := bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: r.When.BitsSet, SkipFalse: 1}
	if r.When.BitsSet == 0 {
		test = bpf.JumpIf{Cond: bpf.JumpEqual, Val: r.When.Equal, SkipFalse: 1}
	}
	return []bpf.Instruction{
		bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: nr, SkipTrue: 3},
		bpf.LoadAbsolute{Off: uint32(offArgs + 8*r.When.Arg), Size: 4}, // low word, little endian
		test,
		ret,
		bpf.LoadAbsolute{Off: offNr, Size: 4},
	}
}

func retValue(r Rule) uint32 {
	switch r.Action {
	case Refuse:
		return unix.SECCOMP_RET_ERRNO | (uint32(r.Errno) & unix.SECCOMP_RET_DATA)
	case Notify:
		return unix.SECCOMP_RET_USER_NOTIF
	case Kill:
		return retKillProcess
	}
	return unix.SECCOMP_RET_ALLOW
}
