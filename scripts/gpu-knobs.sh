#!/usr/bin/env bash
# gpu-knobs.sh: the batched engine's knobs (batch_gpu.h: OCC, PULL, PULL_DENSITY, SPARSE, CHUNK), its
# bucket width (--delta) and two batches in flight (--streams 2) on the shallow graphs issue 9
# measures (random 1M and 4M, R-MAT 20), 64 lanes; the defaults run first and last in each graph's
# sweep so that the noise is seen. Each line: SSSP/s, ms per batch, steps per batch, then the device
# milliseconds per batch in each step kind. Then tuccompi-apsp end to end (GPU alone, 16,384 sources
# of the random 1M graph) under each setting of APP_KNOBS.
# Environment: GRAPHS, KNOBS (items: base, delta, streams2, bin:NAME -- the defaults with the bench
# built another way, $B/bench/batch_gpu-NAME, see scripts/gpu-pull.sh -- or NAME=VALUE[,NAME=VALUE...]
# of TUCCOMPI_SSSP_BATCH_NAME), APP_KNOBS (the same form; empty: no end-to-end runs), NCU=1 (ncu profiles
# of one batch of the random 1M graph at each OCC of NCU_OCC, default "0 6").
# Results in $OUT/knobs/ (knobs.txt, the bench logs, rates.txt).
. "$(dirname "$0")/gpu-lib.sh" knobs
BG=$B/bench/batch_gpu
GRAPHS=${GRAPHS:-random:1049088 random:4194304 rmat:20}
KNOBS=${KNOBS:-base OCC=5 OCC=6 OCC=8 PULL=5 PULL=20 PULL_DENSITY=2 PULL_DENSITY=8 SPARSE=1 SPARSE=4 CHUNK=128 delta streams2 base}
APP_KNOBS=${APP_KNOBS-base OCC=5 OCC=6 OCC=8 base}
: >>"$o/knobs.txt"
# knob_env ITEM: the environment assignments of a knob item (nothing for base, delta, streams2)
knob_env() {
	case $1 in base | delta | streams2 | bin:*) return ;; esac
	local IFS=,
	for kv in $1; do echo "TUCCOMPI_SSSP_BATCH_$kv"; done
}
kn() { # GRAPH FILE ITEM BATCHES
	local g=$1 f=$2 k=$3 n=$4 opts=() bg=$BG
	case $k in delta) opts=(--delta 0,3,6,12,24) ;; streams2) opts=(--streams 2) ;; bin:*) bg=$BG-${k#bin:} ;; esac
	local log=$o/$(basename "$f" .tgb)-$(echo "$k" | tr '=,:' '-_-').log
	env $(knob_env "$k") timeout 120 "$bg" "$f" --batches "$n" --lanes 64 --check 1 --baseline 0 "${opts[@]}" \
		>"$log" 2>&1 || echo "$k: exit $?" >>"$log"
	awk -v g="$g" -v k="$k" '$1 == 64 && NF > 10 {r = sprintf("%-16s %-22s d=%-4s s=%s %9s SSSP/s %7s ms %5s steps %s", g, k, $2, $4, $6, $7, $9, $NF)}
		/device ms per batch/ {print r, "|", substr($0, index($0, ":") + 2)}' "$log" | tee -a "$o/knobs.txt"
	grep -h 'MISMATCH\|exit' "$log" | head -3 | tee -a "$o/knobs.txt"
}
for g in $GRAPHS; do
	f=$out/$(echo "$g" | tr ':' '-').tgb
	"$GT" gen "$g" --seed 1 -o "$f" >/dev/null 2>&1 || { echo "$g: generation failed"; continue; }
	n=32
	case $g in random:4* | grid:*) n=8 ;; esac
	for k in $KNOBS; do kn "$g" "$f" "$k" $n; done
	if [ "${NCU:-0}" = 1 ] && [ "$g" = random:1049088 ]; then
		for occ in ${NCU_OCC:-0 6}; do
			TUCCOMPI_SSSP_BATCH_OCC=$occ timeout 300 ncu --kernel-name regex:batch_loop --launch-skip 1 --launch-count 1 \
				--section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --section WarpStateStats \
				--section LaunchStats "$BG" "$f" --batches 1 --lanes 64 --check 0 --baseline 0 >"$o/ncu-occ$occ.txt" 2>&1
		done
	fi
	rm -f "$f"
done
[ -n "$APP_KNOBS" ] || exit 0
step "tuccompi-apsp --units gpu, 16,384 sources of the random 1M graph, under each of: $APP_KNOBS"
"$GT" gen random:1049088 --seed 1 -o "$out/r1m.tgb" >/dev/null 2>&1
for k in $APP_KNOBS; do
	(
		for kv in $(knob_env "$k"); do export "${kv?}"; done
		run "apsp-$(echo "$k" | tr '=,' '-_')" "$APP" "$out/r1m.tgb" --sources random:16384 --units gpu
	)
done
rm -f "$out/r1m.tgb"
