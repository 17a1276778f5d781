#!/usr/bin/env bash
# run.sh: the interposer benchmarks of docs/PERFORMANCE.md ("Interposer").
# Usage: interposer/bench/run.sh [bin/aixbroker]   (after `make build`)
# Builds bench.c, makes a throwaway home with a denied key, and measures
# native, library only, sandbox without the library, sandbox with it.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=$(realpath "${1:-bin/aixbroker}")
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
home=$root/home p=$root/home/p
mkdir -p "$home/.ssh" "$p"
echo key >"$home/.ssh/id_rsa"
echo hi >"$p/readme"
gcc -O2 -o "$p/bench" interposer/bench/bench.c
go run ./interposer/bench/snapshot -project "$p" -home "$home" >"$root/snap.msgpack"

N=${N:-20000}
S=${S:-400}
lib=$PWD/interposer/libaixbroker.so
# The cases run as scripts: the sandbox's environment filter drops exported
# shell functions.
cat >"$p/cases.sh" <<EOS
"$p/bench" stat "$p/readme" $N
"$p/bench" stat "$home/.ssh/id_rsa" $N
"$p/bench" open "$home/.ssh/id_rsa" $N
"$p/bench" open "$p/missing" $N
EOS
cat >"$p/spawns.sh" <<EOS
"$p/bench" spawn $S /bin/true
"$p/bench" spawn $S /usr/bin/test -e "$p/readme"
EOS

echo "== native"
(cd "$p" && bash cases.sh)
echo "== library only (LD_PRELOAD, snapshot file, no sandbox)"
(cd "$p" && export AIXBROKER_INTERPOSER_SNAPSHOT=$root/snap.msgpack && LD_PRELOAD=$lib bash cases.sh && BENCH_PRELOAD=$lib bash spawns.sh)
echo "== sandbox, interposer off"
(cd "$p" && HOME=$home "$bin" exec --quiet --profile generic --interposer off --audit "$root/audit.jsonl" -- bash cases.sh)
echo "== sandbox, interposer on"
(cd "$p" && HOME=$home "$bin" exec --quiet --profile generic --interposer on --audit "$root/audit.jsonl" -- bash -c 'bash cases.sh; BENCH_PRELOAD=$LD_PRELOAD bash spawns.sh')
