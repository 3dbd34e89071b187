#!/usr/bin/env bash
# Device call 3 (2026-12-08 series): issue 24 item 3 on the random 1M graph (the engine auto picks, as
# users run it; --summary): GPU alone, the 12 CPU workers that every unit has alone (512 sources),
# every unit on 1 and 2 ranks of the node, 32,768 sources, two alternating rounds. The bundle of call 2.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
r() { local n=$1; shift; timeout 90 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"; printf '%-16s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
$GT gen random:1049088 --seed 1 -o /tmp/r1m.tgb >/dev/null
a=(/tmp/r1m.tgb --seed 1 --summary)
for rep in 1 2; do
  r r1m-gpu-$rep $APP "${a[@]}" --sources random:32768 --units gpu
  r r1m-cpu12-$rep $APP "${a[@]}" --sources random:512 --units cpu --ncpu 12
  TUCCOMPI_END_LOG=1 r r1m-all-$rep $APP "${a[@]}" --sources random:32768
  TUCCOMPI_END_LOG=1 r r1m-all2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}" --sources random:32768
  grep -hE "engine:|GPU  |waiting for other ranks" "$L/r1m-all2-$rep.log" | tail -4 | sed 's/^/    /'
done
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
