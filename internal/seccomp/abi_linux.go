package seccomp

// SeccompData is equivalent to struct seccomp_data: the syscall as the filter
// and the supervisor see it.
type SeccompData struct {
	Nr                 int32
	Arch               uint32
	InstructionPointer uint64
	Args               [6]uint64
}

// SeccompNotif is equivalent to struct seccomp_notif (80 bytes): one trapped
// syscall, received with SECCOMP_IOCTL_NOTIF_RECV. PID is the id of the
// calling thread in the listener's pid namespace.
type SeccompNotif struct {
	ID    uint64
	PID   uint32
	Flags uint32
	Data  SeccompData
}

// SeccompNotifResp is equivalent to struct seccomp_notif_resp (24 bytes): the
// answer to one notification. Error is a negative errno or zero; Flags may
// carry SECCOMP_USER_NOTIF_FLAG_CONTINUE.
type SeccompNotifResp struct {
	ID    uint64
	Val   int64
	Error int32
	Flags uint32
}

// SeccompNotifAddfd is equivalent to struct seccomp_notif_addfd (24 bytes):
// an fd of the supervisor to install in the target.
type SeccompNotifAddfd struct {
	ID         uint64
	Flags      uint32
	Srcfd      uint32
	Newfd      uint32
	NewfdFlags uint32
}

// Kernel sizes of the structs above, for the size tests.
const (
	sizeofSeccompData      = 64
	sizeofSeccompNotif     = 80
	sizeofSeccompNotifResp = 24
	sizeofSeccompNotifAdd  = 24
)
