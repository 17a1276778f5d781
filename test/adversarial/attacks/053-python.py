# technique: python: open, os.open with dir_fd, pathlib, shutil.copy, os.sendfile, mmap, ctypes raw syscall
import ctypes, mmap, os, pathlib, shutil
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env"))
secret = env["SECRET"]
def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, "failed:", e)
attempt("open", lambda: open(secret).read())
attempt("pathlib", lambda: pathlib.Path(env["OUTSIDE"]).read_text())
attempt("dir_fd", lambda: os.read(os.open("id_rsa", os.O_RDONLY, dir_fd=os.open(env["HOME"] + "/.ssh", os.O_PATH)), 100))
attempt("shutil", lambda: (shutil.copy(secret, "py-copy"), open("py-copy").read()))
attempt("mmap", lambda: mmap.mmap(os.open(secret, os.O_RDONLY), 0, prot=mmap.PROT_READ)[:])
libc = ctypes.CDLL(None, use_errno=True)
def raw():
    fd = libc.syscall(257, -100, secret.encode(), 0)
    return os.read(fd, 100) if fd >= 0 else os.strerror(ctypes.get_errno())
attempt("ctypes openat", raw)
attempt("listdir", lambda: os.listdir(env["HOME"] + "/.ssh"))
attempt("scandir home", lambda: [e.name for e in os.scandir(env["HOME"])])
