#!/bin/sh
# tests/core/reduce_test on 2 ranks (3 and 1 CPU workers) and on 3 ranks (2, 2 and 1): the same sums,
# bit for bit, as one rank's, under every policy.
dir=${top_builddir:-.}/tests/core
run=${top_srcdir:-.}/tests/mpirun.sh
MPIRUN_ARGS="-x TEST_NCPU=3 -n 1 $dir/reduce_test : -x TEST_NCPU=1" "$run" 1 "$dir/reduce_test" || exit $?
MPIRUN_ARGS="-x TEST_NCPU=2 -n 2 $dir/reduce_test : -x TEST_NCPU=1" exec "$run" 1 "$dir/reduce_test"
