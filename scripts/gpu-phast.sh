#!/usr/bin/env bash
# gpu-phast.sh: PHAST on the H200 node, from the bundle (make bundle; programs at
# bundle/<path in the build tree>), in one call of under 5 minutes:
#   1. tests/apsp/phast_gpu: GPU PHAST equal to Dijkstra (32, 64, 128 lanes);
#   2. bench/phast on a 1M-vertex road-like graph and on grid 1024x1024: hierarchy built on
#      16 threads (time, shortcuts, levels, upward search spaces), Dijkstra on 1 core and 16
#      threads, PHAST on 1 core and 16 threads, PHAST on the GPU with 128 lanes, checked
#      against Dijkstra, with the break-even number of sources;
#   3. the same graphs again from the hierarchy cache: GPU with 64 lanes, and 128 lanes with
#      every distance row copied to pinned host memory.
# Results: $OUT (the device tool brings them back) or ./gpu-out; caches in $TMPDIR.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${BUNDLE:-$here/bundle}
out=${OUT:-$here/gpu-out}
tmp=${TMPDIR:-/tmp}
mkdir -p "$out"
. "$B/env.sh"
export STARPU_SILENT=1
export TUCCOMPI_TUNE_DB=$out/tune.db
step() { echo; echo "=== $* ($(date +%T))"; }

step "GPU"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
nproc

step "tests/apsp/phast_gpu"
timeout 120 "$B/tests/apsp/phast_gpu" 2>&1 | tee "$out/phast-test.txt"

for g in road:1000000 grid:1024x1024; do
	name=$(echo "$g" | tr ':x' '--')
	rm -f "$tmp/$name.ch"
	step "bench/phast --gen $g (build the hierarchy)"
	timeout 200 "$B/bench/phast" --gen "$g" --threads 16 --sources 4096 --dijkstra 4 --gpu-sources 16384 \
		--lanes 128 --cache "$tmp/$name.ch" 2>&1 | tee "$out/phast-$name.txt"
	[ -s "$tmp/$name.ch" ] || { echo "no hierarchy for $g (timed out?): skipping its other runs"; continue; }
	step "bench/phast --gen $g (from the cache; GPU 64 lanes)"
	timeout 60 "$B/bench/phast" --gen "$g" --threads 16 --sources 1024 --dijkstra 1 --gpu-sources 16384 \
		--lanes 64 --cache "$tmp/$name.ch" 2>&1 | tee "$out/phast-$name-64.txt"
	step "bench/phast --gen $g (from the cache; GPU 128 lanes, rows to the host)"
	timeout 60 "$B/bench/phast" --gen "$g" --threads 16 --sources 1024 --dijkstra 1 --gpu-sources 4096 \
		--lanes 128 --rows --cache "$tmp/$name.ch" 2>&1 | tee "$out/phast-$name-rows.txt"
done
step done
