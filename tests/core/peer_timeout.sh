#!/bin/sh
# A stuck MS master (TUCCOMPI_FAULT_INJECT=mshang:2: its server stops answering at the second request
# from another rank, the process stays alive) is found by the other rank's progress check: with
# TUCCOMPI_PEER_TIMEOUT=2 the job ends non-zero within seconds, with a message naming both ranks and
# the variable, instead of hanging.
b=${top_builddir:-.}
s=${top_srcdir:-.}
command -v "${MPIEXEC:-mpiexec}" >/dev/null 2>&1 || { echo "SKIP: no mpiexec"; exit 77; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
MPIRUN_ARGS="-x TUCCOMPI_FAULT_INJECT=mshang:2 -x TUCCOMPI_PEER_TIMEOUT=2 -x STARPU_NCPU=1 -x STARPU_NCUDA=0" \
	timeout 120 "$s/tests/mpirun.sh" 2 "$b/apps/tuccompi-example" ms >"$out" 2>&1
rc=$?
took=$(($(date +%s) - start))
cat "$out"
[ $rc = 124 ] && { echo "FAIL: the job hung (killed after 120 s)"; exit 1; }
[ $rc = 0 ] && { echo "FAIL: the job succeeded although its master stopped answering"; exit 1; }
grep -q "rank 1: the MS master (rank 0) has not answered a request for tasks in [0-9]* s: it is stuck or lost; aborting the job (TUCCOMPI_PEER_TIMEOUT=2 s" "$out" ||
	{ echo "FAIL: no message from the progress check"; exit 1; }
[ "$took" -le 60 ] || { echo "FAIL: took $took s to notice a 2 s timeout"; exit 1; }
echo "ok: a stuck MS master ends the job in $took s (exit $rc) with the progress check's message"
