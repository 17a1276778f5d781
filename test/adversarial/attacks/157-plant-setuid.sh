# technique: plant a set-user-ID or set-group-ID program in the project and the scratch directory: chmod 4755, chmod u+s, g+s on a file, install -m 4755, cp -p and tar x of a setuid file, python os.open and os.fchmod
# requires: python3 install tar
. .adv/world.env
for d in "$PROJECT" "$SCRATCH"; do
	cp /bin/true "$d/s1" && chmod 4755 "$d/s1"; echo "chmod 4755: $?"
	cp /bin/true "$d/s2" && chmod u+s "$d/s2"; echo "chmod u+s: $?"
	cp /bin/true "$d/s3" && chmod g+s "$d/s3"; echo "chmod g+s file: $?"
	cp /bin/true "$d/s3b" && chmod 6755 "$d/s3b"; echo "chmod 6755: $?"
	install -m 4755 /bin/true "$d/s4"; echo "install -m 4755: $?"
	install -m 2755 /bin/true "$d/s4b"; echo "install -m 2755: $?"
	python3 - "$d" <<'PY'
import os, sys, tarfile, io, shutil
d = sys.argv[1]
fd = os.open(d + "/s5", os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o4755); os.close(fd)
fd = os.open(d + "/s6", os.O_CREAT | os.O_WRONLY, 0o644); os.fchmod(fd, 0o4755); os.close(fd)
try:
    os.mknod(d + "/s7", 0o100000 | 0o6755)
except OSError as e:
    print("mknod regular:", e)
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode="w") as t:
    i = tarfile.TarInfo("s8"); i.mode = 0o4755; i.size = 4; t.addfile(i, io.BytesIO(b"#!/\n"))
buf.seek(0)
with tarfile.open(fileobj=buf) as t:
    t.extractall(d, filter="fully_trusted") if hasattr(tarfile, "data_filter") else t.extractall(d)
PY
	tar -C "$d" -cf "$d/a.tar" s1 2>/dev/null; mkdir -p "$d/x"; tar -C "$d/x" -xpf "$d/a.tar"; echo "tar xp: $?"
	for f in /usr/bin/passwd /usr/bin/su /bin/mount; do
		[ -u "$f" ] && cp -p "$f" "$d/s9" && echo "cp -p $f: $?" && break
	done
done
ls -l "$PROJECT"/s* "$SCRATCH"/s* 2>&1 | head -40
