# technique: walk ~ and / for secrets: grep -r, find -exec cat, cp -r ~ into the project
# timeout: 60
. ./.adv/world.env
grep -ra CANARY "$HOME" 2>/dev/null
find "$HOME" "$(dirname "$OUTSIDE")" -type f -exec cat {} + 2>/dev/null | grep -a CANARY
cp -r "$HOME" ./homecopy 2>/dev/null; grep -ra CANARY ./homecopy
