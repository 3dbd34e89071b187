#!/bin/sh
# tests/sched/rank_tail on 2 ranks (MS-TAIL's end-of-set rule between ranks): rank 0 with one fast
# CPU worker, rank 1 with 4 slow ones.
set -e
dir=${top_builddir:-.}/tests/sched
MPIRUN_ARGS="-x TEST_NCPU=1 -n 1 $dir/rank_tail : -x TEST_NCPU=16" exec "${top_srcdir:-.}/tests/mpirun.sh" 1 "$dir/rank_tail"
