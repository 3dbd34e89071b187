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
# examples/hutchinson (a CUDA plug-in; here on CPU units: tests/core/plugin_gpu.sh runs it on a GPU):
# every result checked by rank 0, under two policies, on 1 rank and on 2
h="$b/examples/hutchinson/hutchinson --units cpu --n 192 --tasks 600"
for p in ms eq2; do
	out=$($h --policy $p 2>&1) || { echo "$out"; echo "FAIL: hutchinson --policy $p"; exit 1; }
	echo "$out" | grep -q "^hutchinson: 600 probes .* on 1 rank(s) (cpu units, MK 4, $p): .*: all results correct$" ||
		{ echo "$out"; echo "FAIL: hutchinson --policy $p did not check its results"; exit 1; }
done
echo "ok: hutchinson on the CPU units of 1 rank, under ms and eq2"
if [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; then
	out=$("$s/tests/mpirun.sh" 2 $h 2>&1) || { echo "$out"; echo "FAIL: hutchinson on 2 ranks"; exit 1; }
	echo "$out" | grep -q "on 2 rank(s) .*: all results correct$" || { echo "$out"; exit 1; }
	echo "ok: hutchinson on 2 ranks"
fi
