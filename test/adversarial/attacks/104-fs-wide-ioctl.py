# technique: filesystem-wide ioctls through a read-only descriptor (thaw, trim, shutdown, label, UUID, version): as root they reach the whole filesystem
# needs: token
# Every call carries an argument the kernel rejects after its permission
# check (EINVAL), so nothing changes even when it gets through: an answer
# other than EPERM means the call reached the filesystem. FIFREEZE is not
# called (a frozen root filesystem would hang the machine); the filter's
# table test covers it with every other spelling.
import fcntl, os, struct
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env") if "=" in l)
token = "CANARY-REACHED-" + env["TAG"]
open("own-file", "w").close()
fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
own = os.open("own-file", os.O_RDONLY)
cmds = [
    ("FITHAW (not frozen: EINVAL)", fd, 0xc0045878, struct.pack("i", 0)),
    ("FITRIM (start past the end: EINVAL)", fd, 0xc0185879, struct.pack("QQQ", 2**63, 4096, 0)),
    ("FS_IOC_SHUTDOWN (bad flag: EINVAL)", fd, 0x8004587d, struct.pack("I", 0xff)),
    ("FS_IOC_SETFSLABEL (too long for ext4: EINVAL)", fd, 0x41009432, b"x" * 40 + bytes(216)),
    ("EXT4_IOC_SETFSUUID (bad length: EINVAL)", fd, 0x4008662c, struct.pack("II", 15, 0) + bytes(16)),
    ("FS_IOC_SETVERSION (own file)", own, 0x40087602, struct.pack("q", 1)),
    ("FS_IOC32_SETVERSION (own file)", own, 0x40047602, struct.pack("i", 1)),
    ("EXT4_IOC_SETVERSION (own file)", own, 0x40086604, struct.pack("q", 1)),
]
for name, f, cmd, arg in cmds:
    try:
        fcntl.ioctl(f, cmd, arg)
        print(name, "accepted: reached the filesystem", token)
    except OSError as e:
        print(name, e.strerror, "" if e.errno == 1 else "(reached the filesystem " + token + ")")
try:
    print("FS_IOC_GETFSLABEL (harmless)", fcntl.ioctl(fd, 0x81009431, bytes(256)).rstrip(b"\0"))
except OSError as e:
    print("FS_IOC_GETFSLABEL", e.strerror)
