#!/bin/sh
# The CUDA SSSP plug-in against the reference, in both kernel variants (the paper's relax /
# minimum / update, and the fused minimum / settle_relax); 77 without a GPU.
set -e
"${top_builddir:-.}/tests/apsp/sssp_plugin" --gpu
TUCCOMPI_SSSP_KERNELS=paper "${top_builddir:-.}/tests/apsp/sssp_plugin" --gpu
