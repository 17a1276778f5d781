# operation: write to /dev/null, read /dev/zero, /dev/urandom and /dev/random, write to /dev/full (ENOSPC), the own descriptors through /dev/stdout and /dev/fd
# fast: yes
# want: devices-ok
set -e
echo discard > /dev/null
test "$(head -c 4 /dev/zero | od -An -tx1 | tr -d ' ')" = 00000000
test "$(head -c 16 /dev/urandom | wc -c)" = 16
test "$(head -c 8 /dev/random | wc -c)" = 8
if echo x 2>/dev/null > /dev/full; then echo "/dev/full accepted"; exit 1; fi
echo via-stdout > /dev/stdout
cat <(echo via-fd) >/dev/null
echo devices-ok
