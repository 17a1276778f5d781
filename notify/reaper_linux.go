package notify

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// The tree walk kills every descendant of a subreaper: the guardian (whose
// children are the sandbox) or the supervisor (when the guardian is gone).
// A subreaper's descendants cannot get away from it: an orphan is
// re-parented to it, setsid and setpgid change nothing to the parent
// chain, and the sandbox can neither create a pid namespace nor ptrace.
// Each round reads the parent of every process in /proc and collects the
// live descendants; every one is stopped first (a stopped process does
// not fork, and a fork in flight is restarted when a signal arrives), the
// walk is repeated until it finds no new one, then all are killed. Signals
// go through a pidfd opened before the process is confirmed as a
// descendant, so a pid reused meanwhile is never signalled.

// killBudget bounds the time a teardown spends killing.
const killBudget = 5 * time.Second

// killTree stops and kills every live descendant of root except the pids
// in spare (and their descendants) until none is left or the deadline
// passes; it returns the pids it could not get rid of. With onlyFiltered,
// a child of root that runs under no seccomp filter is spared with its
// descendants: the supervisor's own children that are not the sandbox's
// (a program using this package may have others); every sandboxed process
// has the filter, inherited and irremovable.
func killTree(root int, spare map[int]bool, onlyFiltered bool, deadline time.Time) []int {
	if root == os.Getpid() && !hasChildren() {
		return nil // a subreaper without children has no descendant either
	}
	for {
		held := map[int]int{} // pid → pidfd, stopped
		for {
			fresh := 0
			found := descendants(root, spare, onlyFiltered)
			member := make(map[int]bool, len(found)+1)
			member[root] = true
			for _, pid := range found {
				member[pid] = true
			}
			for _, pid := range found {
				if _, ok := held[pid]; ok {
					continue
				}
				fd, err := unix.PidfdOpen(pid, 0)
				if err != nil {
					continue // gone already
				}
				if st, err := readStat(pid); err != nil || !member[st.ppid] {
					unix.Close(fd) // the pid was reused by a stranger
					continue
				}
				unix.PidfdSendSignal(fd, unix.SIGSTOP, nil, 0)
				held[pid] = fd
				fresh++
			}
			if fresh == 0 || time.Now().After(deadline) {
				break
			}
		}
		for _, fd := range held {
			unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
			unix.Close(fd)
		}
		if len(held) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			left := descendants(root, spare, onlyFiltered)
			if len(left) == 0 {
				return nil
			}
			return left
		}
		time.Sleep(time.Millisecond) // let the killed exit before the next walk
	}
}

// hasChildren reports whether this process has any child, running or not
// yet reaped.
func hasChildren() bool {
	var si unix.Siginfo
	err := unix.Waitid(unix.P_ALL, 0, &si, unix.WEXITED|unix.WSTOPPED|unix.WCONTINUED|unix.WNOHANG|unix.WNOWAIT, nil)
	return !errors.Is(err, unix.ECHILD)
}

// procEntryStat is what the walk reads of one process.
type procEntryStat struct {
	ppid int
	dead bool // zombie or dead: nothing left to kill
}

// readStat parses /proc/<pid>/stat: the state and parent after the
// command name (which may hold spaces and parentheses).
func readStat(pid int) (procEntryStat, error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procEntryStat{}, err
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procEntryStat{}, errors.New("parse stat: no command name")
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 2 {
		return procEntryStat{}, errors.New("parse stat: short")
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return procEntryStat{}, fmt.Errorf("parse stat: %w", err)
	}
	dead := f[0] == "Z" || f[0] == "X"
	if dead && liveThread(pid) {
		dead = false // the leader left (SYS_exit), its other threads run on
	}
	return procEntryStat{ppid: ppid, dead: dead}, nil
}

// liveThread reports whether a thread of process pid other than its
// leader is alive: a leader that exits alone shows as a zombie in
// /proc/PID/stat (and with no filter in its status) while the process
// goes on in its other threads, which cgroup.kill does not reach either.
func liveThread(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, t := range tasks {
		if t.Name() == strconv.Itoa(pid) {
			continue
		}
		data, err := os.ReadFile(dir + t.Name() + "/stat")
		if err != nil {
			continue
		}
		if i := bytes.LastIndexByte(data, ')'); i >= 0 {
			if f := strings.Fields(string(data[i+1:])); len(f) > 0 && f[0] != "Z" && f[0] != "X" {
				return true
			}
		}
	}
	return false
}

// sandboxedProc reports whether process pid runs under a seccomp filter,
// looking at its threads when its leader has exited.
func sandboxedProc(pid int) bool {
	if filtered(pid) {
		return true
	}
	tasks, err := os.ReadDir("/proc/" + strconv.Itoa(pid) + "/task")
	if err != nil {
		return false
	}
	for _, t := range tasks {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/task/" + t.Name() + "/status")
		if err == nil && bytes.Contains(data, []byte("\nSeccomp:\t2\n")) {
			return true
		}
	}
	return false
}

// descendants lists the live descendants of root, except the pids in
// spare and theirs (and, with onlyFiltered, root's children without a
// seccomp filter and theirs), sorted.
func descendants(root int, spare map[int]bool, onlyFiltered bool) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]int{}
	dead := map[int]bool{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := readStat(pid)
		if err != nil {
			continue
		}
		children[st.ppid] = append(children[st.ppid], pid)
		dead[pid] = st.dead
	}
	var out []int
	queue := []int{root}
	seen := map[int]bool{root: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p] {
			if seen[c] || spare[c] || (onlyFiltered && p == root && !dead[c] && !sandboxedProc(c)) {
				continue
			}
			seen[c] = true
			if !dead[c] {
				out = append(out, c)
			}
			queue = append(queue, c)
		}
	}
	sort.Ints(out)
	return out
}

// reportSurvivors writes the message of a teardown that ran out of time.
func reportSurvivors(left []int) {
	if len(left) == 0 {
		return
	}
	shown := left
	if len(shown) > 20 {
		shown = shown[:20]
	}
	s := make([]string, len(shown))
	for i, p := range shown {
		s[i] = strconv.Itoa(p)
	}
	tail := ""
	if len(left) > len(shown) {
		tail = " …"
	}
	fmt.Fprintf(os.Stderr, "aixbroker: %d sandboxed processes could not be stopped: pids %s%s\n", len(left), strings.Join(s, " "), tail)
}
