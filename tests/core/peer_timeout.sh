#!/bin/sh
# A stuck MS master (TUCCOMPI_FAULT_INJECT=mshang:2: it stops answering at the second request from
# another rank, the process stays alive and its heartbeats go on) is found by the other rank's
# progress check: with TUCCOMPI_PEER_TIMEOUT=2 the job ends non-zero within seconds, both ranks
# saying which rank is stuck, whose request it did not answer, and the variable, instead of hanging;
# each rank's account of the stop (TUCCOMPI_STOP_LOG, a folder of this test's) says it too.
b=${top_builddir:-.}
s=${top_srcdir:-.}
command -v "${MPIEXEC:-mpiexec}" >/dev/null 2>&1 || { echo "SKIP: no mpiexec"; exit 77; }
out=$(mktemp)
acc=$(mktemp -d)
trap 'rm -f "$out"; rm -rf "$acc"' EXIT
start=$(date +%s)
MPIRUN_ARGS="-x TUCCOMPI_FAULT_INJECT=mshang:2 -x TUCCOMPI_PEER_TIMEOUT=2 -x TUCCOMPI_STOP_LOG=$acc -x STARPU_NCPU=1 -x STARPU_NCUDA=0" \
	timeout 120 "$s/tests/mpirun.sh" 2 "$b/apps/tuccompi-example" ms >"$out" 2>&1
rc=$?
took=$(($(date +%s) - start))
cat "$out"
[ $rc = 124 ] && { echo "FAIL: the job hung (killed after 120 s)"; exit 1; }
[ $rc = 0 ] && { echo "FAIL: the job succeeded although its master stopped answering"; exit 1; }
msg="rank 0 (host [^ ]*) is alive but has not sent its answer to rank 1's request for tasks (it is the MS master) in 2 s: it is stuck (TUCCOMPI_PEER_TIMEOUT=2 s"
for r in 0 1; do
	grep -q "^\[tuccompi $r/2\] the job's 1st layer is stopped.*$msg" "$out" ||
		{ echo "FAIL: rank $r did not say that the 1st layer stopped, and why"; exit 1; }
done
[ "$(grep -c "^tuccompi-example: $msg" "$out")" = 2 ] ||
	{ echo "FAIL: the program's error is not the progress check's message on both ranks"; exit 1; }
for r in 0 1; do
	grep -q "rank $r/2 on host .*: the job's 1st layer is stopped.*$msg" "$acc"/tuccompi-*-rank$r.log ||
		{ echo "FAIL: rank $r's account in $acc does not say why the 1st layer stopped"; ls -l "$acc"; exit 1; }
done
[ "$took" -le 60 ] || { echo "FAIL: took $took s to notice a 2 s timeout"; exit 1; }
echo "ok: a stuck MS master ends the job in $took s (exit $rc) with the progress check's message"
