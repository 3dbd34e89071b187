#!/usr/bin/env bash
# Device call 4: what dial_gpu gets wrong on random 30000 1..64 (DIAL_DIAG: per source, how many
# distances differ and one vertex's in-arcs), on the whole GPU and on one block.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
T="env top_builddir=$B top_srcdir=$B $B/tests/apsp/dial_gpu"
DIAL_DIAG=1 timeout 200 $T "random 30000 1..64" 2>&1 | head -30
echo "== one block"
DIAL_DIAG=1 DIAL_GRID_MAX=1 timeout 200 $T "random 30000 1..64" 2>&1 | head -12
echo "== the whole test"
timeout 200 $T 2>&1 | grep -E "FAIL|all summ"
