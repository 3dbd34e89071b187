#!/usr/bin/env bash
# Device call 5 of the 2026-12-06f series, with `make bundle` of c12b928 (main: the builder's guard,
# chunks and hub searches; its GPU code is 51e7f9c's): on an H200, call-2.sh again (the PHAST GPU
# tests and the deep-graph bench); on another GPU, the PHAST GPU tests only (main's builder makes
# their hierarchies).
case "$(nvidia-smi --query-gpu=name --format=csv,noheader)" in
*H200*) exec bash bench/results/device-2026-12-06f/call-2.sh ;;
esac
. bench/results/device-common.sh
for x in tests/apsp/phast_gpu "tests/apsp/sssp_plugin --gpu" tests/apsp/sssp_gpu.sh tests/apsp/matrix_gpu.sh; do
	t 150 "$B/$x"
done
finish
