#!/usr/bin/env bash
# run.sh: the interposer and stat-trap benchmarks of docs/PERFORMANCE.md
# ("Interposer and stat trap").
# Usage: interposer/bench/run.sh [bin/aixbroker]   (after `make build`)
# Builds bench.c (dynamic and static), makes a throwaway home with a denied
# key, and runs ROUNDS rounds (default 5); each round runs every
# configuration once, in an order rotated per round, so that a load change
# hits all alike. Prints every figure, then the median and range per
# configuration and case over the rounds.
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
gcc -O2 -static -o "$p/bench-static" interposer/bench/bench.c
go run ./interposer/bench/snapshot -project "$p" -home "$home" >"$root/snap.msgpack"

N=${N:-4000}
S=${S:-150}
ROUNDS=${ROUNDS:-5}
lib=$PWD/interposer/libaixbroker.so
# The cases run as scripts: the sandbox's environment filter drops exported
# shell functions. $1 is the bench binary.
cat >"$p/cases.sh" <<EOS
"\$1" stat "$p/readme" $N
"\$1" stat "$home/.ssh/id_rsa" $N
"\$1" open "$home/.ssh/id_rsa" $N
"\$1" fstat "$p/readme" $N
EOS
cat >"$p/spawns.sh" <<EOS
"$p/bench" spawn $S /bin/true
"$p/bench" spawn $S /usr/bin/test -e "$p/readme"
EOS

box() { # box INTERPOSER STAT_TRAP CMD...: run CMD in the sandbox
	local i=$1 s=$2
	shift 2
	(cd "$p" && HOME=$home "$bin" exec --quiet --profile generic --interposer "$i" --stat-trap "$s" \
		--audit "$root/audit.jsonl" -- "$@")
}
config() { # config NAME: one configuration's figures, each line prefixed NAME|
	case $1 in
	native) (cd "$p" && bash cases.sh "$p/bench") ;;
	library) (cd "$p" && export AIXBROKER_INTERPOSER_SNAPSHOT=$root/snap.msgpack &&
		LD_PRELOAD=$lib bash cases.sh "$p/bench" && BENCH_PRELOAD=$lib bash spawns.sh) ;;
	sandbox) box off off bash cases.sh "$p/bench" ;;
	sandbox+library) box on off bash -c 'bash cases.sh "$0"; BENCH_PRELOAD=$LD_PRELOAD bash spawns.sh' "$p/bench" ;;
	sandbox+trap) box off on bash -c 'bash cases.sh "$0"; BENCH_PRELOAD= bash spawns.sh' "$p/bench" ;;
	sandbox+trap+library) box on on bash -c 'bash cases.sh "$0"; BENCH_PRELOAD=$LD_PRELOAD bash spawns.sh' "$p/bench" ;;
	static-native) (cd "$p" && bash cases.sh "$p/bench-static") ;;
	static-sandbox) box off off bash cases.sh "$p/bench-static" ;;
	static-sandbox+trap) box off on bash cases.sh "$p/bench-static" ;;
	esac 2>&1 | sed "s/^/$1|/"
}
configs=(native library sandbox sandbox+library sandbox+trap sandbox+trap+library static-native static-sandbox static-sandbox+trap)
out=$root/figures
for ((r = 0; r < ROUNDS; r++)); do
	echo "== round $((r + 1)) (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
	for ((k = 0; k < ${#configs[@]}; k++)); do
		config "${configs[$(((k + r) % ${#configs[@]}))]}"
	done | tee -a "$out"
done
# Summary: per configuration and case, median and range over the rounds.
# Per-call figures are ns; spawns µs, wall and child CPU, without and with
# the library (sandbox+trap: both halves without it).
echo
echo "== medians over $ROUNDS rounds (per call: ns; spawn: µs, wall median and child CPU mean, without and with the library)"
python3 - "$out" <<'EOP'
import re, statistics, sys
v = {}
for line in open(sys.argv[1]):
    conf, _, rest = line.rstrip("\n").partition("|")
    m = re.match(r"(\w+ \S+): (\d+) ns per call", rest)
    if m:
        v.setdefault((conf, m[1]), []).append(float(m[2]))
    m = re.match(r"spawn (\S+): wall median (\d+) / (\d+) us.*child CPU mean (\d+) / (\d+) us", rest)
    if m:
        for k, label in ((2, "wall, without"), (3, "wall, with"), (4, "CPU, without"), (5, "CPU, with")):
            v.setdefault((conf, f"spawn {m[1]} ({label})"), []).append(float(m[k]))
for (conf, case), xs in sorted(v.items()):
    print(f"{conf:22} {case:55} median {statistics.median(xs):9.0f}  range {min(xs):.0f}-{max(xs):.0f}  n={len(xs)}")
EOP
