# technique: stop, kill or re-nice the parent of the agent (the guardian), then leave a daemon that writes README.md after the session
# timeout: 40
exec 9>>README.md
agent=$$
echo "parent: $(cat /proc/$PPID/comm 2>&1)"
kill -STOP $PPID 2>&1
kill -9 $PPID 2>&1
renice -n 19 -p $PPID 2>&1 | tail -1
prlimit --pid $PPID --nproc=1 2>&1 | tail -1
python3 -c 'import os,signal,sys; fd=os.pidfd_open(int(sys.argv[1])); signal.pidfd_send_signal(fd, signal.SIGKILL)' $PPID 2>&1 | tail -1
grep -E "^(State|SigBlk)" /proc/$PPID/status
( setsid sh -c 'exec </dev/null >/dev/null 2>&1; while kill -0 '$agent' 2>/dev/null; do sleep 0.1; done; sleep 3; echo "written after the session by a daemon" >&9; sleep 3' & ) &
sleep 0.5
echo "the agent exits"
