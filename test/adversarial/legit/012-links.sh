# operation: symlinks and hard links inside the project
# want: links-ok
set -e
ln -s README.md r && ln README.md h && cat r h >/dev/null && ln -sf src/main.c r && test -L r && rm r h && echo links-ok
