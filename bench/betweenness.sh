#!/bin/sh
# betweenness.sh OUTDIR [SPEC...]: betweenness against distances alone, and against networkx and
# igraph, on each generated graph (default: random:1049088 rmat:20 road:1000000), in one run.
#  - bench/bench_betweenness on UNITS (default "gpu all"; K sources, default 4096; --check 64 first:
#    the GPU's sums have the CPU code's bits): the rate of each and the ratio (docs/apsp.md's goals:
#    0.4x distances' rate on the GPU; 4,096 sources of random 1M in 3 s with every unit);
#  - tuccompi-apsp --betweenness from the same BASE_K sources (default 8) as networkx and igraph
#    (bench/betweenness_baseline.py, each under LIMIT seconds, default 300: "did not finish" else),
#    their values compared with ours (1e-9 relative), their rates printed beside ours; and every source
#    of SMALL (default random:4096), for an igraph older than 0.11 (no sources=) and as a whole run.
# OUTDIR gets bc.csv (bench_betweenness --csv), baselines.txt and the logs. Needs python3 with numpy
# for the baselines (networkx, igraph where installed: Debian's python3-networkx, python3-igraph).
# UNITS="" skips bench_betweenness, BASELINES=0 the baselines (scripts/gpu-node.sh splits them so);
# REPS: bench_betweenness's repetitions (3); SWEEPS: the GPU's ways of sweeping to run, each beside its
# own distances-alone run (default "order"; "order rounds" compares them: TUCCOMPI_BRANDES_SWEEP).
set -u
out=${1:?usage: betweenness.sh OUTDIR [SPEC...]}
shift
[ $# -gt 0 ] || set -- random:1049088 rmat:20 road:1000000 "${SMALL:-random:4096}"
here=$(cd "$(dirname "$0")" && pwd)
b=${top_builddir:-$here/..}
BC=${BC:-$b/bench/bench_betweenness}
APP=${APP:-$b/apps/apsp/tuccompi-apsp}
GT=${GRAPHTOOL:-$b/apps/apsp/tuccompi-graph}
PY=${PY:-$(command -v /usr/bin/python3 || echo python3)}
K=${K:-4096}
BASE_K=${BASE_K:-8}
LIMIT=${LIMIT:-300}
mkdir -p "$out"
for spec in "$@"; do
	name=$(echo "$spec" | tr ':' '-')
	for u in ${UNITS-gpu all}; do
		for sw in ${SWEEPS:-order}; do
			echo "=== $spec, $u units, $K sources, GPU sweeps: $sw"
			check=64
			[ "$u" = all ] && check=0
			TUCCOMPI_BRANDES_SWEEP=$sw timeout 600 "$BC" --gen "$spec" --sources "$K" --units "$u" --reps "${REPS:-3}" \
				--check $check --csv "$out/bc.csv" 2>&1 | tee "$out/$name-$u-$sw.log"
		done
	done
	[ "${BASELINES:-1}" = 0 ] && continue
	"$PY" -c "import numpy" 2>/dev/null || { echo "no numpy in $PY: baselines skipped"; continue; }
	echo "=== $spec: $BASE_K sources, tuccompi-apsp against networkx and igraph"
	"$GT" gen "$spec" --seed 1 -o "$out/$name.gr" >/dev/null || { echo "cannot write $spec as DIMACS"; continue; }
	if [ "$spec" = "${SMALL:-random:4096}" ]; then
		"$APP" "$out/$name.gr" --sources all --betweenness "$out/$name-ours.npy" >"$out/$name-ours.log" 2>&1 ||
			{ tail -3 "$out/$name-ours.log"; continue; }
		echo all >"$out/$name-src.txt"
	else
		"$APP" "$out/$name.gr" --sources random:"$BASE_K" --seed 1 -o "$out/$name-src.csv" \
			--betweenness "$out/$name-ours.npy" >"$out/$name-ours.log" 2>&1 || { tail -3 "$out/$name-ours.log"; continue; }
		tail -n +2 "$out/$name-src.csv" | cut -d, -f1 >"$out/$name-src.txt"
	fi
	echo "$spec: tuccompi-apsp (every unit): $(grep -oE '[0-9]+ SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$out/$name-ours.log")" |
		tee -a "$out/baselines.txt"
	for lib in igraph networkx; do
		if ! "$PY" -c "import $lib" 2>/dev/null; then
			echo "$lib: not installed" | tee -a "$out/baselines.txt"
			continue
		fi
		if timeout "$LIMIT" "$PY" "$here/betweenness_baseline.py" $lib "$out/$name.gr" "$out/$name-src.txt" \
			"$out/$name-$lib.npy" >"$out/$name-$lib.log" 2>&1; then
			"$PY" - "$out/$name-ours.npy" "$out/$name-$lib.npy" <<'PY' >>"$out/$name-$lib.log" 2>&1
import sys, numpy
a, b = numpy.load(sys.argv[1]), numpy.load(sys.argv[2])
bad = numpy.abs(a - b) > 1e-9 * numpy.abs(b) + 1e-12
print('values: %s' % ('the same (1e-9)' if not bad.any() else '%d vertices differ, e.g. %d: %r against %r' % (
    bad.sum(), bad.argmax(), a[bad.argmax()], b[bad.argmax()])))
PY
			sed "s/^/$spec: /" "$out/$name-$lib.log" | tee -a "$out/baselines.txt"
		else
			rc=$?
			[ $rc = 3 ] && sed "s/^/$spec: /" "$out/$name-$lib.log" | tail -1 | tee -a "$out/baselines.txt"
			[ $rc = 124 ] && echo "$spec: $lib did not finish in $LIMIT s" | tee -a "$out/baselines.txt"
			[ $rc != 3 ] && [ $rc != 124 ] && echo "$spec: $lib failed (exit $rc): $(tail -1 "$out/$name-$lib.log")" |
				tee -a "$out/baselines.txt"
		fi
	done
	rm -f "$out/$name.gr"
done
