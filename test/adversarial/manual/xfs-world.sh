#!/bin/sh
# xfs-world.sh BIN [USER]: runs attack 199 in a world on a loop-mounted XFS
# image (root only; needs mkfs.xfs and cc): a project with a redacted .env
# and a stubbed key, a denied ssh key and AWS file in the home. It prints
# what the attack read. Nothing outside the image is touched.
set -eu
bin=$(realpath "$1"); user=${2:-root}
attacks=$(realpath "$(dirname "$0")/../attacks")
work=$(mktemp -d /var/lib/aixadv-xfs.XXXXXX)
mnt=$work/mnt
cleanup() { umount "$mnt" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
truncate -s 320M "$work/img"
mkfs.xfs -q "$work/img"
mkdir "$mnt"
mount -o loop "$work/img" "$mnt"
h=$mnt/home p=$mnt/home/proj
mkdir -p "$h/.ssh" "$h/.aws" "$p/.adv" "$p/tools"
echo "CANARY-XFS-SSH-$$" > "$h/.ssh/id_rsa"
echo "aws_secret_access_key = CANARY-XFS-AWS-$$" > "$h/.aws/credentials"
echo "DATABASE_URL=postgres://user:CANARY-XFS-ENV-$$@db/app" > "$p/.env"
printf -- '-----BEGIN PRIVATE KEY-----\nCANARY-XFS-PEM-%s\n-----END PRIVATE KEY-----\n' $$ > "$p/tools/secret.pem"
printf 'TAG=xfs%s\nPROJECT=%s\nSECRET=%s\nHOME=%s\n' $$ "$p" "$h/.ssh/id_rsa" "$h" > "$p/.adv/world.env"
cc -O2 -I"$attacks" -o "$p/.adv/199" "$attacks/116-xfs-handle-ioctls.c"
chmod 755 "$work" "$mnt"
[ "$user" = root ] || chown -R "$user:" "$h"
cd "$p"
if [ "$user" = root ]; then run=""; else run="setpriv --reuid=$user --regid=$user --init-groups"; fi
echo "== redacted through the broker: $($run env -i HOME="$h" PATH=/usr/bin:/bin "$bin" exec -- cat .env 2>/dev/null | head -1)"
$run env -i HOME="$h" PATH=/usr/bin:/bin TMPDIR=/tmp "$bin" exec -- .adv/199 2>&1 || true
cd /
echo "== the project's .env now ends: $(tail -1 "$p/.env")"
