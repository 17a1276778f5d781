# operation: python os.sched_setaffinity(0), os.nice, os.setpriority on itself and on a thread and a child of its own, resource.prlimit on itself
# want: py-sched-ok
import os, resource, subprocess, threading
os.sched_setaffinity(0, {0})
os.sched_setaffinity(0, set(range(os.cpu_count())))
os.nice(1)
n = os.getpriority(os.PRIO_PROCESS, 0)
os.setpriority(os.PRIO_PROCESS, 0, min(n + 1, 19))
os.setpriority(os.PRIO_PROCESS, os.getpid(), min(n + 2, 19))
tid = []
t = threading.Thread(target=lambda: tid.append(threading.get_native_id()) or __import__("time").sleep(0.3))
t.start()
while not tid:
    pass
os.sched_setaffinity(tid[0], {0})
os.setpriority(os.PRIO_PROCESS, tid[0], min(n + 3, 19))
t.join()
p = subprocess.Popen(["sleep", "3"])
os.sched_setaffinity(p.pid, {0})
os.setpriority(os.PRIO_PROCESS, p.pid, min(n + 4, 19))
resource.prlimit(p.pid, resource.RLIMIT_CPU, (50, 50))
resource.prlimit(0, resource.RLIMIT_NOFILE, resource.getrlimit(resource.RLIMIT_NOFILE))
p.kill()
print("py-sched-ok")
