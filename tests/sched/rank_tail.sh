#!/bin/sh
# tests/sched/rank_tail on 2 ranks (MS-TAIL's end-of-set rule between ranks): rank 0 with one fast
# CPU worker, rank 1 with 16 slow ones, every rank's adaptive pack on (TUCCOMPI_MS_ADAPT_RATE=0: by
# default only ranks asking more than 1,000 times a second take more than they ask).
set -e
dir=${top_builddir:-.}/tests/sched
MPIRUN_ARGS="-x TUCCOMPI_MS_ADAPT_RATE=0 -x TEST_NCPU=1 -n 1 $dir/rank_tail : -x TUCCOMPI_MS_ADAPT_RATE=0 -x TEST_NCPU=16" exec "${top_srcdir:-.}/tests/mpirun.sh" 1 "$dir/rank_tail"
