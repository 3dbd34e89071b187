#!/bin/sh
# nx_tests.sh: networkx's own tests of the functions the backend "tuccompi" dispatches
# (python/tuccompi/backend.py), with the backend: NETWORKX_TEST_BACKEND=tuccompi and
# NETWORKX_FALLBACK_TO_NX=True (networkx runs what the backend declines and every other function), as
# nx-parallel and nx-cugraph run theirs; in the virtual environment of python/nx_venv.sh (networkx
# from PyPI; skipped, 77, where none can be made). The modules of NX_TEST_MODULES, the tests that
# -k NX_TEST_SELECT names (each call starts tuccompi-apsp, so most of a test of 500 random graphs is
# left out). Fails unless the tests ran the program (through the backend) at least NX_MIN_RUNS times
# (default 100). make check runs it in two halves (test_nx_centrality.sh, test_nx_paths.sh), each
# under the suite's timeout.
. "${top_srcdir:-.}/python/nx_venv.sh"
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
# test_use_bounds_on_off_consistency's 500 random graphs (about a hundred runs of the program
# each): one of them, by its id
select="not use_bounds_on_off_consistency"
ids=
t=$nx/algorithms/tests/test_distance_measures.py
if [ -f "$t" ] && [ -z "${NX_TEST_SELECT:-}" ] && case "$mods" in *test_distance_measures.py*) true ;; *) false ;; esac && grep -q use_bounds_on_off_consistency "$t"; then
	for p in 0.4-10-3; do
		ids="$ids $t::TestDistance::test_use_bounds_on_off_consistency[$p]"
	done
fi
# every run of the program is counted (the tests must have gone through the backend)
calls=$(mktemp)
wrap=$calls.sh
printf '#!/bin/sh\necho >>"%s"\nexec "%s" "$@"\n' "$calls" "$(cd "$(dirname "$TUCCOMPI_APSP")" && pwd)/tuccompi-apsp" >"$wrap"
chmod +x "$wrap"
# rootdir: networkx's folder, whose conftest.py reads NETWORKX_TEST_BACKEND
run() {
	TUCCOMPI_APSP=$wrap NETWORKX_TEST_BACKEND=tuccompi NETWORKX_FALLBACK_TO_NX=True "$vpy" -m pytest -q \
		-p no:cacheprovider --rootdir "$nx" "$@"
}
# shellcheck disable=SC2086 # lists of paths
run -k "${NX_TEST_SELECT:-$select}" $paths && { [ -z "$ids" ] || run $ids; }
rc=$?
n=$(wc -l <"$calls")
rm -f "$calls" "$wrap"
[ $rc = 0 ] || exit 1
if [ "$n" -lt "${NX_MIN_RUNS:-100}" ]; then
	echo "FAIL: networkx's tests ran tuccompi-apsp $n times: they did not go through the backend"
	exit 1
fi
echo "networkx's tests: $n runs of tuccompi-apsp"
