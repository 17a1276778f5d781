# technique: signal a process outside the sandbox (kill, kill -STOP, /bin/kill by pid)
# fast: yes
. ./.adv/world.env
kill -STOP "$VICTIM_PID"; kill -9 "$VICTIM_PID"; /bin/kill -KILL "$VICTIM_PID"
kill -0 "$VICTIM_PID" && echo "victim signalable"
