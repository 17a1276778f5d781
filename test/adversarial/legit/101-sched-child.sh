# operation: a process sets the priority, CPUs, scheduling and limits of its own child and grandchild inside the sandbox (a build tool throttling its workers)
# want: child-sched-ok
set -e
n=$(nice)
sleep 5 & c=$!
renice -n $((n + 7)) -p $c >/dev/null
taskset -p 1 $c >/dev/null
chrt -b -p 0 $c
ionice -c 3 -p $c
prlimit --pid $c --cpu=100:100
sh -c "sleep 5 & g=\$!; renice -n $((n + 9)) -p \$g >/dev/null && prlimit --pid \$g --nofile=64:64 && kill \$g"
grep -q "^Max cpu time *100 *100" /proc/$c/limits
kill $c
echo child-sched-ok
