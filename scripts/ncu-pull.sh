#!/usr/bin/env bash
# ncu-pull.sh: ncu counters of one 64-lane batch of the random 1M graph (time, DRAM bytes, local-memory
# i.e. register-spill sectors, stalls), the bundle's bench against bundle/bench/batch_gpu-$V (built by
# `VARIANTS=NAME:FLAGS scripts/gpu-pull.sh --build`; V defaults to nolazy: own rows first, where the
# default build reads them after the gathers). On the H200 node, from the
# repository root; results: bench/results/h200-2026-12-01/pull3/ncu.txt.
. bundle/env.sh
export STARPU_SILENT=1
f=$OUT/r1m.tgb
bundle/apps/apsp/tuccompi-graph gen random:1049088 --seed 1 -o $f >/dev/null 2>&1
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for b in batch_gpu batch_gpu-${V:-nolazy}; do
  echo "== $b"
  timeout 200 ncu --kernel-name regex:batch_loop --launch-skip 1 --launch-count 1 --metrics $m bundle/bench/$b $f --batches 1 --lanes 64 --check 0 --baseline 0 2>&1 | grep -E '^\s+(gpu__|dram__|lts__|l1tex__|smsp__|sm__|launch__)' 
done
