package notify

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// memProbe is what the memory-probe helper process exposes: the test
// writes into it from outside and the helper prints it.
var memProbe [32]byte

// The helper: print the address of memProbe, wait for a line on stdin,
// print memProbe.
func init() {
	if os.Getenv("AIXBROKER_MEMPROBE") != "1" {
		return
	}
	fmt.Printf("%p\n", &memProbe)
	bufio.NewReader(os.Stdin).ReadString('\n')
	fmt.Printf("%q\n", strings.TrimRight(string(memProbe[:]), "\x00"))
	os.Exit(0)
}

type memProbeProc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	addr uint64
}

func startMemProbe(t testing.TB) *memProbeProc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AIXBROKER_MEMPROBE=1")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &memProbeProc{cmd: cmd, in: in, out: bufio.NewReader(out)}
	line, err := p.out.ReadString('\n')
	if err != nil {
		t.Fatalf("memory probe: %v", err)
	}
	p.addr, err = strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(line), "0x"), 16, 64)
	if err != nil {
		t.Fatalf("memory probe address %q: %v", line, err)
	}
	return p
}

// contents lets the probe print its buffer and exit.
func (p *memProbeProc) contents(t testing.TB) string {
	t.Helper()
	p.in.Write([]byte("\n"))
	line, _ := p.out.ReadString('\n')
	p.cmd.Wait()
	return strings.TrimSpace(line)
}

// reuseTID kills and reaps p, then starts a new probe with the same
// process id (as root, through ns_last_pid), as a dying thread's id would
// be reused by another process between the broker's ID_VALID check and
// its write. It returns nil when another process took the id first.
func reuseTID(t *testing.T, p *memProbeProc) *memProbeProc {
	t.Helper()
	pid := p.cmd.Process.Pid
	p.cmd.Process.Kill()
	p.cmd.Wait()
	if err := os.WriteFile("/proc/sys/kernel/ns_last_pid", []byte(strconv.Itoa(pid-1)), 0); err != nil {
		t.Skipf("cannot choose the next pid: %v", err)
	}
	q := startMemProbe(t)
	if q.cmd.Process.Pid != pid {
		q.contents(t)
		return nil
	}
	return q
}

// TestWriteMemoryAfterTIDReuse (issue 14 item 13): when the thread id a
// notification named is reused by another process after the ID_VALID
// check, the broker's write must not land in the newcomer. The old way
// (process_vm_writev by thread id) is run side by side and does land
// there; writeTargetMemory, bound to the address space opened before the
// check, writes nowhere.
func TestWriteMemoryAfterTIDReuse(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("choosing a pid (ns_last_pid) needs root")
	}
	byTID := func(tid int, valid func() error, addr uint64, buf []byte) error {
		if err := valid(); err != nil {
			return err
		}
		local := []unix.Iovec{{Base: &buf[0]}}
		local[0].SetLen(len(buf))
		remote := []unix.RemoteIovec{{Base: uintptr(addr), Len: len(buf)}}
		_, err := unix.ProcessVMWritev(tid, local, remote, 0)
		return err
	}
	tests := []struct {
		name      string
		write     func(int, func() error, uint64, []byte) error
		wantWrite bool // the newcomer's memory is written
	}{
		{"process_vm_writev by tid (1f7ac63)", byTID, true},
		{"/proc/tid/mem opened before the check", writeTargetMemory, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 5 {
				victim := startMemProbe(t)
				var newcomer *memProbeProc
				valid := func() error { // the check passes; then the id is reused
					newcomer = reuseTID(t, victim)
					return nil
				}
				err := tt.write(victim.cmd.Process.Pid, valid, victim.addr, []byte("WRITTEN-BY-BROKER"))
				if newcomer == nil {
					continue // another process took the pid: try again
				}
				got := newcomer.contents(t)
				t.Logf("pid %d reused; newcomer holds %s; write error: %v", newcomer.cmd.Process.Pid, got, err)
				written := strings.Contains(got, "WRITTEN-BY-BROKER")
				if written != tt.wantWrite {
					t.Errorf("newcomer's buffer %s (write error %v), want written=%v", got, err, tt.wantWrite)
				}
				if !tt.wantWrite && err == nil {
					t.Errorf("the write to a dead address space reported success")
				}
				return
			}
			t.Skip("the pid was taken by another process five times")
		})
	}
}

// TestWriteMemoryFaults: a write to an unmapped address or across the end
// of the address space is EFAULT, as the kernel answers.
func TestWriteMemoryFaults(t *testing.T) {
	p := startMemProbe(t)
	defer p.contents(t)
	valid := func() error { return nil }
	for _, addr := range []uint64{0, 8, 1 << 62, ^uint64(0) - 2} {
		if err := writeTargetMemory(p.cmd.Process.Pid, valid, addr, []byte("xyz")); !errIs(err, syscall.EFAULT) {
			t.Errorf("write at %#x: %v, want EFAULT", addr, err)
		}
	}
	if err := writeTargetMemory(p.cmd.Process.Pid, valid, p.addr, []byte("ok")); err != nil {
		t.Errorf("write into the probe: %v", err)
	}
}

// BenchmarkWriteTargetMemory compares writing a struct stat (144 bytes)
// into another process by thread id (process_vm_writev, 1f7ac63) with
// writeTargetMemory (open /proc/<tid>/mem, check, pwrite, close): the
// cost item 13's fix adds to every stat-trap answer.
func BenchmarkWriteTargetMemory(b *testing.B) {
	cases := []struct {
		name  string
		write func(int, func() error, uint64, []byte) error
	}{
		{"process_vm_writev", func(tid int, valid func() error, addr uint64, buf []byte) error {
			if err := valid(); err != nil {
				return err
			}
			local := []unix.Iovec{{Base: &buf[0]}}
			local[0].SetLen(len(buf))
			_, err := unix.ProcessVMWritev(tid, local, []unix.RemoteIovec{{Base: uintptr(addr), Len: len(buf)}}, 0)
			return err
		}},
		{"proc-mem", writeTargetMemory},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			p := startMemProbe(b)
			defer p.contents(b)
			buf := make([]byte, 144)
			valid := func() error { return nil }
			for b.Loop() {
				if err := c.write(p.cmd.Process.Pid, valid, p.addr, buf[:len(memProbe)]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
