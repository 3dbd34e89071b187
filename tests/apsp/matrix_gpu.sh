#!/bin/sh
# --matrix on the GPU with the results registered with CUDA (TUCCOMPI_PIN_RESULTS): the GPU
# engines copy each source's target columns straight into the library's results by DMA. On
# PHAST, the batched and the dial engines, GPU alone and every unit, pinned (TUCCOMPI_PIN_RESULTS=1: any
# size) and not (=0), the matrix equals the CPU's byte for byte, and the summary says the results
# were registered; two ranks give the same matrix; a matrix over 64 MiB is registered by
# tuccompi-apsp itself (tuccompi_memory_pin).
# Skipped (77) without a GPU.
set -u
b=${top_builddir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
g="--gen road:40000 --seed 3 --sources random:300 --targets random:2500"
out=$("$app" $g --units gpu -q --matrix "$tmp/probe.npy" 2>&1)
if echo "$out" | grep -qE "no GPU found|no CUDA support"; then
	echo "no GPU: skipped"
	exit 77
fi
# dial takes integer weights up to 64: a random graph's
gd="--gen random:20000 --seed 3 --sources random:300 --targets random:2500"
for e in phast batched dial; do
	ge=$g
	[ $e = dial ] && ge=$gd
	"$app" $ge --engine $e --units cpu -q --matrix "$tmp/cpu-$e.npy" || fail "$e: CPU run"
	for u in gpu all; do
		TUCCOMPI_PIN_RESULTS=1 "$app" $ge --engine $e --units $u --summary --matrix "$tmp/pin.npy" >"$tmp/log" 2>&1 ||
			{ cat "$tmp/log"; fail "$e, --units $u, pinned"; }
		grep -q "results registered with CUDA" "$tmp/log" || { cat "$tmp/log"; fail "$e, --units $u: results not registered"; }
		cmp -s "$tmp/pin.npy" "$tmp/cpu-$e.npy" || fail "$e, --units $u: the pinned GPU matrix differs from the CPU's"
		TUCCOMPI_PIN_RESULTS=0 "$app" $ge --engine $e --units $u --summary --matrix "$tmp/nopin.npy" >"$tmp/log" 2>&1 ||
			{ cat "$tmp/log"; fail "$e, --units $u, not pinned"; }
		grep -q "results registered with CUDA" "$tmp/log" && fail "$e, --units $u: registered with TUCCOMPI_PIN_RESULTS=0"
		cmp -s "$tmp/nopin.npy" "$tmp/cpu-$e.npy" || fail "$e, --units $u: the GPU matrix differs from the CPU's"
	done
done
# two ranks (rank 0 with the GPU), the root's results registered: the same matrix
TUCCOMPI_PIN_RESULTS=1 MPIRUN_ARGS="${MPIRUN_ARGS:-} -x TUCCOMPI_PIN_RESULTS" "${top_srcdir:-.}/tests/mpirun.sh" 2 "$app" $g \
	--engine phast --units all --ncpu 2 -q --matrix "$tmp/two.npy" >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "two ranks, pinned"; }
cmp -s "$tmp/two.npy" "$tmp/cpu-phast.npy" || fail "two ranks: the matrix differs from the CPU's"
# a matrix over 64 MiB (520 x 40,000): tuccompi-apsp registers it itself before the run
# (tuccompi_memory_pin), and the library leaves it to the caller
big="--gen road:40000 --seed 3 --sources random:520 --targets all"
"$app" $big --engine phast --units cpu -q --matrix "$tmp/big-cpu.npy" || fail "a large matrix, CPU"
"$app" $big --engine phast --units gpu --summary --matrix "$tmp/big-gpu.npy" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "a large matrix, GPU"; }
grep -q "results registered with CUDA (.*by the caller" "$tmp/log" || { cat "$tmp/log"; fail "a large matrix: not registered by the app"; }
cmp -s "$tmp/big-gpu.npy" "$tmp/big-cpu.npy" || fail "a large matrix: the GPU's differs from the CPU's"
echo "ok: --matrix on the GPU, results registered or not (by the library, by the app), equals the CPU's (phast, batched; GPU, every unit; 2 ranks)"
