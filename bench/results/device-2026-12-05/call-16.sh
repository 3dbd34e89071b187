#!/usr/bin/env bash
# Device call 16 (device-2026-12-05 series): why call 15's empty sets took longer with the new SYN and
# PARALLEL (1.34-1.62 ms against 0.75-0.92 ms) while the road-like sets' ends got shorter. bench/latency
# on 2 ranks with TUCCOMPI_END_LOG (each rank's PARALLEL and SYN steps per set), new and old library
# (device time was short: no spin variant); then the two tests of
# call 15 that called collectives on the GPU's rank only (tests/core/batch.c, reduce_test.c: fixed).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
OLD="env LD_LIBRARY_PATH=$B/base:$LD_LIBRARY_PATH"
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { local f=$L/test-$(basename "$2" | tr ' /' '__').txt
      env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1; echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
for rep in 1 2; do
  for v in new old; do
    case $v in new) pre=;; old) pre=$OLD;; spin) pre="env STARPU_MPI_POLLING_SPIN_US=5000";; esac
    echo "== latency $v, round $rep $(el)"
    timeout 120 $B/tests/mpirun.sh 2 $pre $B/bench/latency --reps 300 2>&1 | grep -v pmix | tail -4
    timeout 120 $B/tests/mpirun.sh 2 $pre env TUCCOMPI_END_LOG=1 $B/bench/latency --reps 40 > $L/lat-$v-$rep.log 2>&1
  done
done
echo "== tests $(el)"
for s in core/batch_mpi.sh core/reduce_mpi.sh; do t 120 $B/tests/$s; done
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
