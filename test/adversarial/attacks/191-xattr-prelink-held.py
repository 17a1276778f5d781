# technique: read the xattrs of the denied key and credentials through hard links made before the session (build/key.bin, build/cache.bin): by path, and through /proc/self/fd, /dev/fd and /proc/<pid>/fd of O_PATH descriptors of the links (the held-descriptor route decides the link's name, without the same-inode check)
# needs: prelink
# requires: python3
import os
targets = ["build/key.bin", "build/cache.bin"]
spell = []
for p in targets:
    try:
        fd = os.open(p, os.O_PATH)
        spell += ["/proc/self/fd/%d" % fd, "/dev/fd/%d" % fd, "/proc/%d/fd/%d" % (os.getpid(), fd)]
        d = os.open(os.path.dirname(os.path.abspath(p)), os.O_PATH)
        spell += ["/proc/self/fd/%d/%s" % (d, os.path.basename(p))]
    except OSError as e:
        print("O_PATH", p, e)
for p in targets + spell:
    for follow in (True, False):
        for label, f in (("list", lambda: os.listxattr(p, follow_symlinks=follow)),
                         ("get", lambda: os.getxattr(p, "user.aixadv", follow_symlinks=follow))):
            try:
                print(label, p, follow, f())
            except OSError as e:
                print(label, p, follow, e)
