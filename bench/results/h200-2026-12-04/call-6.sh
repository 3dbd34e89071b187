#!/usr/bin/env bash
# Device call 6 (2026-12-04): the batched engine's own MK on shallow graphs now 2 (was 1): GPU alone at
# the engine's MK against --mk 1, every unit, and the CPU cores alone (for the sum), on random 1M,
# random 4M and R-MAT 20 (the run's wall time from --summary); sssp_plugin --gpu (the plans' MK).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle APP=$B/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
env top_builddir="$B" top_srcdir="$B" timeout 150 "$B/tests/apsp/sssp_plugin" --gpu >"$OUT/test-sssp_plugin-gpu.txt" 2>&1
echo "apsp/sssp_plugin --gpu: exit $? ($(tail -n 1 "$OUT/test-sssp_plugin-gpu.txt"))"
r() { local name=$1 k=$2; shift 2
  timeout 120 "$APP" "$@" --sources random:$k --seed 1 --summary -q >"$OUT/$name.log" 2>&1
  w=$(awk '/^  rank 0: .* tasks in/ {for (i = 1; i <= NF; i++) if ($i == "in") print $(i + 1)}' "$OUT/$name.log" | head -1)
  printf '%-22s %6s sources %8s s %10s SSSP/s  %s\n' "$name" "$k" "$w" "$(awk -v k=$k -v w=${w:-0} 'BEGIN {if (w > 0) printf "%.1f", k / w}')" \
    "$(grep -oE 'MK [0-9]+' "$OUT/$name.log" | head -1)"; }
for g in random:1049088:16384:256 rmat:20:16384:256 random:4194304:4096:64; do
  spec=${g%:*:*}; k=${g#$spec:}; kc=${k#*:}; k=${k%:*}
  $B/apps/apsp/tuccompi-graph gen "$spec" --seed 1 -o /tmp/g.tgb >/dev/null 2>&1
  n=$(echo "$spec" | tr ':' '-')
  a=(/tmp/g.tgb --engine batched --policy ms-tail)
  for rep in 1 2; do
    r $n-gpu-mk1-$rep $k "${a[@]}" --units gpu --mk 1
    r $n-gpu-own-$rep $k "${a[@]}" --units gpu
    r $n-all-own-$rep $k "${a[@]}" --units all
  done
  r $n-cpu $kc "${a[@]}" --units cpu
done
rm -f /tmp/g.tgb
OUT=$OUT scripts/gpu-node.sh pack >/dev/null 2>&1
