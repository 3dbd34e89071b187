#!/usr/bin/env bash
# Device call 15 (device-2026-12-05 series): SYN without its barrier (each rank's report leaves when
# its own jobs end) and PARALLEL in one agreement where no journal is kept, against a475231's
# libtuccompi-starpu.so.0 in bundle/base/ (only the runtime library differs). Also StarPU-MPI's
# progression thread without its idle back-off (STARPU_MPI_POLLING_SLEEP_US=0) on ranks that give it
# a core of its own.
#  1. bench/latency on 2 ranks of the node (the node split): MPI_Barrier, tuccompi_barrier, a set of
#     2 empty tasks; new, new without back-off, old; two rounds.
#  2. Road-like 1M, PHAST (MK 8), 65,536 sources, four interleaved rounds: the GPU alone, every unit
#     on 1 rank, on 2 ranks new / new without back-off / old (TUCCOMPI_END_LOG).
#  3. The GPU tests and the 2-rank tests on the new library (the batched and dial engines' CUDA glue
#     now shared: codelets/sssp/buffers.c's sssp_gpu_batch_cols / sssp_gpu_batch_results).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$B/apps/apsp/tuccompi-graph APP=$B/apps/apsp/tuccompi-apsp
OLD="env LD_LIBRARY_PATH=$B/base:$LD_LIBRARY_PATH"
NOSLEEP="env STARPU_MPI_POLLING_SLEEP_US=0"
export STARPU_SILENT=1
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
el() { echo "[$(( $(date +%s) - t0 )) s]"; }
t() { local f=$L/test-$(basename "$2" | tr ' /' '__').txt
      env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1; echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
for rep in 1 2; do
  for v in new nosleep old; do
    case $v in new) pre=;; nosleep) pre=$NOSLEEP;; old) pre=$OLD;; esac
    echo "== latency $v, round $rep $(el)"
    timeout 120 $B/tests/mpirun.sh 2 $pre $B/bench/latency --reps 500 2>&1 | grep -v pmix | tail -5
  done
done
d=/tmp/g; mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
r() { local n=$1; shift; timeout 120 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
      printf '%-12s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"; }
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
export TUCCOMPI_END_LOG=1
for rep in 1 2 3 4; do
  echo "== round $rep $(el)"
  r g-$rep $APP "${a[@]}" --units gpu
  r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
  r r2s-$rep $B/tests/mpirun.sh 2 $NOSLEEP $APP "${a[@]}"
  r r2old-$rep $B/tests/mpirun.sh 2 $OLD $APP "${a[@]}"
  r a-$rep $APP "${a[@]}"
done
unset TUCCOMPI_END_LOG
rm -rf $d
echo "== tests $(el)"
t 120 "$B/tests/apsp/sssp_plugin --gpu"
t 90 $B/tests/apsp/sssp_gpu.sh
t 60 $B/tests/apsp/phast_gpu
t 120 $B/tests/apsp/dial_gpu
t 120 $B/tests/apsp/sssp_batch_gpu
t 180 $B/tests/apsp/matrix_gpu.sh
t 120 $B/tests/apsp/gpu_memory.sh
for s in core/batch_mpi.sh core/faults_mpi.sh core/reduce_mpi.sh sched/mpi_policies.sh core/mpi_exchange.sh; do t 120 $B/tests/$s; done
echo "== done $(el)"
tar czf "$OUT/logs.tgz" -C /tmp logs
