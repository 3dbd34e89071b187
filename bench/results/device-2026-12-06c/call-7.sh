#!/usr/bin/env bash
# Device call 7 of the 2026-12-06c series: tests/apsp/phast_gpu with its new case (a broom forest of
# 2.2M leaves summed by one block, whose threads' 32-bit sums of the narrow passes wrap and carry),
# built from the tree (bundle/tests/apsp/phast_gpu replaced by the tree's build, stripped).
. bench/results/device-common.sh
t 120 $B/tests/apsp/phast_gpu
grep -E "broom|narrow passes|FAIL" $L/test-phast_gpu.txt
finish
