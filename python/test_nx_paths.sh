#!/bin/sh
# networkx's own tests of shortest-path lengths, distance measures and the Wiener index with the
# backend "tuccompi" (python/nx_tests.sh; 77 where no virtual environment with networkx from PyPI can
# be made).
NX_TEST_MODULES="algorithms/shortest_paths/tests/test_weighted.py algorithms/shortest_paths/tests/test_unweighted.py
	algorithms/shortest_paths/tests/test_generic.py algorithms/shortest_paths/tests/test_dense_numpy.py
	algorithms/tests/test_distance_measures.py algorithms/tests/test_wiener.py" \
	NX_MIN_RUNS=${NX_MIN_RUNS:-50} exec sh "${top_srcdir:-.}/python/nx_tests.sh"
