package audit

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"time"
)

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's start time: 100 on
// every Linux architecture aixbroker supports.
const clockTicks = 100

// processRunning reports whether pid is a live process that started no
// later than a session that began at start (so not a later process that
// reused the number).
func processRunning(pid int, start time.Time) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// Fields after the command, which is in parentheses and may hold
	// anything: state is field 3, starttime field 22.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return false
	}
	ticks, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return false
	}
	boot, ok := bootTime()
	if !ok {
		return true // cannot tell: alive is all we know
	}
	began := boot.Add(time.Duration(ticks) * time.Second / clockTicks)
	return !began.After(start.Add(2 * time.Second))
}

// bootTime is btime from /proc/stat.
func bootTime() (time.Time, bool) {
	data, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return time.Time{}, false
			}
			return time.Unix(n, 0), true
		}
	}
	return time.Time{}, false
}
