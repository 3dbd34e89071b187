#!/bin/sh
# tests/apsp/brandes on 2 ranks (2 and 1 CPU workers): the betweenness sums have the same bits as on
# one rank, under every policy.
exec "${top_srcdir:-.}/tests/mpirun.sh" 2 "${top_builddir:-.}/tests/apsp/brandes"
