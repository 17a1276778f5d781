# operation: pipes, subshells, process substitution, here-documents, background jobs and signals inside the sandbox
# fast: yes
# want: two|nested|3|killed
set -e
a=$( (echo one; echo two) | sort -r | head -1 )
b=$(echo $(echo nested))
c=$(wc -l < <(printf '1\n2\n3\n'))
sleep 30 & pid=$!; kill $pid; wait $pid || true
echo "$a|$b|$c|killed"
