# operation: grep -r, find and ls over the project
# want: docs/guide.md
set -e
grep -rn search-me-in-docs . --exclude-dir=.git
find . -name '*.md' -not -path './.git/*' | sort >/dev/null && ls -la src >/dev/null
