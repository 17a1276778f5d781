# operation: chmod +x a script and run it; chmod g+s and the sticky bit on a directory; install -m 755; cp -p keeps ordinary modes
# fast: yes
# want: modes-ok
set -e
printf '#!/bin/sh\necho ran\n' > run.sh
chmod +x run.sh
test "$(./run.sh)" = ran
mkdir -p shared && chmod g+s shared && test -g shared
chmod +t shared && test -k shared
install -m 755 run.sh inst.sh && test -x inst.sh
cp -p run.sh copy.sh && test "$(stat -c %a copy.sh)" = "$(stat -c %a run.sh)"
chmod 640 copy.sh && test "$(stat -c %a copy.sh)" = 640
rm -r shared run.sh inst.sh copy.sh
echo modes-ok
