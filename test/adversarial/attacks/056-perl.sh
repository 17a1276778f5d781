# technique: perl: open, sysopen, and a raw syscall() of openat
# requires: perl
. ./.adv/world.env
perl -e 'open(F, "<", $ARGV[0]) and print "open: ", <F>; print "\n"' "$SECRET"
perl -e 'use Fcntl; sysopen(F, $ARGV[0], O_RDONLY) and print "sysopen: ", <F>; print "\n"' "$OUTSIDE"
perl -e '$fd = syscall(257, -100, $ARGV[0], 0); if ($fd >= 0) { open(F, "<&=", $fd); print "raw: ", <F>; } else { print "raw: $!\n" }' "$SECRET"
