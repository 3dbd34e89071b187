#!/bin/sh
# networkx's own tests of betweenness, closeness and harmonic centrality with the backend "tuccompi"
# (python/nx_tests.sh; 77 where no virtual environment with networkx from PyPI can be made).
NX_TEST_MODULES="algorithms/centrality/tests/test_betweenness_centrality.py
	algorithms/centrality/tests/test_closeness_centrality.py algorithms/centrality/tests/test_harmonic_centrality.py" \
	NX_MIN_RUNS=${NX_MIN_RUNS:-50} exec sh "${top_srcdir:-.}/python/nx_tests.sh"
