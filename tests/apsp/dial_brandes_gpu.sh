#!/bin/sh
# The dial-brandes engine on a GPU (exit 77 without CUDA or a GPU): its GPU form batch by batch against
# the CPU code's bits (tests/apsp/dial_brandes_gpu: each batch's settings, and what differs, printed),
# then the engine through the runtime, GPU alone and with CPU cores (tests/apsp/dial_brandes --gpu).
b="${top_builddir:-.}/tests/apsp"
[ -x "$b/dial_brandes_gpu" ] || { echo "built without CUDA: skipped"; exit 77; }
"$b/dial_brandes_gpu"
rc=$?
[ $rc = 0 ] || [ $rc = 77 ] || exit $rc
"$b/dial_brandes" --gpu
rc2=$?
[ $rc2 = 0 ] || [ $rc2 = 77 ] || exit $rc2
[ $rc = 77 ] && [ $rc2 = 77 ] && exit 77
[ $rc = 77 ] || [ $rc2 = 77 ] && { echo "FAIL: one GPU part ran and the other skipped ($rc, $rc2)"; exit 1; }
echo "ok: the GPU form and the engine on GPUs give the CPU's bits"
