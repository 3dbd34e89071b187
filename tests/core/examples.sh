#!/bin/sh
# The examples users copy run and check their own results: examples/cpu_last (a user's policy
# built from <tuccompi_sched.h>) on one rank and, with MPI, on two.
set -e
b=${top_builddir:-.}
s=${top_srcdir:-.}
out=$("$b/examples/cpu_last" 500 2>&1) || { echo "$out"; echo "FAIL: cpu_last"; exit 1; }
echo "$out" | grep -q "500 tasks under the policy 'cpu-last': all right" || { echo "$out"; exit 1; }
echo "ok: cpu_last on 1 rank"
if [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; then
	out=$("$s/tests/mpirun.sh" 2 "$b/examples/cpu_last" 500 2>&1) || { echo "$out"; echo "FAIL: cpu_last on 2 ranks"; exit 1; }
	echo "$out" | grep -q "all right" || { echo "$out"; exit 1; }
	echo "ok: cpu_last on 2 ranks"
fi
