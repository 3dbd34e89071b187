#!/bin/sh
# tests/policies on 2 and 4 ranks of different sizes (1, 2 and 3 CPU workers), and on 4 ranks whose
# MS runs in two groups (a sub-master answers the second group): the
# same checks as with one rank must hold across nodes.
set -e
dir=${top_builddir:-.}/tests/sched
run=${top_srcdir:-.}/tests/mpirun.sh
echo "== 2 ranks (3 and 1 CPU workers)"
MPIRUN_ARGS="-x TEST_NCPU=3 -n 1 $dir/policies : -x TEST_NCPU=1" "$run" 1 "$dir/policies"
echo "== 4 ranks (2, 3, 1, 2 CPU workers)"
MPIRUN_ARGS="-x TEST_NCPU=2 -n 1 $dir/policies : -x TEST_NCPU=3 -n 1 $dir/policies : -x TEST_NCPU=1 -n 1 $dir/policies : -x TEST_NCPU=2" \
	"$run" 1 "$dir/policies"
echo "== 4 ranks in groups of 2 (TUCCOMPI_MS_GROUP=2: rank 2 answers rank 3 as its group's MS sub-master)"
MPIRUN_ARGS="-x TUCCOMPI_MS_GROUP=2 -x TEST_NCPU=2 -n 1 $dir/policies : -x TUCCOMPI_MS_GROUP=2 -x TEST_NCPU=1 -n 1 $dir/policies : -x TUCCOMPI_MS_GROUP=2 -x TEST_NCPU=3 -n 1 $dir/policies : -x TUCCOMPI_MS_GROUP=2 -x TEST_NCPU=1" \
	"$run" 1 "$dir/policies"
