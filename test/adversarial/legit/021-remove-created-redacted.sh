# operation: delete files the agent created under redacted names (FP2): rm -r of an unpacked copy of the project (its .env and tools/secret.pem included), rm of a new .env file and a new .env symlink in the project; the user's .env stays unremovable
# want: removed-ok
set -e
. ./.adv/world.env
d=$(mktemp -d -p "$SCRATCH") && tar czf "$d/p.tgz" --exclude=.git --exclude=.adv . && tar xzf "$d/p.tgz" -C "$d"
test -f "$d/.env" && test -f "$d/tools/secret.pem"
rm -r "$d"
echo A=1 > .env.adv021 && ln -s README.md .env.adv021.link && rm .env.adv021 .env.adv021.link
if rm -f .env 2>/dev/null; then echo "removed the user's .env"; exit 1; fi
test -f .env && ! test -e "$d" && ! test -e .env.adv021 && echo removed-ok
