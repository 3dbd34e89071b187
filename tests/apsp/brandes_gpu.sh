#!/bin/sh
# tests/apsp/brandes --gpu: betweenness on GPUs alone and with CPU cores, the same bits as the CPU's
# (exit 77 without CUDA or without a GPU).
exec "${top_builddir:-.}/tests/apsp/brandes" --gpu
