package adversarial

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Process lifetime: no sandboxed process may outlive the session. After
// aixbroker has exited (and the runner killed its process group), any
// process under a seccomp filter that carries the world's folder in its
// command line, its environment or its working directory belongs to the
// case and is a leak; so is a file of the project written after the
// session by such a survivor (they hold descriptors opened during it).

// survivorGrace is how long a process found alive right after the
// session gets to disappear (a SIGKILL in flight) before it counts.
const survivorGrace = time.Second

// lateWrites is how long the judge watches the project once survivors
// were found, to show what they do after the session.
const lateWrites = 4 * time.Second

// judgeLifetime lists the case's processes that outlived the session and
// what they wrote in the project afterwards; it kills them.
func judgeLifetime(w *World) []string {
	if len(worldProcs(w.Root)) == 0 {
		return nil
	}
	time.Sleep(survivorGrace)
	pids := worldProcs(w.Root)
	if len(pids) == 0 {
		return nil
	}
	before := projectState(w.Project)
	time.Sleep(lateWrites)
	after := projectState(w.Project)
	alive := worldProcs(w.Root)
	killAll(w.Root)
	show := pids
	if len(show) > 8 {
		show = show[:8]
	}
	bad := []string{fmt.Sprintf("%d sandboxed process(es) outlived the session (pids %v%s; %d still alive %v later)",
		len(pids), show, more(len(pids), 8), len(alive), survivorGrace+lateWrites)}
	var late []string
	for p, st := range after {
		if before[p] != st {
			late = append(late, w.rel(p))
		}
	}
	sort.Strings(late)
	if len(late) > 0 {
		bad = append(bad, "written after the session ended: "+strings.Join(late, ", "))
	}
	return bad
}

func more(n, shown int) string {
	if n > shown {
		return ", …"
	}
	return ""
}

// worldProcs lists the live processes under a seccomp filter that carry
// root in their command line, environment or working directory.
func worldProcs(root string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		// A process whose main thread exited (SYS_exit) while others run
		// shows its leader as a zombie, without command line, directory or
		// filter: look at every thread.
		tasks, _ := os.ReadDir("/proc/" + e.Name() + "/task")
		for _, t := range tasks {
			dir := "/proc/" + e.Name() + "/task/" + t.Name()
			status, err := os.ReadFile(dir + "/status")
			if err != nil || !bytes.Contains(status, []byte("\nSeccomp:\t2\n")) || bytes.Contains(status, []byte("\nState:\tZ")) {
				continue
			}
			if carries(dir, root) {
				out = append(out, pid)
				break
			}
		}
	}
	sort.Ints(out)
	return out
}

func carries(dir, root string) bool {
	if cwd, err := os.Readlink(dir + "/cwd"); err == nil && (cwd == root || strings.HasPrefix(cwd, root+"/")) {
		return true
	}
	for _, f := range []string{"cmdline", "environ"} {
		if data, err := os.ReadFile(dir + "/" + f); err == nil && bytes.Contains(data, []byte(root)) {
			return true
		}
	}
	return false
}

// killAll stops, then kills, the world's processes until none is left
// (or 5 s have passed), so that one case does not spill into the next.
func killAll(root string) {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		pids := worldProcs(root)
		if len(pids) == 0 {
			return
		}
		for _, sig := range []syscall.Signal{syscall.SIGSTOP, syscall.SIGKILL} {
			for _, pid := range pids {
				syscall.Kill(pid, sig)
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// projectState describes every file of the project (size, mtime, mode).
func projectState(project string) map[string]string {
	out := map[string]string{}
	filepath.WalkDir(project, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			out[p] = fmt.Sprintf("%d %d %v", info.Size(), info.ModTime().UnixNano(), info.Mode())
		}
		return nil
	})
	return out
}
