# operation: delete a scratch copy of the project, .env included (rm -r): a redacted name cannot be removed, even one the agent created
# known: FP2
# want: removed-ok
set -e
. ./.adv/world.env
d=$(mktemp -d -p "$SCRATCH")
echo A=1 > "$d/.env" && rm -r "$d" && echo removed-ok
