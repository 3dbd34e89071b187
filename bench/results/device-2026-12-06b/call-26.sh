#!/usr/bin/env bash
# Device call 26 (device-2026-12-06b series): with -o (harmonic sums) GPU PHAST still runs about 35% under
# its rate without (call 25, H100: 157,000 against 241,000 on the road-like graph). What is it: the term (a
# double division, the CPU's bits) or its three 32-bit shared atomics? Carries bundle/ (b4413f8) and
# bundle/variants.tar.xz: v-hx (harm-noatomic.patch, -DPHAST_DIAG_HARM_NOATOMIC=1: the term computed and
# XORed into a register instead of added; a diagnostic, wrong harmonic sums).
#  1. -o, 65,536 sources, road-like and grid, MK 8 and 12: new / hx / new without -o, two rounds;
#  2. ncu of one road-like pass with -o at MK 1: warp stalls and the top SASS lines.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in road grid; do $APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1; done
echo "== 1. -o $(el)"
for rep in 1 2; do
	for g in road grid; do
		for mk in 8 12; do
			r $g-o-mk$mk-new-$rep $APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:65536 -o $d/o.csv
			r $g-o-mk$mk-hx-$rep /tmp/v-hx/tuccompi-apsp $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:65536 -o $d/o.csv
			r $g-mk$mk-new-$rep $APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:65536
		done
	done
done
echo "== 2. ncu $(el)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
timeout 150 "$ncu" --kernel-name regex:phast_sweep --launch-skip 2 --launch-count 1 --section WarpStateStats --section InstructionStats \
	--section SourceCounters --metrics smsp__inst_executed_op_shared_atom.sum,smsp__inst_executed.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,gpu__time_duration.sum \
	$APP $d/road.tgb --engine phast --ch-cache $d/road.ch --units gpu --mk 1 --sources random:1024 -o $d/o.csv -q >$L/ncu-road-o.log 2>&1
echo "ncu exit $?"
grep -E "Duration|duration|shared_atom|inst_executed.sum|dfma|dmul|Stall|stall" $L/ncu-road-o.log | head -30
rm -rf $d
finish
