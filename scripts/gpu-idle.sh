#!/usr/bin/env bash
# gpu-idle.sh: (1) the H200 node's shape on an x2 node (GPU 0 alone, cores 0-15): the batched engine's
# rates that issue 9 asks for (taskset does not bind StarPU's workers: they were 28); (2) why GPUs and cores idle ~10% when every unit runs (1 rank, both GPUs):
# waking one worker against waking all, MS against MS-TAIL, and a traced run (tasks.rec) to see where.
. "$(dirname "$0")/gpu-lib.sh" idle
RUN_LIMIT=100
"$GT" gen random:1049088 --seed 1 -o "$o/r1m.tgb" >/dev/null 2>&1
"$GT" gen random:4194304 --seed 1 -o "$o/r4m.tgb" >/dev/null 2>&1
echo "=== one GPU, 16 cores ($(date +%T))"
H="env CUDA_VISIBLE_DEVICES=0 taskset -c 0-15"
run h200-r1m-gpu $H "$APP" "$o/r1m.tgb" --units gpu --sources random:16384 --summary
run h200-r4m-gpu $H "$APP" "$o/r4m.tgb" --units gpu --sources random:4096 --summary
run h200-r1m-cpu $H "$APP" "$o/r1m.tgb" --units cpu --sources random:512 --summary
run h200-r1m-all-32408 $H "$APP" "$o/r1m.tgb" --units all --sources random:32408 --summary
run h200-r1m-alltail-32408 $H "$APP" "$o/r1m.tgb" --units all --policy ms-tail --sources random:32408 --summary
grep -hE "SSSP in|GPU  |tasks in" "$o"/h200-r1m-all*.log
echo "=== every unit, both GPUs ($(date +%T))"
run x2-gpu "$APP" "$o/r1m.tgb" --units gpu --sources random:16384 --summary
run x2-cpu "$APP" "$o/r1m.tgb" --units cpu --sources random:768 --summary
run x2-cpu24 "$APP" "$o/r1m.tgb" --units cpu --ncpu 24 --sources random:768 --summary
run x2-all "$APP" "$o/r1m.tgb" --units all --policy ms-tail --sources random:16384 --summary
run x2-all-wakeall env TUCCOMPI_SCHED_WAKE=all "$APP" "$o/r1m.tgb" --units all --policy ms-tail --sources random:16384 --summary
run x2-all-eq2 "$APP" "$o/r1m.tgb" --units all --policy eq2 --sources random:16384 --summary
run x2-all-traced "$APP" "$o/r1m.tgb" --units all --policy ms-tail --sources random:16384 --summary --trace "$o/trace" --stats "$o/units.csv"
grep -hE "SSSP in|GPU  |tasks in" "$o"/x2-all*.log
rm -rf "$o"/*.tgb "$o/trace/fxt" "$o/trace/paje.trace" "$o/trace/trace.rec"
tar czf "$out/idle.tgz" -C "$out" idle && ls -la "$out/idle.tgz"
