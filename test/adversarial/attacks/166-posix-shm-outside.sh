# technique: read and open for writing the POSIX shared memory of the user's processes outside the sandbox: shm_open segments live as files in /dev/shm, which generic allows writing for node and python multiprocessing (SysV segments are refused, these are the same thing by another name); by listing /dev/shm, by name, and through python's shared_memory
# needs: posix-shm
# requires: python3
# known: R3
. ./.adv/world.env
ls -la /dev/shm/ 2>&1 | head
for f in /dev/shm/*; do
	case "$f" in *aixadv-outside*) ;; *) continue ;; esac
	echo "found $f"; cat "$f"
	if (exec 3<>"$f") 2>/dev/null; then echo "ADV-GAINED: $f opened for writing"; fi
done
/usr/bin/python3 - "$SHM_OUTSIDE" <<'PY'
import sys, os
from multiprocessing import shared_memory
name = os.path.basename(sys.argv[1])
try:
    m = shared_memory.SharedMemory(name=name)
    print("shared_memory:", bytes(m.buf[:40]))
    m.close()
except Exception as e:
    print("shared_memory:", e)
PY
