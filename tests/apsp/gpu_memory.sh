#!/bin/sh
# A graph too big for the GPU's memory (StarPU told the GPU has 64 MB: STARPU_LIMIT_CUDA_MEM):
# with every unit the run goes on with the CPU cores and a warning, and gives the same table as a
# CPU-only run; with --units gpu it stops with a message saying what to do. Skipped (77) without
# a GPU.
set -u
b=${top_builddir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
args="--gen random:300000 --seed 2 --sources 0-15 --engine batched"
out=$("$app" $args --units gpu -q -o "$tmp/probe.csv" 2>&1)
if echo "$out" | grep -qE "no GPU found|no CUDA support"; then
	echo "no GPU: skipped"
	exit 77
fi
"$app" $args --units cpu -q -o "$tmp/cpu.csv" || fail "CPU-only run"
out=$(STARPU_LIMIT_CUDA_MEM=64 "$app" $args --units all -o "$tmp/all.csv" 2>&1) || { echo "$out"; fail "run with a small GPU"; }
echo "$out" | grep -q "CPU cores only" || { echo "$out"; fail "no warning that the GPU is too small"; }
cmp -s "$tmp/cpu.csv" "$tmp/all.csv" || fail "results differ"
out=$(STARPU_LIMIT_CUDA_MEM=64 "$app" $args --units gpu -o "$tmp/gpu.csv" 2>&1) && fail "--units gpu accepted a GPU too small"
echo "$out" | grep -q "use --units all or cpu" || { echo "$out"; fail "unclear message"; }
echo "ok: too small a GPU: CPU cores with a warning; --units gpu refused"
