# operation: os.openpty, the slave opened again by its name, TIOCSWINSZ, TIOCGPTPEER on the master, the terminal used both ways
# requires: python3
# want: openpty-ok
import os, fcntl, struct, termios
m, s = os.openpty()
name = os.ttyname(s)
s2 = os.open(name, os.O_RDWR | os.O_NOCTTY)
fcntl.ioctl(m, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
rows, cols = struct.unpack("HHHH", fcntl.ioctl(s2, termios.TIOCGWINSZ, b"\0" * 8))[:2]
assert (rows, cols) == (40, 100)
peer = fcntl.ioctl(m, 0x5441, os.O_RDWR | os.O_NOCTTY)  # TIOCGPTPEER
os.write(m, b"typed\n")
assert os.read(s2, 100).startswith(b"typed")
os.write(peer, b"shown\n")
got = b""
while b"shown" not in got:
    got += os.read(m, 100)  # the echo of "typed" comes first
# A second pty through /dev/ptmx by name, and its slave by name.
mm = os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)
os.grantpt(mm) if hasattr(os, "grantpt") else None
fcntl.ioctl(mm, termios.TIOCSPTLCK if hasattr(termios, "TIOCSPTLCK") else 0x40045431, struct.pack("i", 0))
n = struct.unpack("I", fcntl.ioctl(mm, 0x80045430, b"\0" * 4))[0]
ss = os.open("/dev/pts/%d" % n, os.O_RDWR | os.O_NOCTTY)
print("openpty-ok", name)
