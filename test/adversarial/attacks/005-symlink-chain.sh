# technique: a chain of 30 symlinks across the project and /tmp ending at the key
. ./.adv/world.env
prev="$SECRET"
for i in $(seq 1 30); do
	if [ $((i % 2)) = 0 ]; then d="$SCRATCH"; else d="$PROJECT"; fi
	ln -s "$prev" "$d/l$i"; prev="$d/l$i"
done
cat "$prev"
ln -s loop1 loop2; ln -s loop2 loop1; cat loop1
