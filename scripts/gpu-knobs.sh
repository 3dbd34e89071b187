#!/usr/bin/env bash
# gpu-knobs.sh: the batched engine's knobs (batch_gpu.h: OCC, PULL, PULL_DENSITY, SPARSE, CHUNK) on
# the shallow graphs issue 9 measures (random 1M and 4M, R-MAT 20), 64 lanes, one stream; the
# defaults run first and last in each graph's sweep so that the noise is seen. $OUT/knobs.txt.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${BUNDLE:-$here/bundle}
out=${OUT:-$here/gpu-out}
. "$B/env.sh"
export STARPU_SILENT=1
o=$out/knobs.txt
: >"$o"
for g in random:1049088 random:4194304 rmat:20; do
	f=$out/$(echo "$g" | tr ':' '-').tgb
	"$B/apps/apsp/tuccompi-graph" gen "$g" --seed 1 -o "$f" >/dev/null 2>&1
	n=32
	case $g in random:4*) n=8 ;; esac
	for k in base OCC=5 PULL=5 PULL=20 PULL_DENSITY=2 PULL_DENSITY=8 SPARSE=1 SPARSE=4 CHUNK=128 base; do
		env=()
		[ "$k" != base ] && env=("TUCCOMPI_SSSP_BATCH_$k")
		r=$(env "${env[@]}" timeout 40 "$B/bench/batch_gpu" "$f" --batches $n --lanes 64 --delta rule --streams 1 \
			--check 1 --baseline 0 2>&1 | awk '$1 == 64 && NF > 10 {print $6, $7, $9, $NF}')
		printf '%-16s %-14s %s\n' "$g" "$k" "$r" | tee -a "$o"
	done
	rm -f "$f"
done
