#!/bin/sh
# betweenness.sh OUTDIR [SPEC...]: betweenness against distances alone in the same run, and against
# networkx and igraph, on each generated graph (default: every graph of bench/apsp.sh, its GRAPHS).
#  - bench/bench_betweenness on UNITS (default "gpu all"; K sources, default 4096, K_DEEP on grid and
#    road graphs, default 1024; CHECK sources checked first, default 64 but 0 with every unit: the
#    sums have the CPU code's bits): auto's engines (distances: dial, phast or batched; betweenness:
#    dial-brandes or brandes, ENGINE=E for both), the rate of each and the ratio (issue 54's goals:
#    0.4x distances' rate on random 1M and R-MAT 20 on one GPU; every unit at least the best unit
#    alone); EDGES=1 adds edge betweenness (--edge-betweenness);
#  - tuccompi-apsp --betweenness from the same BASE_K sources (default 8) as networkx and igraph
#    (bench/betweenness_baseline.py, each under LIMIT seconds, default 300: "did not finish" else),
#    their values compared with ours (1e-9 relative), their rates printed beside ours; and every source
#    of SMALL (default random:4096), for an igraph older than 0.11 (no sources=) and as a whole run.
# OUTDIR gets bc.csv (bench_betweenness --csv: graph, what, units, sources, MK, seconds, rate, on GPUs,
# engine), baselines.txt and the logs. Needs python3 with numpy for the baselines (networkx, igraph
# where installed: Debian's python3-networkx, python3-igraph). UNITS="" skips bench_betweenness,
# BASELINES=0 the baselines (scripts/gpu-node.sh splits them so); REPS: bench_betweenness's
# repetitions (3); SWEEPS: the brandes engine's ways of sweeping on a GPU to run, each beside its own
# distances-alone run (default "order"; "order rounds" compares them: TUCCOMPI_BRANDES_SWEEP).
set -u
out=${1:?usage: betweenness.sh OUTDIR [SPEC...]}
shift
here=$(cd "$(dirname "$0")" && pwd)
# bench/apsp.sh's graphs, from its own default (one list for both benches)
[ $# -gt 0 ] || set -- ${GRAPHS:-$(sed -n 's/^GRAPHS=\${GRAPHS:-\(.*\)}$/\1/p' "$here/apsp.sh")} "${SMALL:-random:4096}"
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
	k=$K
	case $spec in grid:* | road:*) k=${K_DEEP:-1024} ;; esac
	for u in ${UNITS-gpu all}; do
		for sw in ${SWEEPS:-order}; do
			echo "=== $spec, $u units, $k sources, engine ${ENGINE:-auto}, brandes' GPU sweeps: $sw"
			check=${CHECK:-64}
			[ "$u" = all ] && check=0
			TUCCOMPI_BRANDES_SWEEP=$sw timeout "${RUN_LIMIT:-600}" "$BC" --gen "$spec" --sources "$k" --units "$u" \
				--reps "${REPS:-3}" --engine "${ENGINE:-auto}" --check "$check" ${EDGES:+--edges} --csv "$out/bc.csv" 2>&1 |
				tee "$out/$name-$u-$sw.log"
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
