#!/bin/sh
# tests/core/rank_errors on 2 and 3 ranks under every policy: a rank's own mistake at PARALLEL (a NULL
# plug-in, a bad policy, a different description, a journal it cannot open, no memory) fails the call
# on every rank with the rank and the reason, and the next set runs; a NULL task set at SYN, sets waited
# for in different orders, and a rank that calls tuccompi_finalize() while the others start a set stop
# the 1st layer on every rank within seconds, each saying why, and mpirun returns.
b=${top_builddir:-.}
s=${top_srcdir:-.}
command -v "${MPIEXEC:-mpiexec}" >/dev/null 2>&1 || { echo "SKIP: no mpiexec"; exit 77; }
prog=$b/tests/core/rank_errors
work=$(mktemp -d)
out=$work/out
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }
export MPIRUN_ARGS="-x STARPU_NCUDA=0 -x TUCCOMPI_PEER_TIMEOUT=20"

for n in 2 3; do
	for pol in eq1 eq2 ms ms-tail; do
		timeout 240 "$s/tests/mpirun.sh" $n "$prog" agreed $pol "$work" >"$out" 2>&1 || fail "agreed $pol on $n ranks: exit $?"
		k=$(grep -c "^rank [0-9]* ok" "$out")
		# per bad rank: 4 errors on rank 0, 6 on the others, seen by every rank
		want=$((n * (4 + 6 * (n - 1))))
		[ "$k" = "$want" ] || fail "agreed $pol on $n ranks: $k errors seen, $want expected"
		[ "$(grep -c "^rank [0-9]* done" "$out")" = $n ] || fail "agreed $pol on $n ranks: not every rank finished"
		echo "ok: agreed errors under $pol on $n ranks ($k seen)"
	done
done

# The layer stops: every rank says why within seconds, and mpirun returns (non-zero).
for case in "nullwait eq1 2" "nullwait ms 3" "order eq2 2" "order ms-tail 3" "finalize ms 2" "finalize eq1 3"; do
	set -- $case
	start=$(date +%s)
	timeout 120 "$s/tests/mpirun.sh" "$3" "$prog" "$1" "$2" >"$out" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	[ $rc = 124 ] && fail "$case: mpirun still running after 120 s"
	[ $rc = 0 ] && fail "$case: exit 0 after the 1st layer stopped"
	want=$(( $3 * 2 ))
	[ "$1" = finalize ] && want=$(( $3 * 2 - 1 ))
	k=$(grep -c "^rank [0-9]* ok" "$out")
	[ "$k" = "$want" ] || fail "$case: $k of $want expected errors seen"
	[ "$took" -le 60 ] || fail "$case: took $took s"
	echo "ok: $case: every rank stopped with the reason in $took s (mpirun exit $rc)"
done
