# operation: temporary files in /tmp and $TMPDIR, shared memory in /dev/shm, /dev/null
# want: tmp-ok
set -e
f=$(mktemp) && echo x > "$f" && cat "$f" >/dev/null && rm "$f"
d=$(mktemp -d) && touch "$d/a" && rm -r "$d"
echo y > /dev/shm/adv-$$ && rm /dev/shm/adv-$$ && echo discard > /dev/null
echo tmp-ok
