#!/usr/bin/env bash
# gpu-node.sh STEP...: what runs on a GPU node, from the runtime bundle (make bundle), in one call: the
# one script for GPU work. Results go to $OUT (the device tool brings them back) or ./gpu-out; steps
# marked * write a folder $OUT/STEP/ of their own (the device tool brings back a few files only: end
# with `pack`). The steps that make a table of the docs say which folder of bench/results/ they refresh.
# Checks:
#   tests         the make-check suite from the bundle (the CUDA tests run there)
#   gputests      the GPU paths alone, fast: every engine's kernels against Dijkstra, CUDA batches
#   verify        every GPU check in one step: gputests' programs, betweenness (brandes --gpu, the
#                 reduction), the suite's GPU scripts, then every engine's GPU outputs against its CPU's
#   quiet*        a 2-rank run prints nothing but the tool's own lines (no loader noise)
#   faults*       one injected transient GPU fault (FAULT, default cuda:3) in an every-unit APSP run of
#                 random 1M, 8,192 sources, against a clean run (REPS rounds): time ratio, identical tables
# The docs' tables:
#   final*        bench/apsp.sh (every engine per graph, Boost, every unit on 1 and 2 ranks, the paper's
#                 32,408 sources) and node.txt: bench/results/apsp-node/ (README.md's and docs/apsp.md's
#                 table: bench/apsp_table.py); REPS=3 runs the compared rows in 3 alternating rounds,
#                 GRAPHS a subset, APSP_LIMIT the seconds it may take (default 560)
#   tune*         bench/tune_kernels, paper and fused kernels: rules / empirical / CUDA / sweep, MK 1..8:
#                 bench/results/tune-kernels/ (docs/tuning.md)
#   overhead*     bench/overhead, 1 us and 100 us tasks, on 1, 2 and 4 ranks: bench/results/overhead-node/
#   calibrate*    StarPU's models of this node for the simulated build (docs/simulation.md): STARPU_CALIBRATE=1
#                 with STARPU_HOME=$OUT/calibrate/starpu and STARPU_HOSTNAME=h200 on random 1M (batched)
#                 and road-like 1M (PHAST): GPU alone, every unit, every unit on 2 ranks (CAL_REPS passes,
#                 default 3), then the same runs with the models fixed (REPS, default 2): measured.txt,
#                 the measured column of bench/results/sim-validate/; the models go to
#                 simulation/models/h200/ (simulation/README.md). K_R1M, K_ROAD: sources (default 16384
#                 and 65536); POLICIES (default ms-tail); MK (default 1, as the simulations run); then
#                 EQ_POLICIES (default "eq1 eq2") measured with every unit on 1 and 2 ranks (K_EQ_R1M,
#                 K_EQ_ROAD: default 416 and 16384)
#   calibrate4m*  issue 56's models and checks of the simulations past 64 nodes (docs/simulation.md):
#                 road-like 4M (road:4194304, its hierarchy built once) with PHAST, STARPU_HOSTNAME=h200
#                 in STARPU_HOME=$OUT/calibrate4m/starpu: GPU alone, every unit and every unit on 2 ranks
#                 (CAL_REPS passes, default 2, then REPS measured, default 1; K_ROAD4M sources, default
#                 65536), so that the simulated road-like 4M runs on measured models instead of the
#                 1M models times 4 (simulation/scale_models.py); the 2-rank runs with TUCCOMPI_END_LOG
#                 give the MS round trips that set the simulation's time per message (MSG_US); then
#                 road-like 1M, GPU alone at MK 1, 2 and 4 (MKS; STARPU_HOSTNAME=h200mkK in
#                 starpu-mkK/: one model per MK) with K_ROAD sources (default 65536): the per-job times
#                 and rates that an MK-k GPU modelled as k simulated GPUs must reproduce
#   plugin*       the CUDA plug-in users copy (examples/hutchinson): its GPU test, built from the bundle
#                 with examples/README.md's commands (tests/install/bundle.sh), larger runs, 1 and 2 ranks
#   plugin-bench* bench/plugin.sh: the example against plain StarPU (dmda, lws) on the CPU cores, the GPU
#                 and every unit, the runtime's cost per task, the tuner's geometry against CUDA's block
# The engines (docs/apsp.md):
#   apsp          the paper's engine on its 1M-vertex graph, GPU against the CPU (--verify)
#   profile       where the GPU time of one paper-engine SSSP goes (ncu)
#   batched*      the batched GPU engine alone (bench/bench_batched): its test and model, SSSP/s on
#                 random 1M and 4M, R-MAT 20 and the grid per delta and streams, against Crauser
#   batched-lanes*  bench/bench_batched --lanes 32,64 on the same four graphs (ratio in one run)
#   batched-knobs*  its knobs (struct sssp_batch_knobs, --knob; KNOBS: items base, delta, streams2 or
#                 NAME=VALUE[,...]) on random 1M and 4M and R-MAT 20 (GRAPHS), defaults first and last
#   batched-ncu*  one batch of random 1M and of the grid under Nsight Compute (the device loop)
#   phast*        PHAST (bench/bench_phast) on road-like 1M and the grid: hierarchy, CPU and GPU rates
#   phast-profile*  where a GPU PHAST pass spends its time, per plan of its levels (PLANS, LANES, GRAPHS)
#   phast-mk*     GPU PHAST through tuccompi-apsp by passes at once (MKS, default "1 2 4"; REPS)
#   outputs*      the GPU tests of the outputs (harmonic sums, target columns gathered on the device,
#                 trees); every engine's GPU outputs against its CPU's, byte for byte (-o, --matrix,
#                 --pred); then what -o, --matrix, --rows and --pred cost against a plain run
#   costs*        the outputs' costs alone (COSTS: some of "o matrix rows pred"; REPS)
#   allsources*   all 1,048,576 sources of road-like 1M (PHAST, hierarchy cached) with -o and with --matrix
#                 of 100 targets against a plain run of the same sources (bench/outputs.sh, REPS rounds,
#                 default 2; UNITS, default all), the whole step under a 230 s timeout
#   betweenness*  the betweenness engines: their GPU tests (tests/apsp/brandes_gpu.sh, dial_brandes_gpu.sh,
#                 tests/core/reduce_test),
#                 then bench/betweenness.sh without baselines: betweenness against distances alone on the
#                 GPU (random 1M, R-MAT 20: 4,096 sources; road-like 1M: 1,024) and with every unit (random 1M)
#   bc*           issue 54 in one step (about 4 minutes): tests/apsp/dial_brandes_gpu.sh, then betweenness
#                 against distances alone in the same run (bench/bench_betweenness, auto's engines, REPS 1)
#                 on random 1M and R-MAT 20 (K sources, default 4096), road-like 1M and the grid 1024x1024
#                 (K_DEEP, default 1024), GPU alone and every unit (BC_UNITS), BC_GRAPHS a subset; one table
#   betweenness-ncu*  the brandes kernels of the first 64-source batches of random 1M under Nsight Compute:
#                 count, mean duration and throughput per kernel (NCU_LAUNCHES, NCU_LIMIT)
#   betweenness-base*  bench/betweenness.sh's baselines: networkx and igraph beside tuccompi-apsp on 4 sources
#                 of random 1M and every source of random:4096 (LIMIT seconds each, default 200)
# The library:
#   trace         a traced APSP run with MK = 4 (paje.trace + plots' inputs, tarred)
#   mpi           the cross-rank communication share of APSP runs, 2 and 4 ranks of the node
#   x2*           the two-GPU node: tests, GPUs one and two ranks, every unit, journal cost, a too-small
#                 GPU, a traced two-rank run, --mk auto
#   networkx*     bench/networkx.sh: networkx's tuccompi backend beside networkx, NetworKit and igraph:
#                 betweenness_centrality(k=1024) on road-like 1M, closeness of every vertex of road-like
#                 100K (WHEELS: a folder of networkit/igraph wheels, default $B/wheels; missing: skipped)
#   pack          one archive of everything in $OUT (last)
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${BUNDLE:-$here/bundle}
out=${OUT:-$here/gpu-out}
mkdir -p "$out"
. "$B/env.sh"
export STARPU_SILENT=1
export TUCCOMPI_TUNE_DB=$out/tune.db
APP=$B/apps/apsp/tuccompi-apsp
GT=$B/apps/apsp/tuccompi-graph
BB=$B/bench/bench_batched
BP=$B/bench/bench_phast
tmp=${TMPDIR:-/tmp}
step() { echo; echo "=== $* ($(date +%T))"; }
# folder NAME: this step's results go to $o = $out/NAME
folder() { o=$out/$1; mkdir -p "$o"; }
# rate LOG: the SSSP/s of a run's final report line (not of its progress line)
rate() { grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$1" | tail -1 | awk '{print $5}'; }
# run NAME COMMAND...: COMMAND's output in $o/NAME.log, its rate appended to $o/rates.txt and shown
# ($RUN_LIMIT seconds at most, default 300)
run() {
	local name=$1
	shift
	timeout "${RUN_LIMIT:-300}" "$@" >"$o/$name.log" 2>&1 || echo "$name: exit $?"
	printf '%-28s %10s SSSP/s\n' "$name" "$(rate "$o/$name.log")" | tee -a "$o/rates.txt"
}
# bc_table DIR: one line per bench/betweenness.sh log of DIR (graph, units, sources): distances' and
# betweenness' rates with their engines, and the ratio ("-": the run did not finish)
bc_table() {
	printf '%-16s %-4s %7s  %-22s  %-26s  %s\n' graph units sources "distances /s (engine)" \
		"betweenness /s (engine)" ratio
	for f in "$1"/*-order.log; do
		[ -e "$f" ] || continue
		awk '
			/^graph / { g = $2; sub(/:$/, "", g); for (i = 1; i <= NF; i++) if ($i == "units") u = $(i - 1) }
			/^(distances|betweenness) +[0-9]/ { k = $2; for (i = 1; i <= NF; i++) {
				if ($i == "sources/s,") r[$1] = $(i - 1); if ($i == "engine" && !($1 in e)) e[$1] = $(i + 1) } }
			/^betweenness \/ distances:/ { q = $4 }
			END { printf "%-16s %-4s %7s  %10s %-11s  %10s %-15s  %s\n", g, u, k,
				r["distances"] ? r["distances"] : "-", "(" (e["distances"] ? e["distances"] : "-") ")",
				r["betweenness"] ? r["betweenness"] : "-", "(" (e["betweenness"] ? e["betweenness"] : "-") ")", q ? q : "-" }' "$f"
	done
}
# node_txt FILE: the node and the bundle a table's runs came from (bench/apsp_table.py reads it)
node_txt() {
	{
		echo "date: $(date -u +%F)"
		echo "bundle commit: $(cat "$B/COMMIT" 2>/dev/null || echo unknown)"
		echo "cores: $(nproc)"
		echo "gpu: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)"
	} >"$1"
	cat "$1"
}
# bb LOG TIMEOUT ARGS...: bench_batched, its CSV lines appended to $o/bench_batched.csv
bb() {
	local log=$1 t=$2
	shift 2
	timeout "$t" "$BB" --csv "$o/bench_batched.csv" "$@" 2>&1 | tee -a "$o/$log.txt"
	echo "(exit ${PIPESTATUS[0]})"
}
# gen SPEC FILE: the graph of SPEC (seed 1) as a binary file
gen() { "$GT" gen "$1" --seed 1 -o "$2" >/dev/null 2>&1 || echo "cannot generate $1"; }
# output_costs: what -o, --matrix, --rows and --pred cost against a plain run of the same sources
# (GPU alone; road-like 1M with PHAST, random 1M batched); COSTS picks some of "o matrix rows pred"
output_costs() {
	local want=" ${COSTS:-o matrix rows pred} "
	for g in road:1048576:phast random:1049088:batched; do
		spec=${g%:*}
		name=$(echo "$spec" | tr ':' '-')
		file=$tmp/$name.tgb
		step "outputs: costs on $spec (${g##*:}, --units gpu)"
		gen "$spec" "$file"
		a=("$file" --engine "${g##*:}" --ch-cache "$file.ch" --units gpu --seed 1)
		"$APP" "${a[@]}" --sources random:256 -q # the hierarchy, once
		for rep in $(seq "${REPS:-2}"); do
			case $want in *" o "* | *" matrix "*) run "$name-plain-10k-$rep" "$APP" "${a[@]}" --sources random:10000 ;; esac
			case $want in *" o "*) run "$name-o-10k-$rep" "$APP" "${a[@]}" --sources random:10000 -o "$tmp/o.csv" ;; esac
			case $want in *" matrix "*) run "$name-matrix-10kx10k-$rep" "$APP" "${a[@]}" --sources random:10000 \
				--targets random:10000 --matrix "$tmp/o.npy" ;; esac
			run "$name-plain-1k-$rep" "$APP" "${a[@]}" --sources random:1024
			case $want in *" rows "*) run "$name-rows-1k-$rep" "$APP" "${a[@]}" --sources random:1024 --rows "$tmp/o.rows.npy" ;; esac
			case $want in *" pred "*) run "$name-pred-1k-$rep" "$APP" "${a[@]}" --sources random:1024 --pred "$tmp/o.pred.npy" ;; esac
			rm -f "$tmp"/o.*
		done
		rm -f "$file" "$file.ch"
	done
}
# same_outputs: every engine's GPU outputs (-o, --matrix, --pred) against its CPU's, byte for byte,
# on a road-like graph (the tables and matrices in $o, or $out)
same_outputs() {
	local d=${o:-$out}
	step "outputs: every engine's GPU outputs against its CPU's"
	gen road:262144 "$tmp/out-road.tgb"
	for e in crauser batched phast; do
		for u in cpu gpu; do
			timeout 300 "$APP" "$tmp/out-road.tgb" --engine "$e" --units "$u" --sources random:512 \
				--targets random:1000 -q -o "$d/t-$e-$u.csv" --matrix "$d/m-$e-$u.npy" --pred "$tmp/p-$e-$u.npy" ||
				echo "$e, $u: exit $?"
		done
		cmp "$d/t-$e-cpu.csv" "$d/t-$e-gpu.csv" && cmp "$d/m-$e-cpu.npy" "$d/m-$e-gpu.npy" &&
			cmp "$tmp/p-$e-cpu.npy" "$tmp/p-$e-gpu.npy" && echo "$e: GPU = CPU (table, matrix, trees)"
		rm -f "$tmp/p-$e-"*.npy
	done
	rm -f "$tmp/out-road.tgb"
}

for s in "$@"; do
	case $s in
	tests)
		step tests
		nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
		(cd "$B/tests" && TEST_TIMEOUT=300 ./run-tests.sh) 2>&1 | tee "$out/tests.txt"
		for t in core/codelet_cpu_cuda apsp/sssp_gpu.sh; do tail -n 8 "$B/tests/$t.log"; done
		;;
	gputests)
		# the GPU paths alone, fast: every engine's kernels against Dijkstra, CUDA batches, fault recovery
		step "GPU tests"
		nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
		for t in apsp/sssp_batch_gpu apsp/phast_gpu core/batch core/codelet_cpu_cuda; do
			timeout 240 "$B/tests/$t" >"$out/test-$(basename $t).txt" 2>&1
			echo "$t: exit $? ($(tail -1 "$out/test-$(basename $t).txt"))"
		done
		timeout 300 "$B/tests/apsp/sssp_plugin" --gpu >"$out/test-sssp-plugin-gpu.txt" 2>&1
		echo "apsp/sssp_plugin --gpu: exit $?"; tail -4 "$out/test-sssp-plugin-gpu.txt"
		;;
	verify)
		step "GPU checks"
		nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
		for t in "apsp/sssp_plugin --gpu" apsp/brandes_gpu.sh apsp/sssp_batch_gpu apsp/phast_gpu core/batch \
			core/codelet_cpu_cuda core/reduce_test apsp/sssp_gpu.sh apsp/gpu_memory.sh apsp/matrix_gpu.sh \
			apsp/dial_brandes_gpu.sh; do
			name=$(echo "$t" | tr ' /' '__')
			# shellcheck disable=SC2086 # a program and its arguments
			env top_builddir="$B" top_srcdir="$B" timeout "${TEST_LIMIT:-240}" $B/tests/$t >"$out/test-$name.txt" 2>&1
			echo "$t: exit $? ($(tail -n 1 "$out/test-$name.txt"))"
		done
		o=$out same_outputs
		;;
	quiet)
		# a 2-rank run of the node prints nothing but the tool's own lines (issue 55): no loader or
		# launcher noise from the bundle's Open MPI and PMIx beside the node's own
		folder quiet
		step "quiet: 2 ranks, random 1M, every unit"
		timeout 120 "$B/tests/mpirun.sh" 2 "$APP" --gen random:1049088 --seed 1 --sources random:4096 \
			>"$o/quiet.out" 2>"$o/quiet.err"
		echo "exit $?"
		n=$(grep -ciE 'dlopen|undefined symbol|pmix|mca_base|warning|-{20}' "$o/quiet.err" "$o/quiet.out" | awk -F: '{s += $NF} END {print s + 0}')
		echo "lines of launcher or loader noise: $n (goal 0)"
		grep -iE 'dlopen|undefined symbol|pmix|mca_base|warning|-{20}' "$o/quiet.err" "$o/quiet.out" | head -5
		;;
	faults)
		# a transient GPU fault costs a run again on the GPU, not the GPU (issue 55): random 1M, 8,192
		# sources, every unit, a clean run against one with an injected transient CUDA fault (FAULT,
		# default cuda:3), REPS rounds alternating; the time ratio (goal <= 1.10) and the tables
		folder faults
		gen random:1049088 "$tmp/r1m.tgb"
		a=("$tmp/r1m.tgb" --units all --seed 1 --sources random:8192 --summary)
		secs() { grep -oE 'SSSP in [0-9.]+ s' "$1" | tail -1 | awk '{print $3}'; }
		for rep in $(seq "${REPS:-2}"); do
			run "clean-$rep" "$APP" "${a[@]}" -o "$o/clean-$rep.csv"
			TUCCOMPI_FAULT_INJECT=${FAULT:-cuda:3} run "fault-$rep" "$APP" "${a[@]}" -o "$o/fault-$rep.csv"
			grep -hE "failed .* task|taken out|tried again" "$o/fault-$rep.log" | sed 's/^/    /' | head -5
			c=$(secs "$o/clean-$rep.log") f=$(secs "$o/fault-$rep.log")
			awk -v c="$c" -v f="$f" -v r="$rep" 'BEGIN { if (c > 0 && f > 0)
				printf "round %s: clean %.3f s, one transient fault %.3f s: ratio %.3f (goal <= 1.10)\n", r, c, f, f / c;
				else print "round " r ": no time (see the logs)" }' | tee -a "$o/ratio.txt"
			if cmp -s "$o/clean-$rep.csv" "$o/fault-$rep.csv"; then
				echo "round $rep: the tables are identical" | tee -a "$o/ratio.txt"
			else
				echo "round $rep: THE TABLES DIFFER" | tee -a "$o/ratio.txt"
			fi
			grep -E "^ +0 +(GPU|CUDA)" "$o/fault-$rep.log" | head -2 | sed 's/^/    the GPU after the fault: /'
		done
		rm -f "$tmp/r1m.tgb"
		;;
	final)
		folder final
		node_txt "$o/node.txt"
		step "bench/apsp.sh"
		APP=$APP GRAPHTOOL=$GT BOOST=$B/bench/boost_dijkstra MPIRUN=$B/tests/mpirun.sh timeout "${APSP_LIMIT:-560}" \
			"$B/bench/apsp.sh" "$o" >"$o/output-apsp.txt" 2>&1
		echo "bench/apsp.sh: exit $?"
		python3 "$B/bench/apsp_table.py" "$o"
		(cd "$o" && tar czf logs.tgz ./*.log && rm -f ./*.log ./*.tgb ./*.ch)
		;;
	tune)
		folder tune
		for v in paper fused; do
			step "tune_kernels, $v kernels"
			TUCCOMPI_SSSP_KERNELS=$v timeout 280 "$B/bench/tune_kernels" --sources 128 --csv "$o/tune-$v.csv" 2>&1 |
				tee "$o/tune-$v.txt"
		done
		;;
	overhead)
		folder overhead
		step "bench/overhead: 1 us and 100 us tasks, 1, 2 and 4 ranks"
		STARPU_NCUDA=0 timeout 60 "$B/bench/overhead" --task-us 1,100 --reps 3 --csv "$o/overhead-1.csv" 2>&1 | tail -18
		for n in 2 4; do
			MPIRUN_ARGS="-x STARPU_NCUDA=0" timeout 90 "$B/tests/mpirun.sh" $n "$B/bench/overhead" --task-us 1,100 \
				--reps 3 --csv "$o/overhead-$n.csv" 2>&1 | tail -18
		done
		;;
	networkx)
		folder networkx
		step "networkx: the tuccompi backend beside networkx, NetworKit and igraph"
		PYTHONPATH=$B/python TUCCOMPI_APSP=$APP GRAPHTOOL=$GT WHEELS=${WHEELS:-$B/wheels} timeout 590 \
			"$B/bench/networkx.sh" "$o" ${NX_ARGS:-}
		;;
	calibrate)
		folder calibrate
		# one STARPU_HOME and one host name for every run: the models are found by the simulated
		# build under that name (simulation/README.md)
		export STARPU_HOME=$o/starpu STARPU_HOSTNAME=${STARPU_HOSTNAME:-h200}
		mkdir -p "$STARPU_HOME"
		{
			echo "date: $(date -u +%FT%TZ)"
			echo "bundle commit: $(cat "$B/COMMIT" 2>/dev/null || echo unknown)"
			echo "STARPU_HOSTNAME: $STARPU_HOSTNAME"
			echo "cores: $(nproc)"
			nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv,noheader
		} | tee "$o/node.txt"
		gen random:1049088 "$o/r1m.tgb"
		gen road:1048576 "$o/road1m.tgb"
		# cal NAME CALIBRATE GRAPH ENGINE K UNITS RANKS POLICY: one run (RANKS 1 or 2)
		cal() {
			local name=$1 c=$2 g=$3 e=$4 k=$5 u=$6 r=$7 p=$8
			local a=("$APP" "$o/$g.tgb" --engine "$e" --units "$u" --policy "$p" --seed 1 --sources "random:$k"
				--mk "${MK:-1}" --summary --stats "$o/$name.units.csv")
			[ "$e" = phast ] && a+=(--ch-cache "$o/$g.ch")
			if [ "$r" = 1 ]; then
				run "$name" env STARPU_CALIBRATE="$c" "${a[@]}"
			else
				STARPU_CALIBRATE=$c MPIRUN_ARGS="${MPIRUN_ARGS:-} -x STARPU_HOME -x STARPU_HOSTNAME -x STARPU_CALIBRATE" \
					run "$name" "$B/tests/mpirun.sh" 2 "${a[@]}"
			fi
		}
		# the PHAST hierarchy once, outside the timed runs
		"$APP" "$o/road1m.tgb" --engine phast --ch-cache "$o/road1m.ch" --units gpu --sources random:256 -q
		for pass in cal meas; do
			if [ $pass = cal ]; then c=1 n=${CAL_REPS:-3}; else c=0 n=${REPS:-2}; fi
			for rep in $(seq "$n"); do
				for pol in ${POLICIES:-ms-tail}; do
					step "calibrate: $pass $rep, $pol"
					cal "$pass-r1m-gpu-$pol-$rep" $c r1m batched "${K_R1M:-16384}" gpu 1 "$pol"
					cal "$pass-r1m-all-$pol-$rep" $c r1m batched "${K_R1M:-16384}" all 1 "$pol"
					cal "$pass-r1m-all2-$pol-$rep" $c r1m batched "${K_R1M:-16384}" all 2 "$pol"
					cal "$pass-road1m-gpu-$pol-$rep" $c road1m phast "${K_ROAD:-65536}" gpu 1 "$pol"
					cal "$pass-road1m-all-$pol-$rep" $c road1m phast "${K_ROAD:-65536}" all 1 "$pol"
					cal "$pass-road1m-all2-$pol-$rep" $c road1m phast "${K_ROAD:-65536}" all 2 "$pol"
				done
			done
		done
		# the equal-share policies, measured only (their jobs are the largest unit's batch on every
		# unit; the simulation scales a unit's recorded job to them): fewer sources, as a CPU core
		# gets as many as the GPU
		for pol in ${EQ_POLICIES-eq1 eq2}; do
			step "calibrate: meas, $pol"
			cal "meas-r1m-all-$pol-1" 0 r1m batched "${K_EQ_R1M:-416}" all 1 "$pol"
			cal "meas-r1m-all2-$pol-1" 0 r1m batched "${K_EQ_R1M:-416}" all 2 "$pol"
			cal "meas-road1m-all-$pol-1" 0 road1m phast "${K_EQ_ROAD:-16384}" all 1 "$pol"
			cal "meas-road1m-all2-$pol-1" 0 road1m phast "${K_EQ_ROAD:-16384}" all 2 "$pol"
		done
		grep '^meas-' "$o/rates.txt" >"$o/measured.txt"
		ls -R "$STARPU_HOME/.starpu/sampling" | head -40
		rm -f "$o"/*.tgb "$o"/*.ch
		# the models alone, small, for the repository (simulation/models/h200/, see simulation/README.md)
		tar czf "$o/h200-models.tgz" -C "$STARPU_HOME/.starpu" sampling -C "$o" node.txt rates.txt measured.txt
		ls -la "$o/h200-models.tgz"
		unset STARPU_HOME STARPU_HOSTNAME
		;;
	calibrate4m)
		folder calibrate4m
		{
			echo "date: $(date -u +%FT%TZ)"
			echo "bundle commit: $(cat "$B/COMMIT" 2>/dev/null || echo unknown)"
			echo "cores: $(nproc)"
			nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv,noheader
		} | tee "$o/node.txt"
		gen road:4194304 "$o/road4m.tgb"
		gen road:1048576 "$o/road1m.tgb"
		step "calibrate4m: the hierarchies"
		"$APP" "$o/road4m.tgb" --engine phast --ch-cache "$o/road4m.ch" --units gpu --sources random:256 2>&1 | grep -i hierarchy
		"$APP" "$o/road1m.tgb" --engine phast --ch-cache "$o/road1m.ch" --units gpu --sources random:256 -q
		# c4 NAME CALIBRATE GRAPH K UNITS RANKS MK: one PHAST run under MS-TAIL (RANKS 1 or 2)
		c4() {
			local name=$1 c=$2 g=$3 k=$4 u=$5 r=$6 mk=$7
			local a=("$APP" "$o/$g.tgb" --engine phast --ch-cache "$o/$g.ch" --units "$u" --policy ms-tail --seed 1
				--sources "random:$k" --mk "$mk" --summary --stats "$o/$name.units.csv")
			if [ "$r" = 1 ]; then
				run "$name" env STARPU_CALIBRATE="$c" "${a[@]}"
			else
				STARPU_CALIBRATE=$c TUCCOMPI_END_LOG=1 MPIRUN_ARGS="${MPIRUN_ARGS:-} -x STARPU_HOME -x STARPU_HOSTNAME -x STARPU_CALIBRATE -x TUCCOMPI_END_LOG" \
					run "$name" "$B/tests/mpirun.sh" 2 "${a[@]}"
			fi
		}
		export STARPU_HOME=$o/starpu STARPU_HOSTNAME=h200
		mkdir -p "$STARPU_HOME"
		for pass in cal meas; do
			if [ $pass = cal ]; then c=1 n=${CAL_REPS:-2}; else c=0 n=${REPS:-1}; fi
			for rep in $(seq "$n"); do
				step "calibrate4m: road-like 4M, $pass $rep"
				c4 "$pass-road4m-gpu-ms-tail-$rep" $c road4m "${K_ROAD4M:-65536}" gpu 1 1
				c4 "$pass-road4m-all-ms-tail-$rep" $c road4m "${K_ROAD4M:-65536}" all 1 1
				c4 "$pass-road4m-all2-ms-tail-$rep" $c road4m "${K_ROAD4M:-65536}" all 2 1
			done
		done
		grep -h "MS round trips" "$o"/meas-road4m-all2-*.log | tee "$o/round-trips.txt"
		tar czf "$o/h200-road4m-models.tgz" -C "$STARPU_HOME/.starpu" sampling -C "$o" node.txt rates.txt
		for mk in ${MKS:-1 2 4}; do
			export STARPU_HOME=$o/starpu-mk$mk STARPU_HOSTNAME=h200mk$mk
			mkdir -p "$STARPU_HOME"
			for pass in cal meas; do
				if [ $pass = cal ]; then c=1 n=${CAL_REPS:-2}; else c=0 n=${REPS:-1}; fi
				for rep in $(seq "$n"); do
					step "calibrate4m: road-like 1M, GPU alone, MK $mk, $pass $rep"
					c4 "$pass-road1m-gpu-mk$mk-$rep" $c road1m "${K_ROAD:-65536}" gpu 1 "$mk"
				done
			done
			tar czf "$o/h200-mk$mk-models.tgz" -C "$STARPU_HOME/.starpu" sampling
		done
		grep '^meas-' "$o/rates.txt" >"$o/measured.txt"
		rm -f "$o"/*.tgb "$o"/*.ch
		unset STARPU_HOME STARPU_HOSTNAME
		;;
	apsp)
		step "apsp: GPU vs CPU on random:1049088"
		timeout 300 tuccompi-apsp --gen random:1049088 --seed 1 --units gpu --mk 4 --sources random:1024 \
			--verify 4 --summary --stats "$out/apsp-units.csv" 2>&1 | tee "$out/apsp.txt"
		;;
	profile)
		# Where the GPU time of one SSSP goes: kernel durations (ncu) against the wall time.
		ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
		for v in paper fused; do
			step "profile, $v kernels, MK=1"
			TUCCOMPI_SSSP_KERNELS=$v timeout 120 tuccompi-apsp --gen random:1049088 --seed 1 --units gpu --mk 1 \
				--sources random:256 --summary 2>&1 | grep -E "SSSP/s|per SSSP"
			[ -n "$ncu" ] || { echo "no ncu"; continue; }
			TUCCOMPI_SSSP_KERNELS=$v timeout 200 "$ncu" --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
				--print-units base tuccompi-apsp --gen random:1049088 --seed 1 --units gpu --mk 1 --sources 4 -q \
				>"$out/ncu-$v.csv" 2>"$out/ncu-$v.err"
			python3 - "$out/ncu-$v.csv" <<'PY'
import csv, sys, collections
tot = collections.defaultdict(float); cnt = collections.Counter()
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; ki = head.index("Kernel Name"); vi = head.index("Metric Value")
for r in rows[1:]:
    name = r[ki].split("(")[0]; tot[name] += float(r[vi].replace(",", "")); cnt[name] += 1
s = sum(tot.values())
for k in sorted(tot, key=tot.get, reverse=True):
    print(f"  {k:14s} {cnt[k]:6d} launches  {tot[k]/1e3:10.1f} us  {tot[k]/cnt[k]/1e3:7.2f} us each")
print(f"  kernels total for 4 SSSPs: {s/1e3:.1f} us = {s/4e3:.1f} us per SSSP")
PY
		done
		;;
	batched)
		folder batched
		step "batched: tests/apsp/sssp_batch_gpu and the sequential model"
		nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.used --format=csv,noheader
		timeout 180 "$B/tests/apsp/sssp_batch_gpu" >"$o/batch-test.txt" 2>&1
		echo "sssp_batch_gpu: exit $? (0 pass, 77 skip)"
		tail -n 2 "$o/batch-test.txt"
		timeout 60 "$B/tests/apsp/batch_model" 2>&1 | tail -n 2
		# a batch whose blocks are not co-resident fails after 20 s instead of 60
		step "batched: random 1M"
		bb bench-random1m 90 --knob timeout=20 --gen random:1049088 --batches 64 --delta rule,8 --streams 1,2,4
		step "batched: random 4M"
		bb bench-random4m 120 --knob timeout=20 --gen random:4194304 --batches 32 --delta rule --streams 1,4
		step "batched: R-MAT scale 20"
		bb bench-rmat20 150 --knob timeout=20 --gen rmat:20 --batches 32 --delta rule --streams 1,4
		step "batched: grid 1024x1024"
		bb bench-grid 150 --knob timeout=20 --gen grid:1024x1024 --batches 16 --delta rule,90 --streams 1,4,8 --baseline 4
		;;
	batched-lanes)
		folder batched-lanes
		for g in random:1049088 random:4194304 rmat:20 grid:1024x1024; do
			n=32
			case $g in random:4*) n=12 ;; grid*) n=8 ;; esac
			step "bench_batched --lanes 32,64 --gen $g"
			bb "lanes-${g%%:*}-${g#*:}" 90 --gen "$g" --batches $n --lanes 32,64 --delta rule --streams 1 --check 1 \
				--baseline 0 | grep -iE "lanes|SSSP/s|mismatch|error|exit" | tail -6
		done
		;;
	batched-knobs)
		folder batched-knobs
		for g in ${GRAPHS:-random:1049088 random:4194304 rmat:20}; do
			f=$out/$(echo "$g" | tr ':' '-').tgb
			gen "$g" "$f"
			n=32
			case $g in random:4* | grid:*) n=8 ;; esac
			for k in ${KNOBS:-base pull=5 pull=20 pull_density=2 pull_density=8 sparse=1 sparse=4 chunk=128 delta streams2 base}; do
				opts=()
				case $k in base) ;; delta) opts=(--delta 0,3,6,12,24) ;; streams2) opts=(--streams 2) ;; *) opts=(--knob "$k") ;; esac
				log=$o/$(basename "$f" .tgb)-$(echo "$k" | tr '=,' '-_').log
				timeout 120 "$BB" "$f" --batches "$n" --lanes 64 --check 1 --baseline 0 "${opts[@]}" >"$log" 2>&1 ||
					echo "$k: exit $?" >>"$log"
				awk -v g="$g" -v k="$k" '$1 == 64 && NF > 10 {r = sprintf("%-16s %-22s d=%-4s s=%s %9s SSSP/s %7s ms %5s steps %s", g, k, $2, $4, $6, $7, $9, $NF)}
					/device ms per batch/ {print r, "|", substr($0, index($0, ":") + 2)}' "$log" | tee -a "$o/knobs.txt"
				grep -h 'MISMATCH\|exit' "$log" | head -3 | tee -a "$o/knobs.txt"
			done
			rm -f "$f"
		done
		;;
	batched-ncu)
		folder batched-ncu
		ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
		[ -n "$ncu" ] || { echo "no ncu"; continue; }
		for g in random:1049088 grid:1024x1024; do
			step "ncu: the device loop of one batch, $g"
			# launch 0 is the warm-up batch, launch 1 the timed one
			timeout 240 "$ncu" --kernel-name batch_loop --launch-skip 1 --launch-count 1 --set full \
				--export "$o/ncu-${g%%:*}" --force-overwrite \
				"$BB" --gen "$g" --batches 1 --streams 1 --delta rule --check 0 --baseline 0 >"$o/ncu-${g%%:*}.log" 2>&1
			echo "ncu exit $?"
			"$ncu" --import "$o/ncu-${g%%:*}.ncu-rep" --page details --section SpeedOfLight --section MemoryWorkloadAnalysis \
				--section Occupancy --section LaunchStats 2>/dev/null |
				grep -E "Duration|Throughput|Occupancy|Registers|Grid Size|Block Size|L2 Hit|Mem Busy" | head -30
		done
		;;
	phast)
		folder phast
		step "tests/apsp/phast_gpu"
		timeout 120 "$B/tests/apsp/phast_gpu" >"$o/phast-test.txt" 2>&1
		echo "phast_gpu: exit $?"
		tail -n 2 "$o/phast-test.txt"
		for g in road:1000000 grid:1024x1024; do
			name=$(echo "$g" | tr ':x' '--')
			rm -f "$tmp/$name.ch"
			step "bench_phast --gen $g (build the hierarchy)"
			timeout 200 "$BP" --gen "$g" --threads 16 --sources 4096 --dijkstra 4 --gpu-sources 16384 \
				--lanes 128 --cache "$tmp/$name.ch" 2>&1 | tee "$o/phast-$name.txt"
			[ -s "$tmp/$name.ch" ] || { echo "no hierarchy for $g (timed out?): skipping its other runs"; continue; }
			step "bench_phast --gen $g (from the cache; GPU 256 lanes)"
			timeout 60 "$BP" --gen "$g" --threads 16 --sources 1024 --dijkstra 1 --gpu-sources 16384 \
				--lanes 256 --cache "$tmp/$name.ch" 2>&1 | tee "$o/phast-$name-256.txt"
			step "bench_phast --gen $g (from the cache; GPU 128 lanes, rows to the host)"
			timeout 60 "$BP" --gen "$g" --threads 16 --sources 1024 --dijkstra 1 --gpu-sources 4096 \
				--lanes 128 --rows --cache "$tmp/$name.ch" 2>&1 | tee "$o/phast-$name-rows.txt"
			rm -f "$tmp/$name.ch"
		done
		;;
	phast-profile)
		folder phast-profile
		# plans: default (the kernel's), whole (a warp per vertex), nofilter (no per-lane look at the
		# upward levels' vertices), old (the plan before: whole, unfiltered, chained by vertices only),
		# c8/c32 (chained up to 8 / 32 arcs per warp), s2/s8 (slices of at least 2 / 8 arcs)
		plan_knob() {
			case $1 in
			default) echo profile=2 ;;
			whole) echo profile=2,split=0 ;;
			nofilter) echo profile=2,filter=0 ;;
			old) echo profile=2,split=0,filter=0,chain_arcs=1000000000 ;;
			c*) echo "profile=2,chain_arcs=${1#c}" ;;
			s*) echo "profile=2,split_min=${1#s}" ;;
			esac
		}
		for g in ${GRAPHS:-grid:1024x1024 road:1048576}; do
			name=$(echo "$g" | tr ':' '-')
			ch=$tmp/$name.ch
			first=1
			for lanes in ${LANES:-128 256}; do
				for plan in ${PLANS:-default nofilter old whole c8 c32 s2 s8}; do
					step "bench_phast --gen $g --lanes $lanes, plan $plan"
					cpu=(--sources 256 --dijkstra 1)
					[ $first = 1 ] && cpu=(--sources 1024 --dijkstra 1) && first=0
					timeout 200 "$BP" --gen "$g" --threads 16 "${cpu[@]}" --gpu-sources 16384 --lanes "$lanes" \
						--cache "$ch" --knob "$(plan_knob "$plan")" >"$o/$name-$lanes-$plan.txt" 2>&1
					grep -E "PHAST GPU|^  |PHAST CPU, 16|distances" "$o/$name-$lanes-$plan.txt" |
						sed -n '1,12p;/SSSP/p;/distances/p' | awk '!seen[$0]++'
				done
			done
			rm -f "$ch"
		done
		;;
	phast-mk)
		folder phast-mk
		for g in ${GRAPHS:-grid:1024x1024 road:1048576}; do
			name=$(echo "$g" | tr ':' '-')
			file=$out/$name.tgb
			step "$g"
			gen "$g" "$file"
			args=(--engine phast --policy ms --seed 1 --summary --ch-cache "$file.ch")
			run "$name-cpu-phast-1" "$APP" "$file" "${args[@]}" --units cpu --sources random:4096
			for rep in $(seq "${REPS:-1}"); do
				for mk in ${MKS:-1 2 4}; do
					run "$name-gpu-phast-mk$mk-$rep" "$APP" "$file" "${args[@]}" --units gpu --mk "$mk" --sources random:32768
				done
			done
			run "$name-cpu-phast-2" "$APP" "$file" "${args[@]}" --units cpu --sources random:4096
			rm -f "$file" "$file.ch"
		done
		;;
	outputs)
		folder outputs
		step "outputs: GPU tests (harmonic, device-side target columns, trees)"
		for t in apsp/sssp_batch_gpu apsp/phast_gpu; do
			timeout 240 "$B/tests/$t" >"$o/test-$(basename $t).txt" 2>&1
			echo "$t: exit $? ($(tail -1 "$o/test-$(basename $t).txt"))"
		done
		timeout 300 "$B/tests/apsp/sssp_plugin" --gpu >"$o/test-sssp-plugin-gpu.txt" 2>&1
		echo "apsp/sssp_plugin --gpu: exit $?"
		same_outputs
		output_costs
		;;
	costs)
		folder costs
		output_costs
		;;
	allsources)
		# issue 55, item 2: every source at the plain rate; the rate and wall ratios of bench/outputs.sh
		folder allsources
		file=$tmp/road-1048576.tgb
		step "allsources: road-like 1M, all 1,048,576 sources, -o and --matrix (100 targets) against plain"
		APP=$APP GRAPHTOOL=$GT GRAPH=road:1048576 CH=$tmp/road-1048576.tgb.ch UNITS=${UNITS:-all} \
			TARGETS=random:100 OPTIONS="o matrix" REPS=${REPS:-2} timeout 230 "$B/bench/outputs.sh" "$tmp" 2>&1 |
			tee "$o/allsources.txt"
		echo "(exit ${PIPESTATUS[0]}; 124: past the 230 s timeout)"
		cp "$tmp/outputs.csv" "$o/" 2>/dev/null
		rm -f "$file" "$file.ch"
		;;
	betweenness)
		folder betweenness
		step "betweenness: tests/apsp/brandes_gpu.sh (both sweeps), tests/core/reduce_test"
		top_builddir="$B" timeout 300 "$B/tests/apsp/brandes_gpu.sh" >"$o/test-brandes-gpu.txt" 2>&1
		echo "apsp/brandes_gpu.sh: exit $? (0 pass, 77 skip)"
		tail -n 4 "$o/test-brandes-gpu.txt"
		top_builddir="$B" timeout 120 "$B/tests/apsp/dial_brandes_gpu.sh" >"$o/test-dial-brandes-gpu.txt" 2>&1
		echo "apsp/dial_brandes_gpu.sh: exit $? (0 pass, 77 skip)"
		tail -n 4 "$o/test-dial-brandes-gpu.txt"
		timeout 120 "$B/tests/core/reduce_test" >"$o/test-reduce.txt" 2>&1
		echo "core/reduce_test: exit $?"
		tail -n 2 "$o/test-reduce.txt"
		step "betweenness against distances alone: random 1M (GPU, every unit), R-MAT 20 and road-like 1M (GPU)"
		# SWEEPS: the ordered sweeps (default) and Kahn's rounds, each beside its own distances alone
		export SWEEPS=${SWEEPS:-order rounds}
		BC=$B/bench/bench_betweenness APP=$APP GRAPHTOOL=$GT UNITS="gpu all" BASELINES=0 timeout 240 \
			"$B/bench/betweenness.sh" "$o" random:1049088 2>&1 | grep -v '^ *$'
		BC=$B/bench/bench_betweenness APP=$APP GRAPHTOOL=$GT UNITS=gpu BASELINES=0 timeout 150 \
			"$B/bench/betweenness.sh" "$o" rmat:20 2>&1 | grep -v '^ *$'
		# deep: distances alone ran 461 SSSP/s there (docs/apsp.md), 9 s per 4,096 sources: 1,024, once
		BC=$B/bench/bench_betweenness APP=$APP GRAPHTOOL=$GT UNITS=gpu BASELINES=0 K=1024 REPS=1 timeout 120 \
			"$B/bench/betweenness.sh" "$o" road:1000000 2>&1 | grep -v '^ *$'
		;;
	bc)
		folder bc
		step "bc: tests/apsp/dial_brandes_gpu.sh (the GPU form batch by batch, the engine on GPUs)"
		top_builddir="$B" timeout "${TEST_LIMIT:-60}" "$B/tests/apsp/dial_brandes_gpu.sh" >"$o/test.txt" 2>&1
		echo "tests/apsp/dial_brandes_gpu.sh: exit $? (0 pass, 77 skip)"
		grep -E "FAIL|differs|error" "$o/test.txt" | head -10
		tail -n 1 "$o/test.txt"
		step "bc: betweenness against distances alone, auto's engines"
		# shellcheck disable=SC2086 # lists of graphs and units
		BC=$B/bench/bench_betweenness APP=$APP GRAPHTOOL=$GT UNITS="${BC_UNITS:-gpu all}" BASELINES=0 REPS=${REPS:-1} \
			CHECK=${CHECK:-16} RUN_LIMIT=${RUN_LIMIT:-50} timeout "${BC_LIMIT:-170}" "$B/bench/betweenness.sh" "$o" \
			${BC_GRAPHS:-random:1049088 rmat:20 road:1048576 grid:1024x1024} >"$o/bench.txt" 2>&1
		grep -E "differ|error|cannot|: exit" "$o/bench.txt" | head -10
		bc_table "$o" | tee "$o/table.txt"
		;;
	betweenness-ncu)
		# where a betweenness batch's GPU time goes: every brandes kernel of the first batches of
		# random 1M (the warm-up's) under Nsight Compute's speed-of-light and launch sections, then
		# the per-kernel summary (count, mean duration, throughput)
		folder betweenness-ncu
		ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
		[ -n "$ncu" ] || { echo "no ncu"; continue; }
		for gg in ${NCU_GRAPHS:-random:1049088}; do
			nm=${gg%%:*}
			step "ncu: the brandes kernels of one batch of 64 sources, $gg (TUCCOMPI_BRANDES_SWEEP=${TUCCOMPI_BRANDES_SWEEP:-auto})"
			timeout "${NCU_LIMIT:-240}" "$ncu" --kernel-name regex:brandes_ --launch-count "${NCU_LAUNCHES:-600}" \
				--section SpeedOfLight --section LaunchStats --section Occupancy --section MemoryWorkloadAnalysis \
				--export "$o/brandes-$nm" --force-overwrite \
				"$B/bench/bench_betweenness" --gen "$gg" --sources 64 --units gpu --reps 1 --check 0 >"$o/ncu-$nm.log" 2>&1
			echo "ncu exit $?"
			"$ncu" --import "$o/brandes-$nm.ncu-rep" --print-summary per-kernel --csv >"$o/summary-$nm.csv" 2>/dev/null
			"$ncu" --import "$o/brandes-$nm.ncu-rep" --print-summary per-kernel 2>/dev/null |
				grep -E "brandes_|Duration|Memory Throughput|Compute \(SM\)|Registers|Achieved Occupancy|L2 Hit|DRAM Throughput" | head -80
			rm -f "$o/brandes-$nm.ncu-rep"
		done
		;;
	betweenness-base)
		folder betweenness-base
		step "betweenness: networkx and igraph beside tuccompi-apsp"
		BC=$B/bench/bench_betweenness APP=$APP GRAPHTOOL=$GT UNITS= BASE_K=4 LIMIT=${LIMIT:-200} timeout 590 \
			"$B/bench/betweenness.sh" "$o" random:1049088 random:4096 2>&1 | grep -v '^ *$'
		;;
	trace)
		step "traced APSP, MK=4"
		rm -rf /tmp/trace-mk4
		timeout 300 tuccompi-apsp --gen random:1049088 --seed 1 --mk 4 --sources random:1024 --policy ms \
			--trace /tmp/trace-mk4 --summary --stats /tmp/trace-mk4/units.csv 2>&1 | tail -30
		python3 "$B/scripts/paje_check.py" /tmp/trace-mk4 -q && echo "paje.trace: OK"
		rm -rf /tmp/trace-mk4/fxt
		tar czf "$out/trace-mk4.tgz" -C /tmp trace-mk4 && ls -la "$out/trace-mk4.tgz"
		;;
	mpi)
		# cross-rank communication share of APSP runs: 2 and 4 ranks on this node (they share
		# its GPU and split its cores)
		for r in 2 4; do
			step "APSP under MS on $r ranks"
			MPIRUN_ARGS="-x STARPU_NCPU=$((12 / r)) -x TUCCOMPI_MK_MAX=2" timeout 200 "$B/tests/mpirun.sh" "$r" \
				"$B/bin/tuccompi-apsp" --gen random:1049088 --seed 1 --mk 2 --sources random:2048 --policy ms \
				--summary 2>&1 | grep -E "SSSP/s|rank [0-9]:|GPU  |cross-rank|waiting" | tee "$out/mpi-$r.txt"
		done
		;;
	x2)
		folder x2
		G=$o/random-1m.tgb
		K=${K:-16384}
		step "node"
		nvidia-smi -L
		nproc
		step "make check from the bundle, both GPUs visible"
		(cd "$B/tests" && TEST_TIMEOUT=120 timeout "${CHECK_LIMIT:-200}" ./run-tests.sh) >"$o/tests.txt" 2>&1
		grep -E "^(FAIL|SKIP)|passed" "$o/tests.txt"
		gen random:1049088 "$G"
		step "GPU only, batched engine, $K sources"
		run gpu1-1rank env STARPU_NCUDA=1 "$APP" "$G" --units gpu --engine batched --sources random:$K --summary
		run gpu2-1rank "$APP" "$G" --units gpu --engine batched --sources random:$K --summary
		run gpu2-2ranks "$B/tests/mpirun.sh" 2 "$APP" "$G" --units gpu --engine batched --sources random:$K --summary
		grep -h "local rank" "$o/gpu2-2ranks.log"
		step "every unit"
		for p in ms ms-tail; do
			run "all-$p-1rank" "$APP" "$G" --units all --engine batched --policy $p --sources random:$K --summary
			run "all-$p-2ranks" "$B/tests/mpirun.sh" 2 "$APP" "$G" --units all --engine batched --policy $p \
				--sources random:$K --summary
		done
		# the CPU part with as many CPU workers as the every-unit runs had
		ncpu=$(grep -oE '[0-9]+ CPU \+ [0-9]+ GPU units' "$o/all-ms-1rank.log" | head -1 | cut -d' ' -f1)
		run cpu-all "$APP" "$G" --units cpu --ncpu "${ncpu:-24}" --engine batched --sources random:768 --summary
		awk '{r[$1] = $2} END {
			g1 = r["gpu1-1rank"]; g2 = r["gpu2-1rank"]; g22 = r["gpu2-2ranks"]; c = r["cpu-all"]
			if (g1 > 0) printf "second GPU: one rank %.2fx, two ranks %.2fx\n", g2 / g1, g22 / g1
			for (k in r) if (k ~ /^all-/ && g2 + c > 0) printf "%s: heterogeneous efficiency %.3f (%s / (%s + %s))\n", k, r[k] / (g2 + c), r[k], g2, c
		}' "$o/rates.txt" | tee "$o/efficiency.txt"
		step "the resume journal's cost (GPU 0 alone, 8192 sources, three runs each, alternating)"
		for i in 1 2 3; do
			run "nojournal-$i" env STARPU_NCUDA=1 "$APP" "$G" --units gpu --engine batched --sources random:8192 --summary
			run "journal-$i" env STARPU_NCUDA=1 "$APP" "$G" --units gpu --engine batched --sources random:8192 --summary \
				--journal "$o/j" -o "$o/j.csv"
		done
		step "a graph too big for the GPU (STARPU_LIMIT_CUDA_MEM): CPU cores with a warning"
		(cd "$B/tests" && top_builddir=.. top_srcdir=.. ./apsp/gpu_memory.sh) 2>&1 | tail -2
		step "a traced two-rank run"
		rm -rf "$o/trace"
		"$B/tests/mpirun.sh" 2 "$APP" "$G" --units all --engine batched --sources random:2048 --trace "$o/trace" \
			--stats "$o/trace/units.csv" -q >"$o/trace.log" 2>&1 || tail -5 "$o/trace.log"
		python3 "$B/scripts/paje_check.py" "$o/trace" --ranks 2 2>&1 | tail -12
		rm -rf "$o/trace/fxt"
		step "--mk auto with both GPUs (1 rank), then on 2 ranks"
		"$APP" "$G" --units gpu --engine batched --mk auto --sources random:4096 >"$o/mkauto.log" 2>&1
		"$B/tests/mpirun.sh" 2 "$APP" "$G" --units gpu --engine batched --mk auto --sources random:4096 >"$o/mkauto2.log" 2>&1
		grep -h "MK =" "$o/mkauto.log" "$o/mkauto2.log"
		"$B/bin/tuccompi-tune" show 2>&1 | tail -8
		rm -f "$G"
		;;
	pack)
		# the device tool brings back 8 files at most: one archive of everything
		tar czf "$out/../gpu-results.tgz" -C "$out" . && mv "$out/../gpu-results.tgz" "$out/" &&
			find "$out" -maxdepth 1 -type f ! -name gpu-results.tgz -delete
		ls -la "$out"
		;;
	plugin)
		folder plugin
		for t in core/plugin_gpu.sh install/bundle.sh; do
			(cd "$B/tests" && top_builddir=.. top_srcdir=.. "./$t"; echo "$t: exit $?") 2>&1 | tee "$o/$(basename "$t" .sh).log"
		done
		H="$B/examples/hutchinson/hutchinson --n 2048 --tasks 65536"
		for u in gpu all; do $H --units $u --summary 2>&1 | tee "$o/$u.log" | tail -4; done
		"$B/tests/mpirun.sh" 2 $H --units all 2>&1 | tee "$o/all-2ranks.log" | tail -2
		;;
	plugin-bench)
		folder plugin-bench
		"$B/bench/plugin.sh" "$o"
		;;
	*) echo "unknown step $s (the steps are listed at the top of scripts/gpu-node.sh)" ;;
	esac
done
