#!/usr/bin/env bash
# gpu-ranks.sh: issue 12 on the H200 node (one GPU, 16 cores), from `make bundle`: every unit on 8,192
# sources of the random 1M graph, one rank against two ranks (node-aware split), alternating, under
# MS and MS-TAIL, and two ranks with the MS feeder keeping a full pack in hand (TUCCOMPI_MS_PREFETCH=0,
# the behaviour before 2026-12-01); then bench/overhead on 2 and 4 ranks (1 us and 100 us tasks).
# Environment: REPS (default 2), POLICIES (default "ms ms-tail"), PF0=0 skips the full-pack runs,
# OVERHEAD=0 skips bench/overhead, SYN_AB=1 adds two ranks with StarPU's workers left polling during
# SYN's gathers (TUCCOMPI_SYN_PAUSE=0). Every rank prints how its set ended (TUCCOMPI_END_LOG=1).
# Results in $OUT/ranks/.
. "$(dirname "$0")/gpu-lib.sh" ranks
export TUCCOMPI_END_LOG=1 MPIRUN_ARGS="${MPIRUN_ARGS:-} -x TUCCOMPI_END_LOG"
"$GT" gen random:1049088 --seed 1 -o "$out/r1m.tgb" >/dev/null 2>&1
# two NAME POLICY: two ranks (extra mpirun arguments in $MPIRUN_ARGS), with how the set ended
two() {
	run "$1" "$B/tests/mpirun.sh" 2 "$APP" "$out/r1m.tgb" --sources random:8192 --policy "$2" --summary
	grep -E "waiting for other|SYN ms|MS grant" "$o/$1.log" | sed 's/^.*\(\[tuccompi\)/\1/; s/^/    /'
}
for rep in $(seq "${REPS:-2}"); do
	for pol in ${POLICIES:-ms ms-tail}; do
		run "ranks1-$pol-$rep" "$APP" "$out/r1m.tgb" --sources random:8192 --policy $pol --summary
		two "ranks2-$pol-$rep" $pol
		[ "${SYN_AB:-0}" = 1 ] && MPIRUN_ARGS="$MPIRUN_ARGS -x TUCCOMPI_SYN_PAUSE=0" two "ranks2-$pol-nopause-$rep" $pol
	done
	[ "${PF0:-1}" = 0 ] || MPIRUN_ARGS="$MPIRUN_ARGS -x TUCCOMPI_MS_PREFETCH=0" two "ranks2-ms-pf0-$rep" ms
done
rm -f "$out/r1m.tgb"
[ "${OVERHEAD:-1}" = 0 ] && exit 0
step "bench/overhead, 2 and 4 ranks"
for n in 2 4; do
	MPIRUN_ARGS="-x STARPU_NCUDA=0" timeout 120 "$B/tests/mpirun.sh" $n "$B/bench/overhead" --task-us 1,100 --reps 5 \
		--policies eq1,eq2,ms,ms-tail,eager,lws --csv "$o/overhead-$n.csv" 2>&1 | grep -E '^  [a-z]' | sed "s/^/[$n] /"
done
