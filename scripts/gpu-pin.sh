#!/usr/bin/env bash
# gpu-pin.sh: every unit on the two-GPU node with the CPU workspaces unpinned (default) against
# StarPU's pinned default (TUCCOMPI_PIN_RAM=1), alternating; the parts (GPUs alone, 24 cores alone)
# in the same run for the heterogeneous efficiency; two ranks; the H200 node's shape (GPU 0) for
# 32,408 sources.
. "$(dirname "$0")/gpu-lib.sh" pin
RUN_LIMIT=60
"$GT" gen random:1049088 --seed 1 -o "$o/r1m.tgb" >/dev/null 2>&1
G=$o/r1m.tgb
A="--sources random:16384 --summary"
run gpu "$APP" "$G" --units gpu $A
run cpu24 "$APP" "$G" --units cpu --ncpu 24 --sources random:768 --summary
for i in 1 2; do
	run "unpinned-$i" "$APP" "$G" --units all --policy ms-tail $A
	run "pinned-$i" env TUCCOMPI_PIN_RAM=1 "$APP" "$G" --units all --policy ms-tail $A
done
run unpinned-ms "$APP" "$G" --units all --policy ms $A
run unpinned-2ranks "$B/tests/mpirun.sh" 2 "$APP" "$G" --units all --policy ms-tail $A
run gpu-2ranks "$B/tests/mpirun.sh" 2 "$APP" "$G" --units gpu $A
run h200-all-32408 env CUDA_VISIBLE_DEVICES=0 "$APP" "$G" --units all --policy ms-tail --sources random:32408 --summary
grep -hE "SSSP in|GPU  " "$o"/unpinned-1.log "$o"/pinned-1.log "$o"/h200-all-32408.log
awk '{r[$1]=$2} END {p = r["gpu"] + r["cpu24"]; for (k in r) if (k ~ /pinned|ms/) printf "%s: efficiency %.3f\n", k, r[k] / p}' "$o/rates.txt" | sort
rm -f "$o"/*.tgb
tar czf "$out/pin.tgz" -C "$out" pin
