# operation: a program installs its own seccomp filter without a listener (as Chrome, Codex and systemd tools do), with TSYNC, and probes the listener feature
# want: nested-filter-ok
import ctypes, errno
libc = ctypes.CDLL(None, use_errno=True)
class Insn(ctypes.Structure):
    _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]
class Prog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Insn))]
prog = Prog(1, (Insn * 1)(Insn(0x06, 0, 0, 0x7fff0000)))
libc.prctl(38, 1, 0, 0, 0)
assert libc.syscall(317, 1, 0, ctypes.byref(prog)) == 0, errno.errorcode[ctypes.get_errno()]
assert libc.syscall(317, 1, 1, ctypes.byref(prog)) == 0, errno.errorcode[ctypes.get_errno()]  # TSYNC
assert libc.prctl(22, 2, ctypes.byref(prog), 0, 0) == 0, errno.errorcode[ctypes.get_errno()]  # PR_SET_SECCOMP
act = ctypes.c_uint(0x7fc00000)  # SECCOMP_RET_USER_NOTIF
assert libc.syscall(317, 2, 0, ctypes.byref(act)) == 0  # GET_ACTION_AVAIL
r = libc.syscall(317, 1, 8, ctypes.byref(prog))
assert r < 0 and ctypes.get_errno() == errno.EBUSY, (r, ctypes.get_errno())
with open("README.md") as f:
    f.read()
print("nested-filter-ok")
