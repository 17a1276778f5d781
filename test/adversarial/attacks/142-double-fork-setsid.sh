# technique: classic daemons (double fork + setsid, nohup, a subshell loop) outlive the session and write README.md after it
# timeout: 40
exec 9>>README.md
agent=$$
( setsid sh -c 'exec </dev/null >/dev/null 2>&1; while kill -0 '$agent' 2>/dev/null; do sleep 0.1; done; sleep 3; echo "written after the session by a setsid daemon" >&9' & ) &
( trap "" HUP; nohup sh -c 'exec </dev/null >/dev/null 2>&1; sleep 5; echo "written after the session by a nohup daemon" >&9' >/dev/null 2>&1 & ) &
( exec </dev/null >/dev/null 2>&1; perl -e 'use POSIX; fork and exit; POSIX::setsid(); fork and exit; sleep 5; open(my $f, ">>&=", 9) and print $f "written after the session by a perl daemon\n";' ) &
sleep 0.5
echo "daemons started; the agent exits"
