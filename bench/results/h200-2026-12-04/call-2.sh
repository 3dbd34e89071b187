#!/usr/bin/env bash
# Device call 2 (2026-12-04): the ordered sweeps' bitmaps, keys and q; the matrix's copier stream.
# Run from the repository root with the bundle carried: OUT=... bash bench/results/h200-2026-12-04/call-2.sh
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle BC=bundle/bench/bench_betweenness
export STARPU_SILENT=1
t() { env top_builddir="$B" top_srcdir="$B" timeout "$1" "$B/tests/$2" >"$OUT/test-$(echo "$2" | tr ' /' '__').txt" 2>&1
      echo "$2: exit $? ($(tail -n 1 "$OUT/test-$(echo "$2" | tr ' /' '__').txt"))"; }
t 200 apsp/brandes_gpu.sh
grep -c "same bits" "$OUT/test-apsp_brandes_gpu.sh.txt"
t 150 apsp/matrix_gpu.sh
t 100 apsp/phast_gpu
b() { echo "== $*"; timeout "$@" 2>&1 | grep -E "check|betweenness |distances|error|fail" ; }
TUCCOMPI_BRANDES_SWEEP=order b 60 $BC --gen random:1049088 --sources 4096 --units gpu --reps 2 --check 16
TUCCOMPI_BRANDES_SWEEP=order b 60 $BC --gen rmat:20 --sources 4096 --units gpu --reps 2 --check 4
TUCCOMPI_BRANDES_SWEEP=rounds b 60 $BC --gen rmat:20 --sources 4096 --units gpu --reps 1 --check 0
TUCCOMPI_BRANDES_SWEEP=order b 40 $BC --gen road:1000000 --sources 1024 --units gpu --reps 1 --check 4
b 50 $BC --gen random:1049088 --sources 4096 --units all --reps 2 --check 0
REPS=1 RUN_LIMIT=120 OUT=$OUT scripts/gpu-node.sh matrix-pinned 2>&1 | tail -3
cat "$OUT/matrix-pinned/rates.txt"
TUCCOMPI_BRANDES_SWEEP=order NCU_LIMIT=100 NCU_GRAPHS="random:1049088 rmat:20" OUT=$OUT scripts/gpu-node.sh betweenness-ncu 2>&1 | grep -E "===|exit" 
for g in random rmat; do
  python3 - "$OUT/betweenness-ncu/summary-$g.csv" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['Metric Name'] == 'Duration':
        v = float(r['Average'].replace(',', ''))
        print(f"{r['Kernel Name'][:45]:45s} {v / 1000 if r['Metric Unit'] == 'us' else v:8.3f} ms")
PY
done
OUT=$OUT scripts/gpu-node.sh pack >/dev/null 2>&1
