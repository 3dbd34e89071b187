#!/usr/bin/env bash
# gpu-phast-lanes.sh: GPU PHAST with 128 against 256 sources per pass on the H200 node, from
# `make bundle`: tests/apsp/phast_gpu (every lane count equal to Dijkstra), then for the 1024 x 1024
# grid and the 1M-vertex road-like graph: the 16 cores' PHAST (1,024 sources, before and after),
# and the GPU's PHAST with TUCCOMPI_PHAST_GPU_LANES=128 and 256 alternating (8,192 sources, MK 1),
# as bench/apsp.sh runs them (one hierarchy cache per graph). Environment: REPS (default 2),
# GRAPHS (default "grid:1024x1024 road:1048576"). Results in $OUT/phast-lanes/.
. "$(dirname "$0")/gpu-lib.sh" phast-lanes
step "tests/apsp/phast_gpu"
timeout 120 "$B/tests/apsp/phast_gpu" >"$o/phast_gpu.txt" 2>&1
echo "exit $?"
tail -4 "$o/phast_gpu.txt"
for g in ${GRAPHS:-grid:1024x1024 road:1048576}; do
	name=$(echo "$g" | tr ':' '-')
	file=$out/$name.tgb
	step "$g"
	"$GT" gen "$g" --seed 1 -o "$file" >/dev/null 2>&1 || { echo "cannot generate $g"; continue; }
	args=(--engine phast --policy ms --seed 1 --summary --ch-cache "$file.ch")
	run "$name-cpu-phast-1" "$APP" "$file" "${args[@]}" --units cpu --sources random:1024
	for rep in $(seq "${REPS:-2}"); do
		for lanes in 128 256; do
			TUCCOMPI_PHAST_GPU_LANES=$lanes run "$name-gpu-phast-$lanes-$rep" "$APP" "$file" "${args[@]}" \
				--units gpu --mk 1 --sources random:8192
		done
	done
	run "$name-cpu-phast-2" "$APP" "$file" "${args[@]}" --units cpu --sources random:1024
	rm -f "$file" "$file.ch"
done
step done
