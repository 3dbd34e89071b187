#!/bin/sh
# bench/overhead.sh [OUTDIR]: the runtime's per-task cost on 1, 2 and 4 ranks of this machine,
# for 0/1/10/100/1000 us tasks under EQ1, EQ2, MS, MS-TAIL, eager and lws, in one run. CSV per
# configuration in OUTDIR (default bench-overhead), one table on stdout.
# Run from the build tree (or the bundle: BIN=bundle/bench).
out=${1:-bench-overhead}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bench}
mpirun=$here/tests/mpirun.sh
mkdir -p "$out"
for n in 1 2 4; do
	echo "== $n rank(s)"
	if [ "$n" = 1 ]; then
		"$bin/overhead" --reps "${REPS:-5}" --csv "$out/overhead-$n.csv"
	else
		"$mpirun" "$n" "$bin/overhead" --reps "${REPS:-5}" --csv "$out/overhead-$n.csv"
	fi
done
