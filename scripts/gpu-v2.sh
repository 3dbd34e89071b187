#!/usr/bin/env bash
# gpu-v2.sh: the 64-lane batched engine (TUCCOMPI_SSSP_BATCH_LANES) on a GPU node, from the bundle,
# in one call, most important first so that a cut-short call still brings back the first parts:
#   1. tests/apsp/sssp_batch_gpu (every lane equal to Dijkstra, 32 and 64 lanes, every kernel path);
#   2. bench/batch_gpu --lanes 32,64 on the paper's random graph (1 M and 4 M vertices), R-MAT 20 and
#      the 1024x1024 grid: the traversal alone, ratio 64/32 in the same run;
#   3. tuccompi-apsp GPU-only at 32 and 64 lanes (random 1 M, 16,384 sources; random 4 M, 4,096), and
#      every unit on 32,408 sources at the default lanes (issue 9's targets);
#   4. with V2_THEN_X2=1, scripts/gpu-x2.sh afterwards (the two-GPU node).
# Each step writes its own file under $OUT/v2/ at once (the device tool brings back what is there
# even when the call runs out of time); a summary on stdout.
. "$(dirname "$0")/gpu-lib.sh" v2
# the device tool brings back 8 files at most: a snapshot of everything every 15 s
(while sleep 15; do tar czf "$out/snap.tgz.tmp" -C "$out" v2 x2 2>/dev/null; mv -f "$out/snap.tgz.tmp" "$out/snap.tgz"; done) &
snapper=$!
trap 'kill $snapper 2>/dev/null; tar czf "$out/snap.tgz" -C "$out" v2 x2 2>/dev/null' EXIT

step "node"
nvidia-smi -L
nproc
step "tests/apsp/sssp_batch_gpu"
timeout 120 "$B/tests/apsp/sssp_batch_gpu" >"$o/sssp_batch_gpu.txt" 2>&1
echo "sssp_batch_gpu: exit $?"
tail -4 "$o/sssp_batch_gpu.txt"

step "bench/batch_gpu --lanes 32,64"
for g in random:1049088 random:4194304 rmat:20 grid:1024x1024; do
	n=32
	case $g in random:4*) n=12 ;; grid*) n=8 ;; esac
	timeout 90 "$B/bench/batch_gpu" --gen "$g" --batches $n --lanes 32,64 --delta rule --streams 1 \
		--check 1 --baseline 0 --csv "$o/batch_gpu.csv" >"$o/batch_gpu-${g%%:*}-${g#*:}.txt" 2>&1 ||
		echo "batch_gpu $g: exit $?"
	grep -iE "lanes|SSSP/s|mismatch|error" "$o/batch_gpu-${g%%:*}-${g#*:}.txt" | tail -6
done

step "tuccompi-apsp GPU only, 32 and 64 lanes"
"$GT" gen random:1049088 --seed 1 -o "$o/r1m.tgb" >/dev/null 2>&1
"$GT" gen random:4194304 --seed 1 -o "$o/r4m.tgb" >/dev/null 2>&1
for l in 32 64; do
	for g in r1m:16384 r4m:4096; do
		f=${g%%:*}
		TUCCOMPI_SSSP_BATCH_LANES=$l timeout 60 "$APP" "$o/$f.tgb" --units gpu --engine batched \
			--sources random:${g#*:} --summary >"$o/app-$f-$l.log" 2>&1 || echo "app $f lanes $l: exit $?"
		printf '%-6s lanes %2s %10s SSSP/s\n' "$f" "$l" "$(rate "$o/app-$f-$l.log")" | tee -a "$o/rates.txt"
	done
done
step "every unit, 32,408 sources, default lanes"
timeout 60 "$APP" "$o/r1m.tgb" --units all --sources random:32408 --summary >"$o/app-all-32408.log" 2>&1 ||
	echo "all units: exit $?"
grep -E "SSSP in|busy|SSSP/s" "$o/app-all-32408.log" | head -8
rm -f "$o"/*.tgb
if [ "${V2_THEN_X2:-0}" = 1 ]; then
	OUT=$out BUNDLE=$B bash "$here/scripts/gpu-x2.sh"
fi
