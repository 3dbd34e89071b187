#!/usr/bin/env bash
# gpu-node.sh STEP...: what we run on the H200 node, from the bundle (make bundle), in one call.
# Results go to $OUT (the device tool brings them back) or ./gpu-out.
#   tests     the make-check suite from the bundle (CUDA tests run there)
#   apsp      GPU SSSP on the paper's 1M-vertex graph, checked against the CPU
#   tune      bench/tune_kernels: rules / empirical / CUDA / sweep, MK 1..8
#   overhead  bench/overhead: per-task cost of the policies, 1 rank and 2 ranks
#   trace     a traced APSP run with MK = 4 (paje.trace + plots' inputs, tarred)
#   apspbench bench/apsp.sh: the APSP throughput table
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
B=${BUNDLE:-$here/bundle}
out=${OUT:-$here/gpu-out}
mkdir -p "$out"
. "$B/env.sh"
export STARPU_SILENT=1
export TUCCOMPI_TUNE_DB=$out/tune.db
step() { echo; echo "=== $* ($(date +%T))"; }

for s in "$@"; do
	case $s in
	tests)
		step tests
		nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
		(cd "$B/tests" && TEST_TIMEOUT=300 ./run-tests.sh) 2>&1 | tee "$out/tests.txt"
		for t in codelet_cpu_cuda sssp_gpu.sh; do tail -n 8 "$B/tests/$t.log"; done
		;;
	apsp)
		step "apsp: GPU vs CPU on random:1049088"
		timeout 300 tuccompi-apsp --gen random:1049088 --seed 1 --units gpu --mk 4 --sources random:1024 \
			--verify 4 --summary --stats "$out/apsp-units.csv" 2>&1 | tee "$out/apsp.txt"
		;;
	tune)
		for v in paper fused; do
			step "tune_kernels, $v kernels"
			TUCCOMPI_SSSP_KERNELS=$v timeout 300 "$B/bench/tune_kernels" --sources 128 --csv "$out/tune-$v.csv" 2>&1 |
				tee "$out/tune-$v.txt"
		done
		;;
	profile)
		# Where the GPU time of one SSSP goes: kernel durations (ncu) against the wall time.
		ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
		for v in paper fused; do
			step "profile, $v kernels, MK=1"
			TUCCOMPI_SSSP_KERNELS=$v timeout 120 tuccompi-apsp --gen random:1049088 --seed 1 --units gpu --mk 1 \
				--sources random:256 --summary 2>&1 | grep -E "SSSP/s|per SSSP"
			[ -n "$ncu" ] || { echo "no ncu"; continue; }
			TUCCOMPI_SSSP_KERNELS=$v timeout 200 "$ncu" --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv \
				--print-units base tuccompi-apsp --gen random:1049088 --seed 1 --units gpu --mk 1 --sources 4 -q \
				>"$out/ncu-$v.csv" 2>"$out/ncu-$v.err"
			python3 - "$out/ncu-$v.csv" <<'PY'
import csv, sys, collections
tot = collections.defaultdict(float); cnt = collections.Counter()
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head = rows[0]; ki = head.index("Kernel Name"); vi = head.index("Metric Value")
for r in rows[1:]:
    name = r[ki].split("(")[0]; tot[name] += float(r[vi].replace(",", "")); cnt[name] += 1
s = sum(tot.values())
for k in sorted(tot, key=tot.get, reverse=True):
    print(f"  {k:14s} {cnt[k]:6d} launches  {tot[k]/1e3:10.1f} us  {tot[k]/cnt[k]/1e3:7.2f} us each")
print(f"  kernels total for 4 SSSPs: {s/1e3:.1f} us = {s/4e3:.1f} us per SSSP")
PY
		done
		;;
	overhead)
		step "overhead, 1 rank"
		# 15 workers: the submitting thread keeps a core of its own
		STARPU_NCUDA=0 STARPU_NCPU=15 timeout 200 "$B/bench/overhead" --tasks 20000 --reps 5 \
			--csv "$out/overhead-1.csv" 2>&1 | tail -20
		step "overhead, 2 ranks of 7 CPU workers"
		STARPU_NCUDA=0 MPIRUN_ARGS="-x STARPU_NCPU=7 -x STARPU_NCUDA=0" timeout 200 "$B/tests/mpirun.sh" 2 \
			"$B/bench/overhead" --tasks 20000 --reps 5 --csv "$out/overhead-2.csv" 2>&1 | tail -20
		;;
	trace)
		step "traced APSP, MK=4"
		rm -rf /tmp/trace-mk4
		timeout 300 tuccompi-apsp --gen random:1049088 --seed 1 --mk 4 --sources random:1024 --policy ms \
			--trace /tmp/trace-mk4 --summary --stats /tmp/trace-mk4/units.csv 2>&1 | tail -30
		python3 "$B/scripts/paje_check.py" /tmp/trace-mk4 -q && echo "paje.trace: OK"
		rm -rf /tmp/trace-mk4/fxt
		tar czf "$out/trace-mk4.tgz" -C /tmp trace-mk4 && ls -la "$out/trace-mk4.tgz"
		;;
	mpi)
		# cross-rank communication share of APSP runs: 2 and 4 ranks on this node (they share
		# its GPU and split its cores)
		for r in 2 4; do
			step "APSP under MS on $r ranks"
			MPIRUN_ARGS="-x STARPU_NCPU=$((12 / r)) -x TUCCOMPI_MK_MAX=2" timeout 200 "$B/tests/mpirun.sh" "$r" \
				"$B/bin/tuccompi-apsp" --gen random:1049088 --seed 1 --mk 2 --sources random:2048 --policy ms \
				--summary 2>&1 | grep -E "SSSP/s|rank [0-9]:|GPU  |cross-rank|waiting" | tee "$out/mpi-$r.txt"
		done
		;;
	tail)
		# MS against MS-TAIL on every unit: the end of small task sets
		for k in 1024 4096; do
			for p in ms ms-tail; do
				step "APSP, every unit, $p, $k sources"
				timeout 120 tuccompi-apsp --gen random:1049088 --seed 1 --mk 4 --sources random:$k --policy $p \
					--summary 2>&1 | grep -E "SSSP/s|GPU   |CPU cores" | tee -a "$out/tail.txt"
			done
		done
		;;
	pack)
		# the device tool brings back 8 files at most: one archive of everything
		tar czf "$out/../gpu-results.tgz" -C "$out" . && mv "$out/../gpu-results.tgz" "$out/" &&
			find "$out" -maxdepth 1 -type f ! -name gpu-results.tgz -delete
		ls -la "$out"
		;;
	apspbench)
		step "bench/apsp.sh"
		timeout 590 "$B/bench/apsp.sh" "$out" 2>&1 | tail -60
		;;
	gputests)
		# the GPU paths alone, fast: every engine's kernels against Dijkstra, CUDA batches, fault recovery
		step "GPU tests"
		nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
		for t in apsp/sssp_batch_gpu apsp/phast_gpu core/batch core/codelet_cpu_cuda; do
			timeout 240 "$B/tests/$t" >"$out/test-$(basename $t).txt" 2>&1
			echo "$t: exit $? ($(tail -1 "$out/test-$(basename $t).txt"))"
		done
		timeout 300 "$B/tests/apsp/sssp_plugin" --gpu >"$out/test-sssp-plugin-gpu.txt" 2>&1
		echo "apsp/sssp_plugin --gpu: exit $?"; tail -4 "$out/test-sssp-plugin-gpu.txt"
		;;
	faults)
		step "an injected GPU fault in the middle of an APSP run"
		g=random:262144
		timeout 120 tuccompi-apsp --gen $g --seed 1 --units all --sources random:4096 -o "$out/ref.csv" -q
		TUCCOMPI_FAULT_INJECT=cuda:20 timeout 120 tuccompi-apsp --gen $g --seed 1 --units all --sources random:4096 \
			-o "$out/faulty.csv" --summary 2>&1 | grep -E "failed|taken out|run again|SSSP/s" | tee "$out/faults.txt"
		cmp "$out/ref.csv" "$out/faulty.csv" && echo "identical results after the fault" | tee -a "$out/faults.txt"
		;;
	*) echo "unknown step $s" ;;
	esac
done
