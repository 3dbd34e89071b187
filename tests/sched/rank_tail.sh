#!/bin/sh
# tests/sched/rank_tail on 2 ranks (MS-TAIL's end-of-set rule between ranks).
set -e
exec "${top_srcdir:-.}/tests/mpirun.sh" 2 "${top_builddir:-.}/tests/sched/rank_tail"
