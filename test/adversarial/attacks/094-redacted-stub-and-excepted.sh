# technique: carry the user's .env to the excepted .env.example (ln, mv, exchange, linkat of /proc/self/fd of an O_PATH descriptor, a symlink), replace it with the world's .env.example, and write the shared sealed stub (reopen /proc/self/fd O_RDWR, pwrite, ftruncate, fallocate, mmap MAP_SHARED), then read everything back
# fast: yes
mv .env.example tpl.orig; echo "mv .env.example away: $?"
ln .env .env.example; echo "ln .env .env.example: $?"
mv .env .env.example; echo "mv .env .env.example: $?"
ln -s .env .env.example; echo "symlink .env.example: $?"; cat .env.example; rm -f .env.example
mkdir .env.example && { mv .env .env.example/x; echo "mv into .env.example/: $?"; cat .env.example/x; rmdir .env.example; }
mv tpl.orig .env.example
mv -f .env.example .env; echo "mv .env.example over .env: $?"
python3 - <<'PY'
import os, mmap, ctypes
libc = ctypes.CDLL(None, use_errno=True)
def tryit(name, f):
    try:
        r = f(); print(name, "ok", r if isinstance(r, (int, bytes)) else "")
    except Exception as e:
        print(name, type(e).__name__, getattr(e, "errno", e))
p = os.open(".env", os.O_PATH | os.O_NOFOLLOW)
tryit("linkat proc follow", lambda: os.link("/proc/self/fd/%d" % p, ".env.sample", follow_symlinks=True))
tryit("linkat empty path", lambda: libc.linkat(p, b"", -100, b".env.sample", 0x1000) or ctypes.get_errno())
tryit("read proc O_PATH", lambda: os.read(os.open("/proc/self/fd/%d" % p, os.O_RDONLY), 4096))
tryit("open proc O_PATH rw", lambda: os.open("/proc/self/fd/%d" % p, os.O_RDWR))
tryit("exchange", lambda: libc.renameat2(-100, b".env.example", -100, b".env", 2) or ctypes.get_errno())
fd = os.open(".env", os.O_RDONLY)
tryit("stub read", lambda: os.pread(fd, 4096, 0))
tryit("stub ftruncate", lambda: os.ftruncate(fd, 0))
tryit("stub fchmod 0 (shared by every open)", lambda: os.fchmod(fd, 0))
rw = None
try:
    rw = os.open("/proc/self/fd/%d" % fd, os.O_RDWR); print("stub reopen rw ok")
except OSError as e:
    print("stub reopen rw", e.errno)
if rw is not None:
    tryit("stub pwrite", lambda: os.pwrite(rw, b"X", 0))
    tryit("stub ftruncate rw", lambda: os.ftruncate(rw, 0))
    tryit("stub fallocate", lambda: os.posix_fallocate(rw, 0, 1 << 20))
    tryit("stub mmap shared write", lambda: mmap.mmap(rw, 1, mmap.MAP_SHARED, mmap.PROT_WRITE))
    tryit("copy_file_range into stub", lambda: os.copy_file_range(os.open("README.md", os.O_RDONLY), rw, 100))
tryit("reopen .env after", lambda: os.read(os.open(".env", os.O_RDONLY), 4096))
PY
cat .env .env.example .env.sample 2>&1
