#!/bin/sh
# examples/hutchinson on a GPU (the CUDA plug-in users copy): the GPU alone on 1 rank, 2 ranks (GPUs
# only with a GPU per rank, else every unit), then every unit, where the GPU must have run tasks; rank 0 checks every result. Skipped (77) without a GPU or a CUDA build.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
h="$b/examples/hutchinson/hutchinson"
fail() { echo "FAIL: $*"; exit 1; }
out=$("$h" --units gpu --n 512 --tasks 2000 2>&1)
rc=$?
if echo "$out" | grep -q "no GPU found"; then
	echo "no GPU (or no CUDA build): skipped"
	exit 77
fi
[ $rc = 0 ] || { echo "$out"; fail "hutchinson --units gpu (exit $rc)"; }
echo "$out" | grep -q "(gpu units, MK 4, ms): .*: all results correct$" || { echo "$out"; fail "--units gpu"; }
echo "$out"
out=$("$h" --units gpu --n 2048 --tasks 4000 --mk 2 --policy eq1 2>&1) || { echo "$out"; fail "--units gpu --mk 2 --policy eq1"; }
echo "$out" | grep -q "(gpu units, MK 2, eq1): .*: all results correct$" || { echo "$out"; fail "--mk 2 --policy eq1"; }
echo "$out"
# 2 ranks: GPUs only where the node has a GPU for each rank (the node split gives each GPU to one rank:
# a GPUs-only rank without one is refused at start, tests/core/rank_no_worker.sh), else every unit
# (the GPU's rank and a rank of CPU cores)
if [ -n "${MPIEXEC:-}" ]; then
	u=all
	[ "$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')" -ge 2 ] && u=gpu
	out=$("$s/tests/mpirun.sh" 2 "$h" --units $u --n 1024 --tasks 4000 2>&1) || { echo "$out"; fail "2 ranks, --units $u"; }
	echo "$out" | grep -q "on 2 rank(s) ($u units.*: all results correct$" || { echo "$out"; fail "2 ranks, --units $u"; }
	echo "$out"
fi
out=$("$h" --units all --n 1024 --tasks 8000 --summary 2>&1) || { echo "$out"; fail "--units all"; }
echo "$out" | grep -q "(all units, MK 4, ms): .*: all results correct$" || { echo "$out"; fail "--units all"; }
echo "$out" | awk '$2 == "GPU" && $4 > 0 { g = 1 } END { exit !g }' || { echo "$out"; fail "the GPU ran no task with every unit"; }
echo "$out" | tail -n 1
echo "ok: hutchinson on the GPU, 1 and 2 ranks, and on every unit"
