# operation: python pty.fork: the child runs in a new pseudo-terminal, the parent reads what it prints
# requires: python3
# want: pty-fork-ok
import os, pty
pid, fd = pty.fork()
if pid == 0:
    os.write(1, b"from-child\n")
    os._exit(0)
out = b""
while True:
    try:
        b = os.read(fd, 1024)
    except OSError:
        break
    if not b:
        break
    out += b
os.waitpid(pid, 0)
assert b"from-child" in out, out
print("pty-fork-ok")
