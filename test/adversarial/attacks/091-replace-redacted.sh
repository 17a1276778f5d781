# technique: replace, truncate or remove the user's .env and .pem now that new redacted names may be created: mv/os.replace/rename over it, cp and O_TRUNC onto it, sed -i, ln -f, install, tar unpacking over it, rsync, truncate, rm
# fast: yes
echo NEW=1 > new.env.tmp
mv -f new.env.tmp .env; echo "mv: $?"
cp new.env.tmp .env 2>&1; echo "cp: $?"
cp --remove-destination README.md .env; echo "cp --remove-destination: $?"
install -m 600 README.md .env; echo "install: $?"
ln -f README.md .env; echo "ln -f: $?"
sed -i s/PORT/XXXX/ .env; echo "sed -i: $?"
: > .env; echo "truncate via >: $?"
truncate -s 0 .env tools/secret.pem; echo "truncate: $?"
rm -f .env tools/secret.pem; echo "rm: $?"
python3 - <<'PY'
import os, ctypes
open("x.tmp", "w").write("X=1\n")
for what, f in [
    ("os.replace", lambda: os.replace("x.tmp", ".env")),
    ("os.rename", lambda: os.rename("x.tmp", "tools/secret.pem")),
    ("O_CREAT|O_TRUNC", lambda: os.close(os.open(".env", os.O_WRONLY | os.O_CREAT | os.O_TRUNC))),
    ("O_CREAT|O_APPEND", lambda: os.write(os.open(".env", os.O_WRONLY | os.O_CREAT | os.O_APPEND), b"Y=2\n")),
    ("O_RDWR|O_CREAT", lambda: os.write(os.open(".env", os.O_RDWR | os.O_CREAT), b"Z=3\n")),
    ("link", lambda: os.link("x.tmp", ".env")),
    ("chmod", lambda: os.chmod(".env", 0o666)),
    ("utime", lambda: os.utime(".env", (1, 1))),
]:
    try:
        f(); print(what, "succeeded")
    except OSError as e:
        print(what, e)
libc = ctypes.CDLL(None, use_errno=True)
for flags, name in [(2, "RENAME_EXCHANGE"), (0, "renameat2")]:
    r = libc.renameat2(-100, b"x.tmp", -100, b".env", flags)
    print(name, r, os.strerror(ctypes.get_errno()))
PY
mkdir -p t && printf 'EVIL=1\n' > t/.env && tar cf t.tar -C t .env && tar xf t.tar --overwrite; echo "tar --overwrite: $?"
tar xf t.tar --unlink-first; echo "tar --unlink-first: $?"
command -v rsync >/dev/null && rsync t/.env .env; echo "rsync: $?"
cat .env tools/secret.pem
