#!/usr/bin/env bash
# gpu-x2.sh: a node with two GPUs (the device kind nvidia-h200-x2), from the runtime bundle, in one
# call: the test suite with both GPUs visible; APSP GPU-only with one GPU, with two GPUs on one
# rank, and with one GPU on each of two ranks (node-aware split); every unit under MS and MS-TAIL
# with the heterogeneous efficiency; a traced two-rank run checked by paje_check.py; the tuning
# database after --mk auto. Results and the trace in $OUT/x2.tgz (the device tool brings back a
# few files only), a summary on stdout.
. "$(dirname "$0")/gpu-lib.sh" x2
G=$o/random-1m.tgb
K=${K:-16384}

step "node"
nvidia-smi -L
nproc
step "make check from the bundle, both GPUs visible"
(cd "$B/tests" && TEST_TIMEOUT=120 timeout ${CHECK_LIMIT:-200} ./run-tests.sh) >"$o/tests.txt" 2>&1
grep -E "^(FAIL|SKIP)|passed" "$o/tests.txt"

"$GT" gen random:1049088 --seed 1 -o "$G" >/dev/null 2>&1

step "GPU only, batched engine, $K sources"
run gpu1-1rank env STARPU_NCUDA=1 "$APP" "$G" --units gpu --engine batched --sources random:$K --summary
run gpu2-1rank "$APP" "$G" --units gpu --engine batched --sources random:$K --summary
run gpu2-2ranks "$B/tests/mpirun.sh" 2 "$APP" "$G" --units gpu --engine batched --sources random:$K --summary
grep -h "local rank" "$o/gpu2-2ranks.log"
step "every unit"
for p in ms ms-tail; do
	run "all-$p-1rank" "$APP" "$G" --units all --engine batched --policy $p --sources random:$K --summary
	run "all-$p-2ranks" "$B/tests/mpirun.sh" 2 "$APP" "$G" --units all --engine batched --policy $p \
		--sources random:$K --summary
done
# the CPU part with as many CPU workers as the every-unit runs had (StarPU keeps cores for the GPUs' workers)
ncpu=$(grep -oE '[0-9]+ CPU \+ [0-9]+ GPU units' "$o/all-ms-1rank.log" | head -1 | cut -d' ' -f1)
run cpu-all "$APP" "$G" --units cpu --ncpu "${ncpu:-24}" --engine batched --sources random:768 --summary
awk '{r[$1] = $2} END {
	g1 = r["gpu1-1rank"]; g2 = r["gpu2-1rank"]; g22 = r["gpu2-2ranks"]; c = r["cpu-all"]
	if (g1 > 0) printf "second GPU: one rank %.2fx, two ranks %.2fx\n", g2 / g1, g22 / g1
	for (k in r) if (k ~ /^all-/ && g2 + c > 0) printf "%s: heterogeneous efficiency %.3f (%s / (%s + %s))\n", k, r[k] / (g2 + c), r[k], g2, c
}' "$o/rates.txt" | tee "$o/efficiency.txt"
step "the resume journal's cost (GPU 0 alone, 8192 sources, three runs each, alternating)"
for i in 1 2 3; do
	run "nojournal-$i" env STARPU_NCUDA=1 "$APP" "$G" --units gpu --engine batched --sources random:8192 --summary
	run "journal-$i" env STARPU_NCUDA=1 "$APP" "$G" --units gpu --engine batched --sources random:8192 --summary \
		--journal "$o/j" -o "$o/j.csv"
done
step "a graph too big for the GPU (STARPU_LIMIT_CUDA_MEM): CPU cores with a warning"
(cd "$B/tests" && top_builddir=.. top_srcdir=.. ./apsp/gpu_memory.sh) 2>&1 | tail -2
step "a traced two-rank run"
rm -rf "$o/trace"
"$B/tests/mpirun.sh" 2 "$APP" "$G" --units all --engine batched --sources random:2048 --trace "$o/trace" \
	--stats "$o/trace/units.csv" -q >"$o/trace.log" 2>&1 || tail -5 "$o/trace.log"
python3 "$B/scripts/paje_check.py" "$o/trace" --ranks 2 2>&1 | tail -12
rm -rf "$o/trace/fxt"
step "--mk auto with both GPUs (1 rank), then on 2 ranks"
"$APP" "$G" --units gpu --engine batched --mk auto --sources random:4096 >"$o/mkauto.log" 2>&1
"$B/tests/mpirun.sh" 2 "$APP" "$G" --units gpu --engine batched --mk auto --sources random:4096 >"$o/mkauto2.log" 2>&1
grep -h "MK =" "$o/mkauto.log" "$o/mkauto2.log"
"$B/bin/tuccompi-tune" show 2>&1 | tail -8
rm -f "$G"
tar czf "$out/x2.tgz" -C "$out" x2 && ls -la "$out/x2.tgz"
