#!/bin/sh
# tests/core/batch on 2 ranks of different sizes (3 and 1 CPU workers): batches under every
# policy across nodes.
dir=${top_builddir:-.}/tests/core
run=${top_srcdir:-.}/tests/mpirun.sh
MPIRUN_ARGS="-x TEST_NCPU=3 -n 1 $dir/batch : -x TEST_NCPU=1" exec "$run" 1 "$dir/batch"
