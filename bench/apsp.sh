#!/usr/bin/env bash
# bench/apsp.sh [OUTDIR]: APSP throughput on the paper's random graph (1,049,088 vertices,
# out-degree 1..9, weights 1..10), all in one run so the ratios compare like with like:
#   one CPU core (ours and the Boost Graph Library's Dijkstra), all CPU cores, the GPU with
#   MK = 1 and with tuned MK, and every unit together under EQ1, EQ2, MS and StarPU's dmda
#   and lws; the heterogeneous efficiency (all units / (all cores + GPU)); the share of the
#   run in host<->GPU transfers. Writes OUTDIR/apsp-bench.csv and prints a table.
# Environment: APP (tuccompi-apsp), BOOST (boost_dijkstra), SIZES (source counts for MS,
# default "1024 4096 16384 32408"), N (vertices).
set -u
out=${1:-.}
mkdir -p "$out"
APP=${APP:-tuccompi-apsp}
BOOST=${BOOST:-$(dirname "$0")/boost_dijkstra}
N=${N:-1049088}
SIZES=${SIZES:-1024 4096 16384 32408}
G="--gen random:$N --seed 1 --quiet"
csv=$out/apsp-bench.csv
echo "config,units,policy,mk,sources,seconds,sssp_per_s,transfer_share" >"$csv"

# run NAME UNITS POLICY MK SOURCES [extra args]: one tuccompi-apsp run, a CSV row
run() {
	local name=$1 units=$2 policy=$3 mk=$4 k=$5
	shift 5
	local log=$out/apsp-$name-$k.log
	local t0 t1
	t0=$(date +%s.%N)
	"$APP" $G --units "$units" --policy "$policy" --mk "$mk" --sources "random:$k" --summary "$@" >"$log" 2>&1 ||
		{ echo "$name: failed, see $log"; tail -3 "$log"; return; }
	t1=$(date +%s.%N)
	# tuccompi-apsp -q prints nothing but the summary (--summary goes to stderr)
	local secs rate share
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')
	wall=$(awk '/^  rank 0: .* tasks in/ {for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1)}' "$log" | head -1)
	[ -n "$wall" ] || wall=$secs
	rate=$(awk -v k="$k" -v w="$wall" 'BEGIN {printf "%.2f", k / w}')
	share=$(grep -o 'transfers [^;]*(\([0-9.]*\)%)' "$log" | head -1 | grep -o '([0-9.]*%)' | tr -d '()%')
	echo "$name,$units,$policy,$mk,$k,$wall,$rate,${share:-0}" >>"$csv"
	printf '%-22s %6s sources  %9.3f s  %10.2f SSSP/s  transfers %s%%\n' "$name" "$k" "$wall" "$rate" "${share:-0}"
}

echo "== one core: Boost vs ours (same graph, same sources, same run)"
if [ -x "$BOOST" ]; then
	"$BOOST" --n "$N" --sources 6 --seed 1 | tee "$out/boost.txt"
else
	echo "(no $BOOST: build it with make bench where libboost-graph-dev is installed)"
fi
run cpu-1core cpu ms 1 8 --ncpu 1
echo "== all CPU cores"
run cpu-all cpu ms 1 96
echo "== the GPU alone"
run gpu-mk1 gpu ms 1 1024
run gpu-mk4 gpu ms 4 2048
run gpu-mkauto gpu ms auto 2048
echo "== every unit together"
"$APP" $G --policy dmda --sources random:512 >/dev/null 2>&1 # calibrate dmda's models
for k in $SIZES; do
	run all-ms all ms 4 "$k"
done
for p in dmda lws; do
	run "all-$p" all "$p" 4 4096
done
for p in eq1 eq2; do
	run "all-$p" all "$p" 4 1024
done

echo "== heterogeneous efficiency: all units / (all CPU cores + the GPU alone)"
awk -F, 'NR > 1 {r[$1 "@" $5] = $7}
END {
	cpu = r["cpu-all@96"]; gpu = r["gpu-mk4@2048"]; all = r["all-ms@4096"]
	if (cpu && gpu && all) printf "MS, 4096 sources: %.1f / (%.1f + %.1f) = %.3f\n", all, cpu, gpu, all / (cpu + gpu)
}' "$csv" | tee "$out/efficiency.txt"
echo "results: $csv"
