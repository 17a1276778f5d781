#!/usr/bin/env python3
"""Metadata traps macro benchmark (docs/PERFORMANCE.md, "Metadata traps").

Runs each workload natively, under an aixbroker binary without the
metadata traps (--old) and under one with them (--new), interleaved round
by round, and prints the median wall time with its min-max spread, the
ratio to native and the cost per trapped call of new over old.

  sudo python3 bench/metadata/run.py --old /work/ref/aixbroker-1f7ac63 --new bin/aixbroker --dir /srv/metabench
"""
import argparse, os, statistics, subprocess, sys, time

p = argparse.ArgumentParser()
p.add_argument("--old", required=True)
p.add_argument("--new", required=True)
p.add_argument("--dir", default="/srv/metabench")
p.add_argument("--rounds", type=int, default=7)
a = p.parse_args()
d = a.dir
home = os.path.join(d, "home")


def setup():
    os.makedirs(home, exist_ok=True)
    repo = os.path.join(d, "repo")
    if not os.path.isdir(os.path.join(repo, ".git")):
        for i in range(100):
            os.makedirs(os.path.join(repo, "d%d" % i), exist_ok=True)
            for j in range(100):
                with open(os.path.join(repo, "d%d/f%d.txt" % (i, j)), "w") as f:
                    f.write("x%d\n" % j)
        env = dict(os.environ, HOME=home)
        subprocess.run("git init -q . && git add -A && git -c user.name=a -c user.email=a@b commit -qm init",
                       shell=True, cwd=repo, check=True, env=env)
    ls = os.path.join(d, "lsdir")
    if not os.path.isdir(ls):
        os.makedirs(ls)
        for i in range(10000):
            open(os.path.join(ls, "f%d" % i), "w").write("x")
        for i in range(100):
            os.symlink("f%d" % i, os.path.join(ls, "l%d" % i))
    nm = os.path.join(d, "nodeproj/node_modules")
    if not os.path.isdir(nm):
        os.makedirs(os.path.join(nm, "a/lib"))
        os.symlink("a", os.path.join(nm, "b"))
    with open(os.path.join(d, "realpath.js"), "w") as f:
        f.write('const fs = require("fs");\nconst p = process.argv[2], n = +process.argv[3];\n'
                'for (let i = 0; i < n; i++) { fs.realpathSync(p); fs.realpathSync.native(p); }\n')
    mk = os.path.join(d, "mk")
    os.makedirs(mk, exist_ok=True)
    for i in range(1, 21):
        open(os.path.join(mk, "f%d.c" % i), "w").write("int f%d(void){return %d;}\n" % (i, i))
    open(os.path.join(mk, "Makefile"), "w").write(
        "OBJS=$(patsubst %.c,%.o,$(wildcard *.c))\nall: $(OBJS)\n%.o: %.c\n\tgcc -O0 -c $< -o $@\nclean:\n\trm -f *.o\n")


# name, argv, cwd, trapped metadata calls (strace -f -c, native), before-hook
workloads = [
    ("true (startup)", ["true"], d, 0, None),
    ("git status, 10k files", ["git", "status", "--porcelain"], os.path.join(d, "repo"), 1, None),
    ("ls -l, 10k files", ["ls", "-l", "lsdir"], d, 20203, None),
    ("node realpathSync x2000 (JS + native)", ["node", "realpath.js", os.path.join(d, "nodeproj/node_modules/b/lib"), "1000"], d, 8001, None),
    ("make, 20 C files", ["make", "-s", "-B"], os.path.join(d, "mk"), 1260, None),
]


def run(side, argv, cwd):
    env = {"HOME": home, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
    if side != "native":
        argv = [side, "exec", "--quiet", "--profile", "generic", "--audit", os.path.join(home, "audit.jsonl"), "--"] + argv
    t = time.perf_counter()
    r = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    el = time.perf_counter() - t
    if r.returncode != 0:
        sys.exit("%s %s: exit %d: %s" % (side, argv, r.returncode, r.stderr.decode()[-500:]))
    return el


setup()
sides = [("native", "native"), ("old", os.path.abspath(a.old)), ("new", os.path.abspath(a.new))]
print("| workload | native ms | sandbox before ms | sandbox after ms | after/native | after/before | trapped calls | µs per call (after-before) |")
print("|---|---|---|---|---|---|---|---|")
for name, argv, cwd, calls, _ in workloads:
    times = {s: [] for s, _ in sides}
    run("native", argv, cwd)  # warm the caches
    for _ in range(a.rounds):
        for s, b in sides:
            times[s].append(run(b, argv, cwd) * 1000)
    med = {s: statistics.median(v) for s, v in times.items()}
    fmt = lambda s: "%.1f (%.1f–%.1f)" % (med[s], min(times[s]), max(times[s]))
    per = "%.1f" % ((med["new"] - med["old"]) * 1000 / calls) if calls > 1 else "–"
    print("| %s | %s | %s | %s | %.2f | %.2f | %d | %s |" % (
        name, fmt("native"), fmt("old"), fmt("new"), med["new"] / med["native"], med["new"] / med["old"], calls, per))
