#!/usr/bin/env bash
# Device call 4 (device-2026-12-05 series): the bundle of 664ae01. tests/apsp/sssp_plugin with and
# without --gpu on a GPU machine (its check after dial did not fit failed in call 2), and the app's
# GPU tests once more on the tree as committed.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { local f=$L/test-$(basename "$2" | tr ' /' '__').txt
      env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1; echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
t 60 "$B/tests/apsp/sssp_plugin"
grep -E "after dial|MK judged|FAIL" $L/test-sssp_plugin.txt | cut -c1-200
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 180 $B/tests/apsp/phast_gpu
t 90 $B/tests/apsp/sssp_gpu.sh
t 90 $B/tests/apsp/matrix_gpu.sh
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
