#!/bin/sh
# tests/apsp/brandes --gpu: betweenness on GPUs alone and with CPU cores, the same bits as the CPU's
# (exit 77 without CUDA or without a GPU), with both ways of running the sweeps on a GPU: in the order
# of distances (the default where every arc weighs at least 1) and Kahn's rounds (graphs with arcs of
# weight 0, or TUCCOMPI_BRANDES_SWEEP=rounds).
b="${top_builddir:-.}/tests/apsp/brandes"
"$b" --gpu || exit $?
echo "again with TUCCOMPI_BRANDES_SWEEP=rounds"
TUCCOMPI_BRANDES_SWEEP=rounds exec "$b" --gpu
