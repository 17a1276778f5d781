# Reproduction of RD2 (review of h-devices): a bash in a pty as the user's terminal; see README.md.
import os, pty, sys, time, select
cmd = sys.argv[1]
pid, fd = pty.fork()
if pid == 0:
    os.execvp("bash", ["bash", "--norc", "--noprofile", "-i"])
def drain(t):
    end = time.time() + t; buf = b""
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            try: buf += os.read(fd, 4096)
            except OSError: break
    return buf
drain(1)
os.write(fd, cmd.encode() + b"\n")
drain(3)
os.write(fd, b"\x1a")            # the user presses Ctrl-Z
print("after ^Z:", drain(1.5)[-200:])
os.write(fd, b"echo SHELL-GOT-$((6*7)) sudo-password-CANARY\n")  # typed for the shell
print("after typing:", drain(2)[-300:])
os.write(fd, b"kill -9 %1; exit\n"); drain(1)
