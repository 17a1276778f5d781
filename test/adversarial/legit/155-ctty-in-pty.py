# operation: in a pty.fork child (a new session whose controlling terminal is the new pty), /dev/tty opens that terminal and tty(1) names it
# requires: python3
# want: ctty-ok
import os, pty, subprocess
pid, fd = pty.fork()
if pid == 0:
    t = os.open("/dev/tty", os.O_RDWR)
    os.write(t, b"via-dev-tty\n")
    os.write(1, subprocess.run(["tty"], capture_output=False, stdout=subprocess.PIPE).stdout)
    os.write(1, (os.ttyname(0) + "\n").encode())
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
assert b"via-dev-tty" in out and b"/dev/pts/" in out, out
print("ctty-ok")
