#!/bin/sh
# fscrypt-world.sh BIN [USER]: runs attack 111 with its project inside an
# fscrypt-encrypted home on a loop-mounted ext4 image (root only; needs
# mkfs.ext4 and python3). The home is unlocked outside the sandbox with a
# v2 key added as USER, as a user's login would; after the session a
# process outside lists the home. Nothing outside the image is touched.
set -eu
bin=$(realpath "$1"); user=${2:-root}
case111=$(realpath "$(dirname "$0")/../attacks/111-fscrypt-remove-key.py")
work=$(mktemp -d /var/lib/aixadv-fscrypt.XXXXXX)
mnt=$work/mnt
cleanup() { cd /; umount "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
truncate -s 64M "$work/img"
mkfs.ext4 -q -O encrypt "$work/img"
mkdir "$mnt"
mount -o loop "$work/img" "$mnt"
mkdir "$mnt/home"
chmod 755 "$work" "$mnt"
[ "$user" = root ] || chown "$user:" "$mnt/home"
if [ "$user" = root ]; then run=""; else run="setpriv --reuid=$user --regid=$user --init-groups"; fi
# Unlock: add a v2 key as the user and encrypt the empty home with it.
$run /usr/bin/python3 - "$mnt/home" <<'PY'
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
raw = bytes(range(64))
arg = bytearray(struct.pack("II", 2, 0) + bytes(32) + struct.pack("II", 64, 0) + bytes(32) + raw)
fcntl.ioctl(fd, 0xc0506617, arg)  # FS_IOC_ADD_ENCRYPTION_KEY
ident = bytes(arg[8:24])
pol = struct.pack("BBBB4x", 2, 1, 4, 2) + ident  # v2, AES-256-XTS, AES-256-CTS, PAD_16
fcntl.ioctl(fd, 0x800c6613, pol)  # FS_IOC_SET_ENCRYPTION_POLICY
print("home encrypted with key", ident.hex())
PY
$run mkdir -p "$mnt/home/proj/.adv" "$mnt/home/docs"
$run sh -c "echo 'the user s notes' > '$mnt/home/docs/notes.txt'"
printf 'TAG=fscrypt%s\n' $$ | $run tee "$mnt/home/proj/.adv/world.env" > /dev/null
$run cp "$case111" "$mnt/home/proj/.adv/111.py"
echo "== before, outside: $(ls "$mnt/home")"
cd "$mnt/home/proj"
$run env -i HOME="$mnt/home" PATH=/usr/bin:/bin TMPDIR=/tmp "$bin" exec -- python3 .adv/111.py 2>&1 || true
cd /
echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
echo "== after, outside: $(ls "$mnt/home" 2>&1 | tr '\n' ' ')"
$run sh -c "echo more > '$mnt/home/docs/new.txt'" 2>&1 && echo "outside write ok" || true
