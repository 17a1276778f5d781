# operation: create new files whose names a redact rule matches (FP2): echo > .env.local, cp to a new .env, python writing a .pem, a .env written to a temporary name then renamed into place; each reads back redacted
# want: new-redacted-ok
set -e
. ./.adv/world.env
echo B=2 > .env.local
d=$(mktemp -d -p "$SCRATCH") && cp README.md "$d/.env" && cp -p README.md "$d/.env.production"
python3 -c "open('tools/new.pem', 'w').write('-----BEGIN CERTIFICATE-----\n')"
printf 'C=3\n' > staging.tmp && mv staging.tmp .env.staging
grep -q 'B=\[redacted\]' .env.local && grep -q 'C=\[redacted\]' .env.staging
if echo X=1 > .env.local 2>/dev/null; then echo "rewrote an existing redacted file"; exit 1; fi
echo new-redacted-ok
