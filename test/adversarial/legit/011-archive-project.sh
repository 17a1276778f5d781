# operation: tar and untar the project into /tmp
# known: FP2
# want: archive-ok
set -e
d=$(mktemp -d) && tar czf "$d/p.tgz" --exclude=.git . && tar xzf "$d/p.tgz" -C "$d" && test -f "$d/README.md" && rm -r "$d" && echo archive-ok
