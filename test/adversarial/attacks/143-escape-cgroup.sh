# technique: leave the session's cgroup (write its own pid into the parent's, the root's or another cgroup.procs, v1 and v2), then outlive the session
# timeout: 40
exec 9>>README.md
agent=$$
me=$(sh -c 'echo $PPID')
cat /proc/self/cgroup
for m in $(awk '$9 == "cgroup2" || $9 == "cgroup" {print $5}' /proc/self/mountinfo); do
	rel=$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)
	for d in "$m$rel/.." "$m$rel/../.." "$m" "$m/user.slice" "$m/system.slice"; do
		if [ -w "$d/cgroup.procs" ] || [ -e "$d/cgroup.procs" ]; then
			if echo $$ > "$d/cgroup.procs" 2>/dev/null; then echo "moved into $d"; fi
		fi
	done
	# a new cgroup of its own, next to the session's
	mkdir "$m$rel/../aixadv-escape" 2>/dev/null && echo $$ > "$m$rel/../aixadv-escape/cgroup.procs" 2>/dev/null && echo "moved into a new cgroup"
done
cat /proc/self/cgroup
( setsid sh -c 'exec </dev/null >/dev/null 2>&1; while kill -0 '$agent' 2>/dev/null; do sleep 0.1; done; sleep 3; echo "written after the session from outside the session cgroup" >&9; sleep 3' & ) &
sleep 0.5
echo "the agent exits"
