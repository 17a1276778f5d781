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
	// MaxNr is the newest syscall number the table was written against.
	// Newer ones answer ENOSYS: a syscall added by a later kernel (as
	// file_setattr was in 6.17, changing inode flags by path) is refused
	// until the table has decided it, and libc falls back to older calls.
	MaxNr uint32
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
// handler is left out, so that syscall runs natively under Landlock (or
// meets the Refuse row that follows it). A row with Unless set is left out
// when trap(Unless) is true: a policy switch such as "ipc.sysv=allow".
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
	var rows []numbered
	for _, r := range Table {
		nr, ok := arch.Numbers[r.Syscall]
		if !ok || (r.Action == Notify && !trap(r.Syscall)) || (r.Unless != "" && trap(r.Unless)) {
			continue
		}
		rows = append(rows, numbered{nr, r})
	}
	prog = append(prog, groupInstructions(rows)...)
	if arch.MaxNr != 0 {
		prog = append(prog,
			bpf.JumpIf{Cond: bpf.JumpGreaterThan, Val: arch.MaxNr, SkipFalse: 1},
			bpf.RetConstant{Val: unix.SECCOMP_RET_ERRNO | uint32(unix.ENOSYS)})
	}
	prog = append(prog, bpf.RetConstant{Val: unix.SECCOMP_RET_ALLOW})
	raw, err := bpf.Assemble(prog)
	if err != nil {
		return nil, fmt.Errorf("assemble seccomp filter: %w", err)
	}
	return raw, nil
}

// numbered is a row with its syscall number.
type numbered struct {
	nr uint32
	r  Rule
}

// maxSkip is the longest forward jump of a classic BPF conditional.
const maxSkip = 255

// groupInstructions emits consecutive rows of one syscall behind a single
// test of the syscall number, so that every other syscall pays one
// instruction per group, not per row (the ioctl rows are dozens). A group
// is split where its code would exceed one jump.
func groupInstructions(rows []numbered) []bpf.Instruction {
	var prog []bpf.Instruction
	for i := 0; i < len(rows); {
		nr := rows[i].nr
		body := ruleBody(rows[i].r)
		i++
		for ; i < len(rows) && rows[i].nr == nr; i++ {
			next := ruleBody(rows[i].r)
			if len(body)+len(next) > maxSkip {
				break
			}
			body = append(body, next...)
		}
		prog = append(prog, bpf.JumpIf{Cond: bpf.JumpNotEqual, Val: nr, SkipTrue: uint8(len(body))})
		prog = append(prog, body...)
	}
	return prog
}

// ruleBody returns one row's code after the test of the syscall number.
// The accumulator holds the syscall number on fall-through.
func ruleBody(r Rule) []bpf.Instruction {
	ret := bpf.RetConstant{Val: retValue(r)}
	if r.When == nil {
		return []bpf.Instruction{ret}
	}
	// Each test jumps, when it fails, to the reload of the syscall number
	// after ret; tests are emitted last first, so each knows how far that is.
	var tests [][]bpf.Instruction
	for c := r.When; c != nil; c = c.And {
		tests = append(tests, condTest(c))
	}
	body := []bpf.Instruction{ret, bpf.LoadAbsolute{Off: offNr, Size: 4}}
	for i := len(tests) - 1; i >= 0; i-- {
		t := tests[i]
		jump := t[len(t)-1].(bpf.JumpIf)
		jump.SkipFalse = uint8(len(body) - 1) // past the rest and ret
		t[len(t)-1] = jump
		body = append(append([]bpf.Instruction{}, t...), body...)
	}
	return body
}

// condTest loads c's argument and tests it; the last instruction is the
// test, whose SkipFalse the caller sets.
func condTest(c *Cond) []bpf.Instruction {
	off := uint32(offArgs + 8*c.Arg) // low word, little endian
	if c.High {
		off += 4
	}
	out := []bpf.Instruction{bpf.LoadAbsolute{Off: off, Size: 4}}
	if c.BitsSet != 0 {
		return append(out, bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: c.BitsSet})
	}
	if c.Mask != 0 {
		out = append(out, bpf.ALUOpConstant{Op: bpf.ALUOpAnd, Val: c.Mask})
	}
	return append(out, bpf.JumpIf{Cond: bpf.JumpEqual, Val: c.Equal})
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
