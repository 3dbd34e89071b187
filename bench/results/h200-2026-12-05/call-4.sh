#!/usr/bin/env bash
# Device call 4 (2026-12-05): (1) where a GPU PHAST pass's bytes go (issue 24 item 2): Nsight Compute
# on one pass of 256 sources, road-like 1M and grid 1024x1024 (DRAM bytes read and written, L2 hit
# rate, duration) against the traffic floor's bytes; (2) the 10,000 x 10,000 matrix at MK 8 against
# MK 4 (issue 22's remaining 5%); (3) every unit on road-like 1M at 262,144 sources, 1 and 2 ranks,
# against the units alone (issue 24 item 3 without the set's fixed costs), and one traced
# every-unit run of 65,536 (each worker's first and last job).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$PWD/bundle/apps/apsp/tuccompi-apsp GT=$PWD/bundle/apps/apsp/tuccompi-graph
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
f=/tmp/road.tgb
$GT gen road:1048576 --seed 1 -o "$f" >/dev/null 2>&1
$GT gen grid:1024x1024 --seed 1 -o /tmp/grid.tgb >/dev/null 2>&1
for g in road grid; do
  gf=/tmp/$g.tgb
  $APP "$gf" --engine phast --ch-cache "$gf.ch" --units gpu --sources random:256 -q >/dev/null 2>&1
  echo "== ncu: one PHAST pass of 256 sources, $g (the third pass of the run)"
  timeout 200 "$ncu" --kernel-name regex:phast_sweep --launch-skip 2 --launch-count 1 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,lts__t_bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
    "$APP" "$gf" --engine phast --ch-cache "$gf.ch" --units gpu --mk 1 --sources random:1024 -q >$L/ncu-$g.log 2>&1
  echo "ncu exit $?"; grep -E "phast_sweep|gpu__time|dram__|lts__" $L/ncu-$g.log | head -12
  grep -E "levels|shortcuts|arcs" $L/ncu-$g.log | head -2
done
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1; printf '%-26s %s | %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$L/$n.log" | tail -1)" "$(grep -h 'GPUs:' "$L/$n.log")"; }
a=("$f" --engine phast --ch-cache "$f.ch" --units gpu --seed 1)
echo "== the 10,000 x 10,000 matrix, MK 4 and 8"
for rep in 1 2; do
  for mk in 4 8; do
    r plain-mk$mk-$rep $APP "${a[@]}" --mk $mk --sources random:10000
    r t10k-mk$mk-$rep $APP "${a[@]}" --mk $mk --sources random:10000 --targets random:10000 --matrix /tmp/o.npy
  done
done
rm -f /tmp/o.npy
echo "== road-like 1M, PHAST, MS-TAIL: every unit at 262,144 sources (wall time from --summary)"
w() { awk '/^  rank 0: .* tasks in/ {for (i = 1; i <= NF; i++) if ($i == "in") {print $(i + 1); exit}}' "$1"; }
s() { local n=$1 k=$2; shift 2; timeout 120 "$@" --sources random:$k --seed 1 --summary -q >"$L/$n.log" 2>&1
      local t; t=$(w "$L/$n.log"); printf '%-22s %8s sources %8s s %10s SSSP/s\n' "$n" $k "$t" "$(awk -v k=$k -v t=$t 'BEGIN{if (t>0) printf "%.0f", k/t}')"; }
b=("$f" --engine phast --ch-cache "$f.ch" --policy ms-tail)
for rep in 1 2; do
  s gpu-$rep 262144 $APP "${b[@]}" --units gpu
  s cpu-$rep 16384 $APP "${b[@]}" --units cpu
  s all-$rep 262144 $APP "${b[@]}" --units all
  s all2-$rep 262144 $B/tests/mpirun.sh 2 $APP "${b[@]}" --units all
done
echo "== a traced every-unit run of 65,536: each worker's jobs (ms from the trace's start)"
$APP "${b[@]}" --units all --sources random:65536 --seed 1 --summary --trace /tmp/tr >$L/trace-all.log 2>&1
head -4 $L/trace-all.log | tail -2
python3 scripts/tasks_rec_jobs.py /tmp/tr/tasks.rec 2>&1 | head -20
rm -rf /tmp/tr /tmp/*.tgb /tmp/*.ch
tar czf "$OUT/logs.tgz" -C /tmp logs
