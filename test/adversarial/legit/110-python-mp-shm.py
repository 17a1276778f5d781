# operation: python multiprocessing between two processes through /dev/shm: a Lock, a Semaphore and a Queue (named POSIX semaphores), a shared_memory.SharedMemory created by the parent and attached by name in the child, a ShareableList attached by name, both start methods (fork, spawn)
# timeout: 30
# want: mp-shm-ok fork spawn
import multiprocessing as mp
from multiprocessing import shared_memory
import sys


def child(name, lock, sem, q):
    shm = shared_memory.SharedMemory(name=name)  # shm_open without O_CREAT: the parent's object
    with lock:
        shm.buf[:5] = b"child"
    sem.release()
    q.put(bytes(shm.buf[5:11]))
    shm.close()


def run(method):
    ctx = mp.get_context(method)
    lock, sem, q = ctx.Lock(), ctx.Semaphore(0), ctx.Queue()
    shm = shared_memory.SharedMemory(create=True, size=4096)
    shm.buf[5:11] = b"parent"
    p = ctx.Process(target=child, args=(shm.name, lock, sem, q))
    p.start()
    if not sem.acquire(timeout=20):
        sys.exit(method + ": semaphore never released")
    got = q.get(timeout=20)
    p.join(20)
    ok = bytes(shm.buf[:5]) == b"child" and got == b"parent" and p.exitcode == 0
    shm.close()
    shm.unlink()  # shm_unlink of the session's own object
    if not ok:
        sys.exit(method + ": shared memory not shared: %r %r" % (got, p.exitcode))
    sl = shared_memory.ShareableList([1, 2, 3])  # a SharedMemoryManager would need the AF_UNIX listener of FP6
    other = shared_memory.ShareableList(name=sl.shm.name)
    other[0] = 42
    if sl[0] != 42:
        sys.exit(method + ": ShareableList")
    other.shm.close()
    sl.shm.close()
    sl.shm.unlink()
    return method


if __name__ == "__main__":
    done = [run(m) for m in ("fork", "spawn")]
    print("mp-shm-ok", " ".join(done))
