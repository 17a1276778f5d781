# operation: nice, renice, ionice, taskset, chrt and prlimit on the agent's own processes (make -j under nice, a build pinned to CPUs)
# fast: yes
# want: own-sched-ok
set -e
n=$(nice)   # the runner may itself run under nice: only raise the value
nice -n 5 true
sh -c "renice -n $((n + 6)) -p \$\$ >/dev/null"
renice -n $((n + 2)) -p $$ >/dev/null
taskset -p 1 $$ >/dev/null
taskset -c 0 true
ionice -c 2 -n 6 -p $$
ionice -c 3 true
chrt -b 0 true
prlimit --pid $$ --nofile=1024:4096
prlimit --pid $PPID --cpu >/dev/null   # reading another's limits is harmless
ulimit -c 0
echo own-sched-ok
