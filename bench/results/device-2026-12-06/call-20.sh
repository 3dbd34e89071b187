#!/usr/bin/env bash
# Device call 20 (device-2026-12-06 series): call 19 found SYN's starpu_pause()/starpu_resume() behind the
# empty sets' milliseconds (without them: EQ1 0.34-0.38 ms against 1.15-1.28). Does taking them out cost the
# long sets they were put in for (2026-12-01: 40 ms stalls of SYN's gathers on a full node)? Road-like 1M,
# PHAST MK 8, 65,536 sources, every unit on 2 ranks with bundle/lib (2dce899, paused) and bundle/nopause
# (the same without the pause), interleaved, four rounds; the GPU alone once per round. (One rank never
# pauses: SYN pauses only where the 1st layer runs.)
. bench/results/device-common.sh
NOPAUSE="env LD_LIBRARY_PATH=$B/nopause:$LD_LIBRARY_PATH"
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
export TUCCOMPI_END_LOG=1
for rep in 1 2 3 4; do
	echo "== road-like, round $rep $(el)"
	r g-$rep $APP "${a[@]}" --units gpu
	r r2-$rep $B/tests/mpirun.sh 2 $APP "${a[@]}"
	r r2np-$rep $B/tests/mpirun.sh 2 $NOPAUSE $APP "${a[@]}"
done
rm -rf $d
finish
