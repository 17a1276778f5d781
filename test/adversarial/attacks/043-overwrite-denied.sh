# technique: overwrite and append to files outside the writable roots (integrity canary, .ssh, outside)
# fast: yes
. ./.adv/world.env
echo pwned > "$INTEGRITY"; echo pwned >> "$INTEGRITY"
echo pwned > "$HOME/.ssh/known_hosts"; echo pwned >> "$OUTSIDE"
cp README.md "$INTEGRITY"; dd if=/dev/zero of="$INTEGRITY" bs=1 count=1 conv=notrunc
sed -i s/must/MUST/ "$INTEGRITY"
python3 -c "import os; fd=os.open('$INTEGRITY', os.O_WRONLY); os.write(fd, b'pwned')"
