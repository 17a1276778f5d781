# operation: git status, add, commit, branch, diff, log, stash
# fast: yes
# want: git-ok 3
set -e
git status --short >/dev/null
echo change >> README.md && git diff --stat | grep -q README && git commit -qam change
git checkout -qb feature && echo f > f.txt && git add f.txt && git commit -qm feature
echo wip >> f.txt && git stash -q && git stash pop -q && git checkout -q -- f.txt
git config user.name >/dev/null && echo "git-ok $(git log --oneline | wc -l)"
