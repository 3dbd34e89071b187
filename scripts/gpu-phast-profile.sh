#!/usr/bin/env bash
# gpu-phast-profile.sh: where a GPU PHAST pass spends its time, on the H200 node, from `make bundle`:
# tests/apsp/phast_gpu, then for the 1024 x 1024 grid and the 1M-vertex road-like graph bench/phast
# with TUCCOMPI_PHAST_PROFILE (per class of levels: how they ran, vertices, arcs and microseconds of
# each sweep; the costliest level) for each lane count in LANES and each plan in PLANS:
#   default   the kernel's constants
#   whole     a warp per vertex (TUCCOMPI_PHAST_SPLIT=0)
#   nofilter  upward grid-wide levels without the per-lane look at their vertices (up_filtered)
#   old       a warp per vertex, levels chained by their vertices only, no filter (the plan before)
#   c8, c32   chained up to 8 / 32 arcs per warp of block 0; s2, s8: slices of at least 2 / 8 arcs
# Environment: GRAPHS (default "grid:1024x1024 road:1048576"), LANES (default "128 256"), PLANS
# (default "default nofilter old whole c8 c32 s2 s8"), TESTS (default "phast_gpu"). Results in $OUT/phast-profile/.
. "$(dirname "$0")/gpu-lib.sh" phast-profile
step "GPU"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
for t in ${TESTS-phast_gpu}; do
	step "tests/apsp/$t"
	timeout 300 "$B/tests/apsp/$t" >"$o/$t.txt" 2>&1
	echo "exit $?"
	tail -n 3 "$o/$t.txt"
done
plan_env() {
	case $1 in
	default) echo ;;
	whole) echo TUCCOMPI_PHAST_SPLIT=0 ;;
	nofilter) echo TUCCOMPI_PHAST_FILTER=0 ;;
	old) echo TUCCOMPI_PHAST_SPLIT=0 TUCCOMPI_PHAST_FILTER=0 TUCCOMPI_PHAST_CHAIN_ARCS=1000000000 ;;
	c*) echo TUCCOMPI_PHAST_CHAIN_ARCS=${1#c} ;;
	s*) echo TUCCOMPI_PHAST_SPLIT_MIN=${1#s} ;;
	esac
}
tmp=${TMPDIR:-/tmp}
for g in ${GRAPHS:-grid:1024x1024 road:1048576}; do
	name=$(echo "$g" | tr ':' '-')
	ch=$tmp/$name.ch
	first=1
	for lanes in ${LANES:-128 256}; do
		for plan in ${PLANS:-default nofilter old whole c8 c32 s2 s8}; do
			step "bench/phast --gen $g --lanes $lanes, plan $plan"
			cpu=(--sources 256 --dijkstra 1)
			[ $first = 1 ] && cpu=(--sources 1024 --dijkstra 1) && first=0
			env $(plan_env "$plan") TUCCOMPI_PHAST_PROFILE=2 timeout 200 "$B/bench/phast" --gen "$g" --threads 16 \
				"${cpu[@]}" --gpu-sources 16384 --lanes "$lanes" --cache "$ch" >"$o/$name-$lanes-$plan.txt" 2>&1
			grep -E "PHAST GPU|^  |PHAST CPU, 16|distances" "$o/$name-$lanes-$plan.txt" | sed -n '1,12p;/SSSP/p;/distances/p' | awk '!seen[$0]++'
		done
	done
done
step done
