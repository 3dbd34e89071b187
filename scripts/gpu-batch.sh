#!/usr/bin/env bash
# gpu-batch.sh [STEP...]: the batched GPU SSSP engine (codelets/sssp/batch_gpu.cu) on the H200 node,
# from the runtime bundle (make bundle; programs at bundle/<path in the build tree>). About 4 minutes
# for all steps; results in $OUT (the device tool brings them back) or ./gpu-out.
#   test   correctness: tests/apsp/sssp_batch_gpu (every lane against Dijkstra) and the model
#   bench  SSSP/s on random:1049088, random:4194304, rmat:20, grid:1024x1024 (bench/batch_gpu),
#          deltas (rule, 0, a few), 1 and 4 streams at share = streams, against the Crauser engine
#   knobs  the engine's knobs on random 1M and the grid: pull switch, sparse split, 48-register loop,
#          share < streams, rows
#   ncu    one batch of random 1M and of the grid under Nsight Compute (the device loop only)
# Default: test bench knobs ncu. Every line of bench output starting with CSV, is also appended
# to $OUT/batch_gpu.csv.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${BUNDLE:-$here/bundle}
out=${OUT:-$here/gpu-out}
mkdir -p "$out"
. "$B/env.sh"
export STARPU_SILENT=1
export TUCCOMPI_TUNE_DB=$out/tune.db
# a batch whose blocks are not co-resident fails after 20 s instead of 60
export TUCCOMPI_SSSP_BATCH_TIMEOUT=20
bg=$B/bench/batch_gpu
csv=$out/batch_gpu.csv
step() { echo; echo "=== $* ($(date +%T))"; }
bench() { # bench LOGNAME TIMEOUT ARGS...
	local log=$1 t=$2
	shift 2
	timeout "$t" "$bg" --csv "$csv" "$@" 2>&1 | tee -a "$out/$log.txt"
	echo "(exit ${PIPESTATUS[0]})"
}

for s in ${@:-test bench knobs ncu}; do
	case $s in
	test)
		step "test: sssp_batch_gpu and the sequential model"
		nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.used --format=csv,noheader
		timeout 180 "$B/tests/apsp/sssp_batch_gpu" 2>&1 | tee "$out/batch-test.txt"
		echo "sssp_batch_gpu: exit ${PIPESTATUS[0]} (0 pass, 77 skip)"
		timeout 60 "$B/tests/apsp/batch_model" 2>&1 | tail -n 2
		;;
	bench)
		# ~10 s + 1 CPU Dijkstra (0.6 s) per graph for generation and the check
		step "bench: random 1M (target >= 5,000 SSSP/s)"
		bench bench-random1m 90 --gen random:1049088 --batches 64 --delta rule,8 --streams 1,2,4
		step "bench: random 4M (target >= 1,000 SSSP/s)"
		bench bench-random4m 120 --gen random:4194304 --batches 32 --delta rule --streams 1,4
		step "bench: R-MAT scale 20 (target >= 1,000 SSSP/s)"
		bench bench-rmat20 150 --gen rmat:20 --batches 32 --delta rule --streams 1,4
		step "bench: grid 1024x1024 (goal >= 10x 16 cores = 1,000-4,000 SSSP/s)"
		bench bench-grid 150 --gen grid:1024x1024 --batches 16 --delta rule,90 --streams 1,4,8 --baseline 4
		;;
	knobs)
		step "knobs: pull switch on random 1M (n/10 is the default)"
		for pd in 4 30 0; do
			echo "TUCCOMPI_SSSP_BATCH_PULL=$pd"
			export TUCCOMPI_SSSP_BATCH_PULL=$pd
			bench knobs 60 --gen random:1049088 --batches 32 --delta 0 --streams 4 --check 1 --baseline 0
		done
		unset TUCCOMPI_SSSP_BATCH_PULL
		step "knobs: sparse split on the grid (2 is the default; 0 = all warp mode, 32 = all thread mode)"
		for sp in 0 32; do
			echo "TUCCOMPI_SSSP_BATCH_SPARSE=$sp"
			export TUCCOMPI_SSSP_BATCH_SPARSE=$sp
			bench knobs 60 --gen grid:1024x1024 --batches 8 --delta rule --streams 4 --check 1 --baseline 0
		done
		unset TUCCOMPI_SSSP_BATCH_SPARSE
		step "knobs: the 48-register device loop (5 blocks per SM instead of 4) on random 1M and the grid"
		export TUCCOMPI_SSSP_BATCH_OCC=5
		bench knobs 60 --gen random:1049088 --batches 32 --delta 0 --streams 1,4 --check 1 --baseline 0
		bench knobs 60 --gen grid:1024x1024 --batches 8 --delta rule --streams 1,4 --check 1 --baseline 0
		unset TUCCOMPI_SSSP_BATCH_OCC
		step "knobs: 8 streams at share 4 and 8, and rows to the host (random 1M)"
		bench knobs 60 --gen random:1049088 --batches 64 --delta 0 --streams 8 --share 4,8 --check 0 --baseline 0
		bench knobs 60 --gen random:1049088 --batches 32 --delta 0 --streams 4 --rows --check 1 --baseline 0
		;;
	ncu)
		ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
		[ -n "$ncu" ] || { echo "no ncu"; continue; }
		for g in random:1049088 grid:1024x1024; do
			step "ncu: the device loop of one batch, $g"
			# launch 0 is the warm-up batch, launch 1 the timed one
			timeout 240 "$ncu" --kernel-name batch_loop --launch-skip 1 --launch-count 1 --set full \
				--export "$out/ncu-${g%%:*}" --force-overwrite \
				"$bg" --gen "$g" --batches 1 --streams 1 --delta rule --check 0 --baseline 0 >"$out/ncu-${g%%:*}.log" 2>&1
			echo "ncu exit $?"
			"$ncu" --import "$out/ncu-${g%%:*}.ncu-rep" --page details --section SpeedOfLight --section MemoryWorkloadAnalysis \
				--section Occupancy --section LaunchStats 2>/dev/null | grep -E "Duration|Throughput|Occupancy|Registers|Grid Size|Block Size|L2 Hit|Mem Busy" |
				head -30
		done
		;;
	*) echo "unknown step $s (test bench knobs ncu)" ;;
	esac
done
