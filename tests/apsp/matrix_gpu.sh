#!/bin/sh
# --matrix on the GPU with the results registered with CUDA (TUCCOMPI_PIN_RESULTS): the GPU
# engines copy each source's target columns straight into the library's results by DMA. On
# PHAST and the batched engine, GPU alone and every unit, pinned (TUCCOMPI_PIN_RESULTS=1: any
# size) and not (=0), the matrix equals the CPU's byte for byte, and the summary says the results
# were registered. Skipped (77) without a GPU.
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
for e in phast batched; do
	"$app" $g --engine $e --units cpu -q --matrix "$tmp/cpu-$e.npy" || fail "$e: CPU run"
	for u in gpu all; do
		TUCCOMPI_PIN_RESULTS=1 "$app" $g --engine $e --units $u --summary --matrix "$tmp/pin.npy" >"$tmp/log" 2>&1 ||
			{ cat "$tmp/log"; fail "$e, --units $u, pinned"; }
		grep -q "results registered with CUDA" "$tmp/log" || { cat "$tmp/log"; fail "$e, --units $u: results not registered"; }
		cmp -s "$tmp/pin.npy" "$tmp/cpu-$e.npy" || fail "$e, --units $u: the pinned GPU matrix differs from the CPU's"
		TUCCOMPI_PIN_RESULTS=0 "$app" $g --engine $e --units $u --summary --matrix "$tmp/nopin.npy" >"$tmp/log" 2>&1 ||
			{ cat "$tmp/log"; fail "$e, --units $u, not pinned"; }
		grep -q "results registered with CUDA" "$tmp/log" && fail "$e, --units $u: registered with TUCCOMPI_PIN_RESULTS=0"
		cmp -s "$tmp/nopin.npy" "$tmp/cpu-$e.npy" || fail "$e, --units $u: the GPU matrix differs from the CPU's"
	done
done
echo "ok: --matrix on the GPU, results registered or not, equals the CPU's (phast, batched; GPU, every unit)"
