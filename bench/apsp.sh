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
#   - GPU PHAST against its traffic floor (issue 24, item 2; docs/apsp.md): a pass of 256 sources
#     reads a 1 KB row per down-arc of the hierarchy and writes one per vertex, at the GPU's DRAM
#     bandwidth (PEAK_TBPS, TB/s; by default from the GPU's name: H200 4.8, H100 SXM 3.35, H100 NVL
#     3.9, H100 PCIe 2.0); the column gpu_vs_floor is the floor's time over the measured one;
#   - every unit with the graph's engines (batched and dial on random and R-MAT graphs, PHAST on deep
#     ones), on one rank and on two ranks of the node, against that engine on the GPU alone (same
#     sources) and on the CPU cores alone in the same run (dial's CPU units are batched's: the
#     cpu-batched row): the ratios of issue 24 (every unit / best unit alone, every unit / the sum of
#     the units alone, GPU / CPU cores), for 1 and 2 ranks, one row per graph and engine.
# Writes OUTDIR/apsp-bench.csv, OUTDIR/apsp-ratios.csv and OUTDIR/apsp-floor.csv, prints the tables; bench/apsp_table.py
# turns the CSV into the README's table. Environment: APP, GRAPHTOOL, BOOST (programs),
# MPIRUN (tests/mpirun.sh: the two-rank rows), GRAPHS (default "random:1049088 random:4194304 rmat:20 grid:1024x1024 road:1048576"),
# QUICK=1 (fewer sources, for a smoke test), REPS=N (default 1): the rows the ratios compare (each
# engine's GPU alone, CPU cores alone, every unit on 1 and 2 ranks) run N times in alternating rounds,
# and the ratios use each row's median rate; apsp-ratios.csv's `spread` is the largest max/min - 1
# of those rows' rates (a 0.3 s set swings by about 3%: a ratio closer to its goal than the spread is
# not decided by one run).
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
reps=${REPS:-1}
case $reps in '' | *[!0-9]* | 0) echo "apsp.sh: REPS must be a positive integer, not '$reps'" >&2; exit 2 ;; esac
rep=1 in_rounds=0 # the round of the row being run (the rows the ratios compare run REPS rounds)
csv=$out/apsp-bench.csv
echo "graph,config,units,engine,policy,mk,sources,seconds,sssp_per_s,ratio_to_crauser,rep,cpu_workers" >"$csv"
floor=$out/apsp-floor.csv # graph,vertices,down_arcs,peak_tbps: each deep graph's hierarchy and the GPU's bandwidth
echo "graph,vertices,down_arcs,peak_tbps" >"$floor"
# the GPU's DRAM bandwidth in TB/s, from PEAK_TBPS or the GPU's name (empty: unknown)
peak_tbps() {
	if [ -n "${PEAK_TBPS:-}" ]; then echo "$PEAK_TBPS"; return; fi
	case $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1) in
	*H200*) echo 4.8 ;;
	*H100*NVL*) echo 3.9 ;;
	*H100*PCIe*) echo 2.0 ;;
	*H100*) echo 3.35 ;;
	esac
}
tbps=$(peak_tbps)
# hierarchy GRAPH FILE: the vertices and down arcs of FILE's contraction hierarchy (FILE.ch, made by the
# GPU PHAST row before it) as a row of $floor
hierarchy() {
	local log n down
	log=$out/$(echo "$1" | tr ':' '-')-hierarchy.log
	"$APP" "$2" --engine phast --units cpu --ncpu 1 --sources 0-0 --ch-cache "$2.ch" >"$log" 2>&1 ||
		{ echo "$1: no hierarchy, see $log"; return; }
	n=$(awk '/^graph: / {print $2; exit}' "$log")
	down=$(sed -n 's/.* \([0-9][0-9]*\) down arcs.*/\1/p' "$log" | head -1)
	[ -n "$n" ] && [ -n "$down" ] || { echo "$1: no hierarchy size in $log"; return; }
	echo "$1,$n,$down,$tbps" >>"$floor"
}

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
	[ "$rep" -gt 1 ] && log=${log%.log}-rep$rep.log
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
	# the CPU workers that took part (the summary's CPU rows, every rank): the sum of the units alone
	# can then count as many cores as the every-unit run had
	local ncpu
	ncpu=$(awk '/^run summary:/ {on = 1; next} on && $2 == "CPU" {c++} END {print c + 0}' "$log")
	echo "$graph,$name,$units,$engine,$policy,$mk,$k,$wall,$rate,$ratio,$rep,$ncpu" >>"$csv"
	printf '%-16s %-18s %6s sources %9.3f s %10.1f SSSP/s %8s%s\n' "$graph" "$name" "$k" "$wall" "$rate" \
		"${ratio:+x$ratio}" "$([ "$in_rounds" = 1 ] && [ "$reps" -gt 1 ] && echo "  (round $rep)")"
}

# rounds FUNCTION: FUNCTION's rows (those the ratios compare) in REPS rounds of all of them in turn,
# so that a slow minute of the machine falls on every row alike
rounds() {
	local r
	in_rounds=1
	for r in $(seq 1 "$reps"); do
		rep=$r
		"$1"
	done
	rep=1 in_rounds=0
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
	# the GPU alone: today's engine, then the new ones; all CPU cores with each engine; every unit
	# with the best engine (MK: the engine's own, as a user gets it; it was forced to 4, which slowed
	# the batched engine's GPU on shallow graphs: 0.86-0.91x the GPU alone at MK 1), as many sources
	# as the GPU-alone row it is compared with, on one rank and on two. The rows the ratios compare
	# are compared_rows's, run in REPS rounds.
	if [ "$deep" = 1 ]; then
		run "$spec" "$file" gpu-crauser gpu crauser ms 4 64
		run "$spec" "$file" gpu-batched gpu batched ms 4 1024
		run "$spec" "$file" gpu-phast-mk1 gpu phast ms 1 32768 --ch-cache "$file.ch"
		hierarchy "$spec" "$file"
		run "$spec" "$file" cpu-crauser cpu crauser ms 1 64
		run "$spec" "$file" cpu-batched cpu batched ms 1 128
		compared_rows() {
			run "$spec" "$file" gpu-phast gpu phast ms engine 65536 --ch-cache "$file.ch"
			run "$spec" "$file" cpu-phast cpu phast ms 1 4096 --ch-cache "$file.ch"
			run "$spec" "$file" all-phast all phast ms-tail engine 65536 --ch-cache "$file.ch"
			run "$spec" "$file" all2-phast all phast ms-tail engine 65536 --ch-cache "$file.ch"
		}
	else
		# the dial engine (weights 1..64; the generated graphs' are 1..10), its own MK
		kd=65536
		case $spec in random:4194304) kd=16384 ;; esac
		run "$spec" "$file" gpu-crauser gpu crauser ms 4 1024
		run "$spec" "$file" cpu-crauser cpu crauser ms 1 64
		# dial without a GPU: its CPU units' bit-parallel form, 512 sources per call on 16 cores (the
		# every-unit rows' CPU units beside the GPU run the bucket queue: cpu-batched is their row)
		run "$spec" "$file" cpu-dial cpu dial ms 1 8192
		compared_rows() {
			run "$spec" "$file" gpu-batched-mk1 gpu batched ms 1 16384
			run "$spec" "$file" gpu-batched-mk2 gpu batched ms 2 4096
			run "$spec" "$file" gpu-dial gpu dial ms engine $kd
			run "$spec" "$file" cpu-batched cpu batched ms 1 128
			run "$spec" "$file" all-batched all batched ms-tail engine 16384
			run "$spec" "$file" all2-batched all batched ms-tail engine 16384
			run "$spec" "$file" all-dial all dial ms-tail engine $kd
			run "$spec" "$file" all2-dial all dial ms-tail engine $kd
		}
	fi
	rounds compared_rows
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
# the median of a row'"'"'s rates over its rounds (and of its CPU workers), the spread max/min - 1
function med(key,    m, i, j, t, v) {
	m = split(vals[key], v, " ")
	for (i = 2; i <= m; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
	if (m == 0) return 0
	return m % 2 ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
}
function rate(g, c) { return med(g SUBSEP c) }
function cores(g, c) { return med("w" SUBSEP g SUBSEP c) }
function spread(g, c,    k) { k = g SUBSEP c; return (k in lo) && lo[k] > 0 ? hi[k] / lo[k] - 1 : 0 }
FNR == NR { if (FNR > 1 && $4 != "") fbytes[$1] = ($2 + $3) * 4 / ($4 * 1e12); next } # seconds per source at the floor
FNR > 1 && $9 != "" {
	k = $1 SUBSEP $2
	vals[k] = vals[k] " " $9; vals["w" SUBSEP k] = vals["w" SUBSEP k] " " ($12 == "" ? 0 : $12)
	if (!(k in lo) || $9 + 0 < lo[k]) lo[k] = $9 + 0
	if (!(k in hi) || $9 + 0 > hi[k]) hi[k] = $9 + 0
	runs[k]++
	if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 }
}
END {
	print "graph,engine,gpu_alone,cpu_alone,every_unit,every_unit_vs_best_alone,every_unit_vs_sum,gpu_vs_cpu,every_unit_2_ranks,2_ranks_vs_best_alone,2_ranks_vs_sum,runs,spread,every_unit_vs_sum_same_cores,2_ranks_vs_sum_same_cores,gpu_vs_floor"
	split("phast batched dial", engines, " ")
	for (i = 1; i <= n; i++) for (k = 1; k <= 3; k++) {
		g = order[i]; e = engines[k]
		all = rate(g, "all-" e); all2 = rate(g, "all2-" e)
		if (all <= 0) continue
		if (e == "phast") gc_ = rate(g, "gpu-phast") > 0 ? "gpu-phast" : "gpu-phast-mk4" # at the engine own MK (MK 4 before 2026-12-05)
		else if (e == "dial") gc_ = "gpu-dial"
		else gc_ = rate(g, "gpu-batched-mk2") > rate(g, "gpu-batched-mk1") ? "gpu-batched-mk2" : "gpu-batched-mk1"
		cc = e == "phast" ? "cpu-phast" : "cpu-batched" # dial: the same CPU code as batched
		gpu = rate(g, gc_); cpu = rate(g, cc)
		best = gpu > cpu ? gpu : cpu
		vb = ""; vs = ""; gc = ""; a2 = ""; vb2 = ""; vs2 = ""; ss = ""; ss2 = ""
		if (best > 0) vb = sprintf("%.3f", all / best)
		if (gpu + cpu > 0) vs = sprintf("%.3f", all / (gpu + cpu))
		if (cpu > 0) gc = sprintf("%.1f", gpu / cpu)
		# the sum of the units alone with as many CPU cores as the every-unit run had
		wc = cores(g, cc)
		if (wc > 0 && gpu + cpu > 0) ss = sprintf("%.3f", all / (gpu + cpu * cores(g, "all-" e) / wc))
		sp = spread(g, gc_); if (spread(g, cc) > sp) sp = spread(g, cc); if (spread(g, "all-" e) > sp) sp = spread(g, "all-" e)
		if (all2 > 0) {
			a2 = sprintf("%.1f", all2)
			if (best > 0) vb2 = sprintf("%.3f", all2 / best)
			if (gpu + cpu > 0) vs2 = sprintf("%.3f", all2 / (gpu + cpu))
			if (wc > 0 && gpu + cpu > 0) ss2 = sprintf("%.3f", all2 / (gpu + cpu * cores(g, "all2-" e) / wc))
			if (spread(g, "all2-" e) > sp) sp = spread(g, "all2-" e)
		}
		nr = runs[g SUBSEP "all-" e]
		# GPU PHAST alone against its traffic floor: the time per source at the floor over the measured one
		fl = e == "phast" && (g in fbytes) && gpu > 0 ? sprintf("%.2f", fbytes[g] * gpu) : ""
		printf "%s,%s,%.1f,%.1f,%.1f,%s,%s,%s,%s,%s,%s,%d,%.3f,%s,%s,%s\n", g, e, gpu, cpu, all, vb, vs, gc, a2, vb2, vs2, nr, sp, ss, ss2, fl
	}
}' "$floor" "$csv" >"$ratios"
echo "== ratios (issue 24: every unit never below the best unit alone, >= 0.97 of their sum; GPU PHAST >= 0.8 of its floor)"
column -t -s, "$ratios" 2>/dev/null || cat "$ratios"
echo "results: $csv $ratios"
