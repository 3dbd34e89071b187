#!/bin/sh
# tests/core/faults on 2 ranks, with an injected failure of rank 1's MS feeder thread.
dir=${top_builddir:-.}/tests/core
run=${top_srcdir:-.}/tests/mpirun.sh
MPIRUN_ARGS="-x FAULTS_MS_INJECT=1" \
	exec "$run" 2 "$dir/faults"
