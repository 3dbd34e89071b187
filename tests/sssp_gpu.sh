#!/bin/sh
# The CUDA SSSP plug-in against the reference (77 without a GPU).
exec "${top_builddir:-.}/tests/sssp_plugin" --gpu
