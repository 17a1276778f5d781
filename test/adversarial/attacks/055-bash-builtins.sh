# technique: bash builtins only (no exec): $(<file), read, mapfile, exec 3<, source, redirection to /dev/tcp-style fds
. ./.adv/world.env
echo "subst: $(< "$SECRET")"
read -r line < "$OUTSIDE"; echo "read: $line"
mapfile -t a < "$HOME/.aws/credentials"; echo "mapfile: ${a[*]}"
exec 3< "$SECRET" && { read -r l <&3; echo "fd3: $l"; }
source "$HOME/.bash_history"; echo "sourced: $TOKEN"
. "$SECRET"
