# operation: write to /dev/null, read /dev/zero, /dev/urandom and /dev/random, a descriptor through /dev/fd
# fast: yes
# want: devices-ok
set -e
echo discard > /dev/null
test "$(head -c 4 /dev/zero | od -An -tx1 | tr -d ' ')" = 00000000
test "$(head -c 16 /dev/urandom | wc -c)" = 16
test "$(head -c 8 /dev/random | wc -c)" = 8
cat <(echo via-fd) >/dev/null
echo devices-ok
