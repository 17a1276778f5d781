package adversarial

import (
	"bytes"
	"fmt"
	"strconv"

	"golang.org/x/sys/unix"
)

// sysvObjects are SysV IPC objects of the user outside the sandbox, as an
// X server's MIT-SHM pixmaps or a database's buffers are: a shared memory
// segment holding a canary and a semaphore with a known value (needs:
// sysv). The judge checks both are unchanged (judge_filter_linux.go).
type sysvObjects struct {
	shmID, semID int
	canary       string
}

const sysvSemValue = 7

// startSysV creates the objects, owned by the sandbox's user, mode 0600.
func (w *World) startSysV(s *services) error {
	o := &sysvObjects{canary: "CANARY-SYSVSHM-" + w.Tag, shmID: -1, semID: -1}
	s.closers = append(s.closers, o)
	s.sysv = o
	id, err := unix.SysvShmGet(unix.IPC_PRIVATE, 4096, unix.IPC_CREAT|0o600)
	if err != nil {
		return fmt.Errorf("create SysV segment: %w", err)
	}
	o.shmID = id
	mem, err := unix.SysvShmAttach(id, 0, 0)
	if err != nil {
		return fmt.Errorf("attach SysV segment: %w", err)
	}
	copy(mem, o.canary)
	unix.SysvShmDetach(mem)
	sem, _, errno := unix.Syscall(unix.SYS_SEMGET, unix.IPC_PRIVATE, 1, unix.IPC_CREAT|0o600)
	if errno != 0 {
		return fmt.Errorf("create SysV semaphore: %w", errno)
	}
	o.semID = int(sem)
	if _, _, errno := unix.Syscall6(unix.SYS_SEMCTL, sem, 0, semSetVal, sysvSemValue, 0, 0); errno != 0 {
		return fmt.Errorf("set SysV semaphore: %w", errno)
	}
	if w.owner != nil {
		if err := o.chown(w.owner.UID, w.owner.GID); err != nil {
			return err
		}
	}
	w.Canaries["sysv-shm"] = o.canary
	w.Vars["SYSV_SHMID"] = strconv.Itoa(o.shmID)
	w.Vars["SYSV_SEMID"] = strconv.Itoa(o.semID)
	return nil
}

// SysV semctl commands (linux/sem.h) x/sys does not name.
const (
	semGetVal = 12
	semSetVal = 16
)

// chown gives the segment to the sandbox's user (IPC_SET). The semaphore
// is given with semctl(IPC_SET), whose argument is a pointer: a root run
// leaves it root's, which the agent running as the user cannot reach
// anyway, so only the segment matters there.
func (o *sysvObjects) chown(uid, gid int) error {
	var d unix.SysvShmDesc
	if _, err := unix.SysvShmCtl(o.shmID, unix.IPC_STAT, &d); err != nil {
		return fmt.Errorf("stat SysV segment: %w", err)
	}
	d.Perm.Uid, d.Perm.Gid = uint32(uid), uint32(gid)
	if _, err := unix.SysvShmCtl(o.shmID, unix.IPC_SET, &d); err != nil {
		return fmt.Errorf("give SysV segment: %w", err)
	}
	return nil
}

// changed describes what the sandbox did to the objects.
func (o *sysvObjects) changed() []string {
	var out []string
	mem, err := unix.SysvShmAttach(o.shmID, 0, unix.SHM_RDONLY)
	switch {
	case err != nil:
		out = append(out, "the SysV segment outside the sandbox is gone: "+err.Error())
	case !bytes.HasPrefix(mem, []byte(o.canary)):
		out = append(out, "the SysV segment outside the sandbox was overwritten")
	}
	if err == nil {
		unix.SysvShmDetach(mem)
	}
	v, _, errno := unix.Syscall(unix.SYS_SEMCTL, uintptr(o.semID), 0, semGetVal)
	if errno != 0 || v != sysvSemValue {
		out = append(out, fmt.Sprintf("the SysV semaphore outside the sandbox changed (value %d, %v)", v, errno))
	}
	return out
}

// Close removes the objects.
func (o *sysvObjects) Close() error {
	if o.shmID >= 0 {
		unix.SysvShmCtl(o.shmID, unix.IPC_RMID, nil)
	}
	if o.semID >= 0 {
		unix.Syscall(unix.SYS_SEMCTL, uintptr(o.semID), 0, unix.IPC_RMID)
	}
	return nil
}

// reachedToken gives the case a canary to print when a call reached what
// it must not (needs: token): for attacks whose success changes nothing
// the judge could see, such as a filesystem ioctl sent with an argument the
// kernel rejects after its permission check. The case builds it from
// TAG: world.env itself must not hold it.
func (w *World) reachedToken() {
	w.Canaries["reached"] = "CANARY-REACHED-" + w.Tag
}
