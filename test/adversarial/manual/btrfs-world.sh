#!/bin/sh
# btrfs-world.sh BIN [USER]: runs attack 198 in a world on a loop-mounted
# btrfs image (root only; needs mkfs.btrfs), so that its ioctls meet a real
# btrfs: a home subvolume holding a key, a read-only "backup" snapshot of it
# beside it (outside the sandbox's reach), the project inside the home. It
# prints what the attack printed and what changed outside. Nothing outside
# the image is touched: every call is on a descriptor of the image.
set -eu
bin=$(realpath "$1"); user=${2:-root}
case198=$(realpath "$(dirname "$0")/../attacks/115-btrfs-subvolume-ioctls.py")
work=$(mktemp -d /var/lib/aixadv-btrfs.XXXXXX)
mnt=$work/mnt
cleanup() { umount "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
truncate -s 300M "$work/img"
mkfs.btrfs -q "$work/img"
mkdir "$mnt"
mount -o loop,user_subvol_rm_allowed "$work/img" "$mnt"
btrfs -q subvolume create "$mnt/home"
mkdir -p "$mnt/home/.ssh" "$mnt/home/proj/.adv"
echo "CANARY-BTRFS-KEY-$$" > "$mnt/home/.ssh/id_rsa"
echo "TAG=btrfs$$" > "$mnt/home/proj/.adv/world.env"
cp "$case198" "$mnt/home/proj/.adv/198.py"
btrfs -q subvolume snapshot -r "$mnt/home" "$mnt/backup"
chmod 755 "$work" "$mnt"
[ "$user" = root ] || chown -R "$user:" "$mnt/home"
echo "== before: $(btrfs subvolume list "$mnt" | tr '\n' ';') home ro=$(btrfs property get "$mnt/home" ro)"
cd "$mnt/home/proj"
if [ "$user" = root ]; then run=""; else run="setpriv --reuid=$user --regid=$user --init-groups"; fi
$run env -i HOME="$mnt/home" PATH=/usr/bin:/bin TMPDIR=/tmp "$bin" exec -- python3 .adv/198.py 2>&1 || true
cd /
echo "== after: $(btrfs subvolume list "$mnt" | tr '\n' ';') home ro=$(btrfs property get "$mnt/home" ro)"
[ -e "$mnt/backup/.ssh/id_rsa" ] && echo "backup snapshot still there" || echo "BACKUP SNAPSHOT DESTROYED"
