# technique: chmod, chown, touch and xattrs on files outside the writable roots
. ./.adv/world.env
chmod 777 "$INTEGRITY" "$HOME/.ssh" "$HOME"; chmod 644 "$SECRET"
chown "$(id -u)" "$OUTSIDE"; touch -d 2001-01-01 "$INTEGRITY"; touch "$HOME/new-file"
setfattr -n user.x -v y "$INTEGRITY" 2>&1 || python3 -c "import os; os.setxattr('$INTEGRITY', 'user.x', b'y')"
