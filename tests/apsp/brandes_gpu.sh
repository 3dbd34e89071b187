#!/bin/sh
# tests/apsp/brandes --gpu: betweenness on GPUs alone and with CPU cores, the same bits as the CPU's
# (exit 77 without CUDA or without a GPU), in every way of running the sweeps on a GPU
# (TUCCOMPI_BRANDES_SWEEP): auto (each graph's first batches try both), one pass in the order of
# distances (where every arc weighs at least 1), Kahn's rounds; and a bad value is refused.
b="${top_builddir:-.}/tests/apsp/brandes"
for mode in auto order rounds; do
	echo "TUCCOMPI_BRANDES_SWEEP=$mode"
	TUCCOMPI_BRANDES_SWEEP=$mode "$b" --gpu || exit $?
done
if TUCCOMPI_BRANDES_SWEEP=sideways "$b" --gpu >bad.out 2>&1; then
	echo "FAIL: TUCCOMPI_BRANDES_SWEEP=sideways was accepted"
	exit 1
fi
grep -q "TUCCOMPI_BRANDES_SWEEP=sideways: say auto, order or rounds" bad.out ||
	{ echo "FAIL: no clear error for TUCCOMPI_BRANDES_SWEEP=sideways:"; cat bad.out; exit 1; }
rm -f bad.out
echo "ok: every way gives the CPU's bits; a bad TUCCOMPI_BRANDES_SWEEP is refused"
