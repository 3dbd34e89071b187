#!/bin/sh
# make check's run of the networkx backend "tuccompi" (python/tuccompi/backend.py), in a virtual
# environment with networkx, pytest, numpy and scipy from PyPI, made once and kept in the build tree
# ($NX_VENV, default $top_builddir/.venv-networkx; `make distclean` removes it):
#  1. networkx's own tests of every function the backend dispatches, with the backend
#     (NETWORKX_TEST_BACKEND=tuccompi; NETWORKX_FALLBACK_TO_NX=True: networkx runs what it declines
#     and every other function, as nx-parallel and nx-cugraph run theirs): the modules of
#     NX_TEST_MODULES, the tests that -k NX_TEST_SELECT names (each call starts tuccompi-apsp, so
#     the slowest tests of functions the backend does not have are left out); NX_TESTS=0 skips them;
#  2. python/test_backend.py: our comparisons with networkx.
# Skipped (77) where no virtual environment can be made (no python3 -m venv, PyPI unreachable).
b=${top_builddir:-.}
s=${top_srcdir:-.}
venv=${NX_VENV:-$b/.venv-networkx}
if [ ! -f "$venv/ready" ]; then
	py=
	for c in ${PYTHON_VENV:-} /usr/bin/python3 python3; do
		if "$c" -c 'import venv, ensurepip' >/dev/null 2>&1; then
			py=$c
			break
		fi
	done
	if [ -z "$py" ]; then
		echo "SKIP: no python3 that makes virtual environments (apt-get install python3-venv)"
		exit 77
	fi
	rm -rf "$venv"
	if ! "$py" -m venv "$venv" >"$b/.venv-networkx.log" 2>&1 ||
		! timeout 600 "$venv/bin/python" -m pip install --disable-pip-version-check -q networkx pytest numpy scipy \
			>>"$b/.venv-networkx.log" 2>&1; then
		tail -n 3 "$b/.venv-networkx.log"
		rm -rf "$venv" "$b/.venv-networkx.log"
		echo "SKIP: no virtual environment with networkx from PyPI (no network?)"
		exit 77
	fi
	rm -f "$b/.venv-networkx.log"
	touch "$venv/ready"
fi
vpy=$venv/bin/python
PYTHONDONTWRITEBYTECODE=1
PYTHONPATH="$s/python${PYTHONPATH:+:$PYTHONPATH}"
TUCCOMPI_APSP=$b/apps/apsp/tuccompi-apsp
export PYTHONDONTWRITEBYTECODE PYTHONPATH TUCCOMPI_APSP
unset NETWORKX_BACKEND_PRIORITY NETWORKX_AUTOMATIC_BACKENDS NETWORKX_BACKEND_PRIORITY_ALGOS
echo "networkx $("$vpy" -c 'import networkx; print(networkx.__version__)') in $venv"
if [ "${NX_TESTS:-1}" != 0 ]; then
	nx=$("$vpy" -c 'import os, networkx; print(os.path.dirname(networkx.__file__))') || exit 1
	mods=${NX_TEST_MODULES:-"algorithms/centrality/tests/test_betweenness_centrality.py
		algorithms/centrality/tests/test_closeness_centrality.py algorithms/centrality/tests/test_harmonic_centrality.py
		algorithms/shortest_paths/tests/test_weighted.py algorithms/shortest_paths/tests/test_unweighted.py
		algorithms/shortest_paths/tests/test_generic.py algorithms/shortest_paths/tests/test_dense_numpy.py
		algorithms/tests/test_distance_measures.py algorithms/tests/test_wiener.py"}
	paths=
	for m in $mods; do
		[ -f "$nx/$m" ] && paths="$paths $nx/$m"
	done
	# shellcheck disable=SC2086 # a list of paths
	NETWORKX_TEST_BACKEND=tuccompi NETWORKX_FALLBACK_TO_NX=True "$vpy" -m pytest -q -p no:cacheprovider \
		-k "${NX_TEST_SELECT:-not (astar or bellman or johnson or goldberg or negative or bidirectional or Barycenter or resistance or kemeny or effective_graph_resistance)}" \
		$paths || exit 1
fi
exec "$vpy" "$s/python/test_backend.py"
