package audit

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// processRunning reports whether the supervisor recorded in a
// session_start is still alive: pid is a live process of this boot
// (bootID) that started at the same clock tick (pidStart). A record
// without them (an older log) cannot be matched and counts as gone.
func processRunning(pid int, pidStart uint64, bootID string) bool {
	if pidStart == 0 || bootID == "" || bootID != currentBootID() {
		return false
	}
	ticks, ok := procStart(pid)
	return ok && ticks == pidStart
}

// procStart returns the start time (ticks since boot) of a live process.
func procStart(pid int) (uint64, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	// Fields after the command, which is in parentheses and may hold
	// anything: state is field 3, starttime field 22.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return 0, false
	}
	ticks, err := strconv.ParseUint(f[19], 10, 64)
	return ticks, err == nil
}

// currentBootID is this boot's random id, or "".
func currentBootID() string {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}

// SelfIdentity returns this process's start time in ticks since boot and
// the boot's id, for a session_start record (PIDStart, BootID).
func SelfIdentity() (pidStart uint64, bootID string) {
	ticks, ok := procStart(os.Getpid())
	if !ok {
		return 0, ""
	}
	return ticks, currentBootID()
}
