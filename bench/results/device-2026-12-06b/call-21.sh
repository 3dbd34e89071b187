#!/usr/bin/env bash
# Device call 21 (device-2026-12-06b series): what bounds GPU PHAST on the H200 (issue 24 item 2: 0.67-0.74
# of the 4.8 TB/s floor in call 18, where the H100 reached 0.90-0.94 of its own). On the H200 the grid's
# 16-bit rows ran no faster than 32-bit ones did (142,583 against 148,930 SSSP/s at MK 8, other runs), so
# bytes may not be the bound there. Each downward vertex costs 3 shared atomics per lane (24 per warp at
# 256 lanes) for the summaries. Carries bundle/ (main, e6dbfd2) with two variants (bundle/variants.tar.xz):
#   v-nosums  diagnostic only (nosums.patch): the summaries' atomics replaced by a register XOR (wrong sums:
#             what the atomics cost, at most)
#   v-tsums   -DPHAST_SHARED_SUMS=2: each thread adds its lanes' distances into shared words of its own,
#             INF values counted instead of finite ones, the eccentricity read before it is raised
#  1. SASS of the sweep kernels (shared atomics, spills); v-tsums' tests/apsp/phast_gpu and its tables
#     against main's;
#  2. ncu on one pass alone (MK 1) of each graph: warp stalls, instruction mix, pipes, memory;
#  3. GPU alone, 131,072 sources, road-like 1M and grid 1024x1024, MK 8 and 12: base / nosums / tsums,
#     two interleaved rounds.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp # bundle/variants.tar.xz: v-nosums/ and v-tsums/ (the 64 MiB the call carries)
V1=/tmp/v-nosums V2=/tmp/v-tsums
echo "== 1. SASS $(el)"
cuo=$(command -v cuobjdump || ls /usr/local/cuda/bin/cuobjdump 2>/dev/null | head -1)
for v in base tsums; do
	f=$APP
	[ $v = tsums ] && f=$V2/tuccompi-apsp
	$cuo -sass -arch sm_90 "$f" >$L/sass-$v.txt 2>&1 || echo "cuobjdump failed ($cuo)"
	awk -v v=$v '/Function : /{fn=$3} /ATOMS|LDL|STL|LDS|STS/{for(i=1;i<=NF;i++) if($i ~ /^(ATOMS|LDL|STL|LDS|STS)/){c[fn" "$i]++}} END{for(k in c) if (k ~ /sweep256/) print v, k, c[k]}' $L/sass-$v.txt | sort
done
t 120 $V2/phast_gpu
d=/tmp/g
mkdir -p $d
$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
$GT gen grid:1024x1024 --seed 1 -o $d/grid.tgb >/dev/null
for g in road grid; do
	$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --sources random:256 -q >/dev/null 2>&1
	for v in base tsums; do
		f=$APP
		[ $v = tsums ] && f=$V2/tuccompi-apsp
		$f $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 8 --seed 3 --sources random:4096 -o $d/t-$g-$v.csv -q >/dev/null 2>&1
	done
	cmp $d/t-$g-base.csv $d/t-$g-tsums.csv && echo "$g: tsums' table equals main's ($(wc -l <$d/t-$g-base.csv) lines)"
done
echo "== 2. ncu, one pass alone $(el)"
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
for g in grid road; do
	timeout 200 "$ncu" --kernel-name regex:phast_sweep --launch-skip 2 --launch-count 1 \
		--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
		--section SchedulerStats --section WarpStateStats --section InstructionStats --section Occupancy \
		--metrics smsp__inst_executed_op_shared_atom.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed.sum,lts__t_bytes.sum,dram__bytes_read.sum,dram__bytes_write.sum \
		$APP $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk 1 --sources random:1024 -q >$L/ncu-$g.log 2>&1
	echo "ncu $g exit $?"
	grep -E "Duration|Throughput|Stall|stall|Issue|Eligible|Active Warps|shared_atom|shared_ld|shared_st|global_ld|inst_executed.sum|lts__t_bytes|dram__bytes|Pipe|Registers|Achieved" $L/ncu-$g.log | head -60
done
echo "== 3. GPU alone, 131,072 sources $(el)"
for rep in 1 2; do
	for g in road grid; do
		for mk in 8 12; do
			for v in base nosums tsums; do
				f=$APP
				[ $v = nosums ] && f=$V1/tuccompi-apsp
				[ $v = tsums ] && f=$V2/tuccompi-apsp
				r $g-mk$mk-$v-$rep $f $d/$g.tgb --engine phast --ch-cache $d/$g.ch --units gpu --mk $mk --seed 1 --sources random:131072
			done
		done
	done
done
echo "== 4. bench_phast, one stream, 256 lanes, first pass profiled $(el)"
for g in road grid; do
	for v in base nosums tsums; do
		f=$B/bench/bench_phast
		[ $v = nosums ] && f=$V1/bench_phast
		[ $v = tsums ] && f=$V2/bench_phast
		timeout 100 $f $d/$g.tgb --cache $d/$g.ch --threads 16 --sources 16 --dijkstra 4 --gpu-sources 16384 --lanes 256 --knob profile=1 >$L/bp-$g-$v.log 2>&1
		echo "$g $v: $(grep -E 'PHAST GPU|MISMATCH' $L/bp-$g-$v.log | sed 's/ = .*//' | tr '\n' ' ')"
	done
done
rm -rf $d
finish
