# operation: read, create, edit with sed, rename, copy, delete in the project
# fast: yes
# want: edit-ok
set -e
cat README.md >/dev/null
echo a > a.txt && sed -i s/a/b/ a.txt && mv a.txt b.txt && mkdir -p d/e && cp b.txt d/e/c.txt
test "$(cat d/e/c.txt)" = b && rm -r d b.txt && echo edit-ok
