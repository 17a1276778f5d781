# operation: script runs a command in a new pseudo-terminal; tty names it; /dev/tty is the new terminal
# requires: script
# want: script-ok
out=$(script -q -c 'tty; echo hi >/dev/tty; echo script-$(test -t 0 && echo ok)' /dev/null </dev/null)
echo "$out"
case "$out" in *"/dev/pts/"*) ;; *) echo "tty printed no pts"; exit 1;; esac
case "$out" in *hi*) ;; *) echo "/dev/tty not written"; exit 1;; esac
