#!/usr/bin/env bash
# Device call 27 (device-2026-12-06b series; NOT RUN: the session's device time had run out, and the change
# it measures, c8597ff's codelets/sssp/sssp_types.h, is not on main until it runs: check that file out of
# c8597ff, make bundle, then this call). Half of what -o costs GPU PHAST is the harmonic terms' double
# division (call 26). The tree's GPU code now takes a correctly rounded reciprocal scaled by 2^61, the same
# bits (checked on the CPU for every distance of 1 .. 2^32 - 2). Every GPU engine's tests compare the
# harmonic sums with the CPU's bit for bit: they run first. Then road-like 1M with -o, 65,536 sources, MK 8:
# the tree against v-div (bundle/variants.tar.xz: b4413f8's build, the division), two rounds.
. bench/results/device-common.sh
tar xJf $B/variants.tar.xz -C /tmp
t 60 $B/tests/apsp/phast_gpu
t 60 "$B/tests/apsp/sssp_plugin --gpu"
t 60 $B/tests/apsp/sssp_gpu.sh
t 90 $B/tests/apsp/dial_gpu
t 60 $B/tests/apsp/sssp_batch_gpu
road_setup
for rep in 1 2; do
	r o-new-$rep $APP "${a[@]}" --engine phast --units gpu --mk 8 -o $d/o.csv
	r o-div-$rep /tmp/v-div/tuccompi-apsp "${a[@]}" --engine phast --units gpu --mk 8 -o $d/o-div.csv
	cmp $d/o.csv $d/o-div.csv && echo "tables equal ($(wc -l <$d/o.csv) lines)"
done
rm -rf $d
finish
