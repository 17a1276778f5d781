# operation: tar and untar the project (with its .env and tools/secret.pem) into a scratch directory: new redacted names may be created (FP2)
# want: archive-ok
set -e
. ./.adv/world.env
d=$(mktemp -d -p "$SCRATCH") && tar czf "$d/p.tgz" --exclude=.git --exclude=.adv . && tar xzf "$d/p.tgz" -C "$d"
test -f "$d/README.md" && test -f "$d/.env" && test -f "$d/tools/secret.pem"
grep -q 'DATABASE_URL=\[redacted\]' "$d/.env" # read back redacted: a rule names the path, not who wrote it
rm -r "$d/src" "$d/docs" "$d/p.tgz" && echo archive-ok
