#!/usr/bin/env bash
# bench/apsp.sh [OUTDIR]: many-source shortest paths, every engine side by side, in one run so
# that ratios compare like with like (these machines are noisy):
#   - for each graph (the paper's random graph, a 4M-vertex one, R-MAT scale 20, a 1024x1024 grid,
#     a 1M-vertex road-like graph): the GPU alone with the paper's engine (crauser, today's) and
#     the new ones (batched; phast on road-like graphs), and all CPU cores with each;
#   - one CPU core against the Boost Graph Library's Dijkstra on the same file and sources;
#   - the paper's largest set, 32,408 sources of the random graph, with every unit (auto engine)
#     under MS and MS-TAIL;
#   - each rate also as a ratio to the paper's engine on the same units in the same run;
#   - every unit with the graph's engines (batched and dial on random and R-MAT graphs, PHAST on deep
#     ones), on one rank and on two ranks of the node, against that engine on the GPU alone (same
#     sources) and on the CPU cores alone in the same run (dial's CPU units are batched's: the
#     cpu-batched row): the ratios of issue 24 (every unit / best unit alone, every unit / the sum of
#     the units alone, GPU / CPU cores), for 1 and 2 ranks, one row per graph and engine.
# Writes OUTDIR/apsp-bench.csv and OUTDIR/apsp-ratios.csv, prints both tables; bench/apsp_table.py
# turns the CSV into the README's table. Environment: APP, GRAPHTOOL, BOOST (programs),
# MPIRUN (tests/mpirun.sh: the two-rank rows), GRAPHS (default "random:1049088 random:4194304 rmat:20 grid:1024x1024 road:1048576"),
# QUICK=1 (fewer sources, for a smoke test).
set -u
out=${1:-.}
mkdir -p "$out"
here=$(cd "$(dirname "$0")" && pwd)
APP=${APP:-tuccompi-apsp}
GRAPHTOOL=${GRAPHTOOL:-tuccompi-graph}
BOOST=${BOOST:-$here/boost_dijkstra}
MPIRUN=${MPIRUN:-$here/../tests/mpirun.sh}
GRAPHS=${GRAPHS:-random:1049088 random:4194304 rmat:20 grid:1024x1024 road:1048576}
q=${QUICK:-0}
csv=$out/apsp-bench.csv
echo "graph,config,units,engine,policy,mk,sources,seconds,sssp_per_s,ratio_to_crauser" >"$csv"

scale() { # N -> N, or N/8 (at least 8) with QUICK=1
	if [ "$q" = 1 ]; then echo $(($1 / 8 > 8 ? $1 / 8 : 8)); else echo "$1"; fi
}

# run GRAPH FILE CONFIG UNITS ENGINE POLICY MK SOURCES [extra args]: one tuccompi-apsp run, a CSV row
# (MK "engine": no --mk, the engine chooses; a CONFIG named all2-*: two ranks through $MPIRUN)
run() {
	local graph=$1 file=$2 name=$3 units=$4 engine=$5 policy=$6 mk=$7 k launch=()
	k=$(scale "$8")
	shift 8
	case $name in all2-*) launch=("$MPIRUN" 2) ;; esac
	local log=$out/$(echo "$graph" | tr ':' '-')-$name-$k.log
	local mkarg=(--mk "$mk")
	[ "$mk" = engine ] && mkarg=() # the engine's own MK (batched: 1 on shallow graphs, 4 on deep ones)
	timeout 300 "${launch[@]}" "$APP" "$file" --engine "$engine" --units "$units" --policy "$policy" "${mkarg[@]}" \
		--sources "random:$k" --seed 1 --summary -q "$@" >"$log" 2>&1 ||
		{ echo "$graph $name: failed, see $log"; tail -3 "$log"; return; }
	# the run's own wall time (PARALLEL to SYN), from the summary
	local wall rate base ratio
	wall=$(awk '/^  rank 0: .* tasks in/ {for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1)}' "$log" | head -1)
	[ -n "$wall" ] || { echo "$graph $name: no summary in $log"; return; }
	rate=$(awk -v k="$k" -v w="$wall" 'BEGIN {printf "%.2f", k / w}')
	base=$(awk -F, -v g="$graph" -v u="$units" '$1 == g && $3 == u && $4 == "crauser" {r = $9} END {print r}' "$csv")
	ratio=$(awk -v r="$rate" -v b="${base:-0}" 'BEGIN {if (b > 0) printf "%.2f", r / b; else print ""}')
	echo "$graph,$name,$units,$engine,$policy,$mk,$k,$wall,$rate,$ratio" >>"$csv"
	printf '%-16s %-18s %6s sources %9.3f s %10.1f SSSP/s %8s\n' "$graph" "$name" "$k" "$wall" "$rate" \
		"${ratio:+x$ratio}"
}

for spec in $GRAPHS; do
	file=$out/$(echo "$spec" | tr ':' '-').tgb
	echo "== $spec"
	if [ ! -s "$file" ] && ! "$GRAPHTOOL" gen "$spec" --seed 1 -o "$file" >"$out/gen.log" 2>&1; then
		echo "cannot generate $spec:"; tail -2 "$out/gen.log"; continue
	fi
	case $spec in
	grid:* | road:*) deep=1 ;;
	*) deep=0 ;;
	esac
	# the GPU alone: today's engine, then the new ones
	if [ "$deep" = 1 ]; then
		run "$spec" "$file" gpu-crauser gpu crauser ms 4 64
		run "$spec" "$file" gpu-batched gpu batched ms 4 1024
		run "$spec" "$file" gpu-phast-mk1 gpu phast ms 1 32768 --ch-cache "$file.ch"
		run "$spec" "$file" gpu-phast-mk4 gpu phast ms 4 65536 --ch-cache "$file.ch"
	else
		run "$spec" "$file" gpu-crauser gpu crauser ms 4 1024
		run "$spec" "$file" gpu-batched-mk1 gpu batched ms 1 16384
		run "$spec" "$file" gpu-batched-mk2 gpu batched ms 2 4096
		# the dial engine (weights 1..64; the generated graphs' are 1..10), its own MK
		kd=65536
		case $spec in random:4194304) kd=16384 ;; esac
		run "$spec" "$file" gpu-dial gpu dial ms engine $kd
	fi
	# all CPU cores with each engine
	run "$spec" "$file" cpu-crauser cpu crauser ms 1 64
	run "$spec" "$file" cpu-batched cpu batched ms 1 128
	[ "$deep" = 1 ] && run "$spec" "$file" cpu-phast cpu phast ms 1 4096 --ch-cache "$file.ch"
	# every unit with the best engine (MK: the engine's own, as a user gets it; it was forced to 4,
	# which slowed the batched engine's GPU on shallow graphs: 0.86-0.91x the GPU alone at MK 1), as
	# many sources as the GPU-alone row it is compared with, on one rank and on two
	if [ "$deep" = 1 ]; then
		run "$spec" "$file" all-phast all phast ms-tail engine 65536 --ch-cache "$file.ch"
		run "$spec" "$file" all2-phast all phast ms-tail engine 65536 --ch-cache "$file.ch"
	else
		run "$spec" "$file" all-batched all batched ms-tail engine 16384
		run "$spec" "$file" all2-batched all batched ms-tail engine 16384
		run "$spec" "$file" all-dial all dial ms-tail engine $kd
		run "$spec" "$file" all2-dial all dial ms-tail engine $kd
	fi
done

echo "== one core: Boost's Dijkstra, ours (heap) and the bucket-queue engine, same file, same sources"
rfile=$out/random-1049088.tgb
if [ -x "$BOOST" ] && [ -s "$rfile" ]; then
	"$BOOST" "$rfile" --sources "$(scale 16)" --seed 1 | tee "$out/boost.txt"
else
	echo "(no $BOOST or no $rfile: build it with make bench where libboost-graph-dev is installed)"
fi

echo "== every unit, the paper's largest set (32,408 sources of the random graph)"
if [ -s "$rfile" ]; then
	run random:1049088 "$rfile" all-ms all auto ms 1 32408
	run random:1049088 "$rfile" all-ms-tail all auto ms-tail 1 32408
fi
# the ratios, from the rates above (same run)
ratios=$out/apsp-ratios.csv
awk -F, '
function rate(g, c) { return (g SUBSEP c) in r ? r[g, c] : 0 }
NR > 1 { r[$1, $2] = $9; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
END {
	print "graph,engine,gpu_alone,cpu_alone,every_unit,every_unit_vs_best_alone,every_unit_vs_sum,gpu_vs_cpu,every_unit_2_ranks,2_ranks_vs_best_alone,2_ranks_vs_sum"
	split("phast batched dial", engines, " ")
	for (i = 1; i <= n; i++) for (k = 1; k <= 3; k++) {
		g = order[i]; e = engines[k]
		all = rate(g, "all-" e); all2 = rate(g, "all2-" e)
		if (all <= 0) continue
		if (e == "phast") gpu = rate(g, "gpu-phast-mk4")
		else if (e == "dial") gpu = rate(g, "gpu-dial")
		else gpu = rate(g, "gpu-batched-mk2") > rate(g, "gpu-batched-mk1") ? rate(g, "gpu-batched-mk2") : rate(g, "gpu-batched-mk1")
		cpu = rate(g, e == "phast" ? "cpu-phast" : "cpu-batched") # dial: the same CPU code as batched
		best = gpu > cpu ? gpu : cpu
		vb = ""; vs = ""; gc = ""; a2 = ""; vb2 = ""; vs2 = ""
		if (best > 0) vb = sprintf("%.3f", all / best)
		if (gpu + cpu > 0) vs = sprintf("%.3f", all / (gpu + cpu))
		if (cpu > 0) gc = sprintf("%.1f", gpu / cpu)
		if (all2 > 0) {
			a2 = sprintf("%.1f", all2)
			if (best > 0) vb2 = sprintf("%.3f", all2 / best)
			if (gpu + cpu > 0) vs2 = sprintf("%.3f", all2 / (gpu + cpu))
		}
		printf "%s,%s,%.1f,%.1f,%.1f,%s,%s,%s,%s,%s,%s\n", g, e, gpu, cpu, all, vb, vs, gc, a2, vb2, vs2
	}
}' "$csv" >"$ratios"
echo "== ratios (issue 24: every unit never below the best unit alone, >= 0.97 of their sum)"
column -t -s, "$ratios" 2>/dev/null || cat "$ratios"
echo "results: $csv $ratios"
