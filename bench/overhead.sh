#!/bin/sh
# bench/overhead.sh [OUTDIR]: the runtime's per-task cost on 1, 2 and 4 ranks of this machine,
# for 0/1/10/100/1000 us tasks under EQ1, EQ2, MS, MS-TAIL, eager and lws, with the schedulers
# waking one worker per task (default) and all workers of able units (TUCCOMPI_SCHED_WAKE=all),
# in one run. CSV per configuration in OUTDIR (default bench-overhead), one table on stdout.
# Run from the build tree (or the bundle: BIN=bundle/bench).
out=${1:-bench-overhead}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${BIN:-$here/bench}
mpirun=$here/tests/mpirun.sh
mkdir -p "$out"
for wake in one all; do
	for n in 1 2 4; do
		echo "== $n rank(s), wake $wake"
		if [ "$n" = 1 ]; then
			TUCCOMPI_SCHED_WAKE=$wake "$bin/overhead" --reps "${REPS:-5}" --csv "$out/overhead-$n-$wake.csv"
		else
			MPIRUN_ARGS="-x TUCCOMPI_SCHED_WAKE=$wake" "$mpirun" "$n" "$bin/overhead" --reps "${REPS:-5}" \
				--csv "$out/overhead-$n-$wake.csv"
		fi
	done
done
