#!/usr/bin/env bash
# gpu-phast-lanes.sh: GPU PHAST through tuccompi-apsp on the H200 node, from `make bundle`, by
# sources per pass (TUCCOMPI_PHAST_GPU_LANES) and passes at once (--mk): tests/apsp/phast_gpu, then
# for each graph the 16 cores' PHAST (4,096 sources, before and after) and the GPU's (32,768
# sources) for every LANES x MKS, alternating, REPS times, as bench/apsp.sh runs them (one
# hierarchy cache per graph). Environment: REPS (default 1), GRAPHS (default "grid:1024x1024
# road:1048576"), LANES (default "128 256"), MKS (default "1 2 4"). Results in $OUT/phast-lanes/.
. "$(dirname "$0")/gpu-lib.sh" phast-lanes
step "tests/apsp/phast_gpu"
timeout 200 "$B/tests/apsp/phast_gpu" >"$o/phast_gpu.txt" 2>&1
echo "exit $?"
tail -n 4 "$o/phast_gpu.txt"
for g in ${GRAPHS:-grid:1024x1024 road:1048576}; do
	name=$(echo "$g" | tr ':' '-')
	file=$out/$name.tgb
	step "$g"
	"$GT" gen "$g" --seed 1 -o "$file" >/dev/null 2>&1 || { echo "cannot generate $g"; continue; }
	args=(--engine phast --policy ms --seed 1 --summary --ch-cache "$file.ch")
	run "$name-cpu-phast-1" "$APP" "$file" "${args[@]}" --units cpu --sources random:4096
	for rep in $(seq "${REPS:-1}"); do
		for lanes in ${LANES:-128 256}; do
			for mk in ${MKS:-1 2 4}; do
				TUCCOMPI_PHAST_GPU_LANES=$lanes run "$name-gpu-phast-$lanes-mk$mk-$rep" "$APP" "$file" "${args[@]}" \
					--units gpu --mk "$mk" --sources random:32768
			done
		done
	done
	run "$name-cpu-phast-2" "$APP" "$file" "${args[@]}" --units cpu --sources random:4096
	rm -f "$file" "$file.ch"
done
step done
