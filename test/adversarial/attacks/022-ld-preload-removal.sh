# technique: drop LD_PRELOAD and the whole environment (env -i, unset) before reading the key
. ./.adv/world.env
unset LD_PRELOAD; cat "$SECRET"
env -i /bin/cat "$SECRET"
env -u LD_PRELOAD LD_PRELOAD= /bin/cat "$OUTSIDE"
