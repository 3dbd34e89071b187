#!/usr/bin/env bash
# Device call 2: why dial_gpu failed on random 30000 1..64 in call 1 (one graph at a time, one block
# against the whole GPU, compute-sanitizer on the small graph).
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle
T="env top_builddir=$B top_srcdir=$B $B/tests/apsp/dial_gpu"
for c in "random 150 1..64" "random 30000 1..10" "random 30000 1..64" "grid" "cycle" "single"; do
  echo "== $c"; timeout 60 $T "$c" 2>&1 | tail -2
  echo "-- one block"; DIAL_GRID_MAX=1 timeout 100 $T "$c" 2>&1 | tail -2
done
echo "== memcheck, random 150 1..64"
timeout 120 compute-sanitizer --tool memcheck $B/tests/apsp/dial_gpu "random 150 1..64" 2>&1 | tail -5

