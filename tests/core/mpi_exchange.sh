#!/bin/sh
# 2 ranks exchange data through StarPU-MPI.
exec "${top_srcdir:-.}/tests/mpirun.sh" 2 "${top_builddir:-.}/tests/core/mpi_exchange"
