# operation: ps, id, uname, env, /proc/self, nproc: what runtimes read about themselves
# want: info-ok
set -e
ps aux >/dev/null && id >/dev/null && uname -a >/dev/null && nproc >/dev/null
cat /proc/self/status /proc/cpuinfo /proc/meminfo >/dev/null && ls /proc/self/fd >/dev/null
test "$AIXGATE_ACTIVE" = 1 && echo info-ok
