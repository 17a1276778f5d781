# technique: open the redacted .env (and the denied key) for writing only, without writing, then read its xattrs through the descriptor: fgetxattr and flistxattr (not trapped) and getxattr of /proc/self/fd/N (held, not O_PATH: read by the broker); a write-only descriptor of a file whose content is redacted is not one whose attributes may be read
# requires: python3
import os
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env"))
for p in [".env", env["PROJECT"] + "/.env", env["SECRET"], env["HOME"] + "/.aws/credentials", env["OUTSIDE"]]:
    for flags, label in ((os.O_WRONLY, "O_WRONLY"), (os.O_WRONLY | os.O_APPEND, "O_APPEND"), (os.O_RDWR, "O_RDWR")):
        try:
            fd = os.open(p, flags)
        except OSError as e:
            print(p, label, "open", e)
            continue
        for name, f in (("flistxattr", lambda: os.listxattr(fd)),
                        ("fgetxattr", lambda: os.getxattr(fd, "user.aixadv")),
                        ("listxattr /proc/self/fd", lambda: os.listxattr("/proc/self/fd/%d" % fd)),
                        ("getxattr /proc/self/fd", lambda: os.getxattr("/proc/self/fd/%d" % fd, "user.aixadv"))):
            try:
                print(p, label, name, f())
            except OSError as e:
                print(p, label, name, e)
        os.close(fd)
