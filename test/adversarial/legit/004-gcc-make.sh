# operation: compile and run a C program with make and gcc
# requires: gcc make
# want: built ok
set -e
printf 'app: src/main.c\n\tgcc -O2 -o app src/main.c\n' > Makefile
make -s && ./app && rm -f app Makefile
