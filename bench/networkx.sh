#!/bin/sh
# networkx.sh OUTDIR [ARGS...]: bench/networkx_bench.py (networkx, its tuccompi backend, NetworKit and
# igraph on the same graphs and sources, ratios from one run; ARGS go to it) into OUTDIR/networkx.txt.
# The tuccompi module: $PYTHONPATH, else python/ beside bench/ (the source tree, the bundle). With
# WHEELS=DIR (wheels of networkit, igraph and texttable: the GPU node has no PyPI), they are installed
# without an index into a virtual environment made over the system's packages (numpy, scipy,
# networkx); what is missing is skipped. PY: the python3 (default /usr/bin/python3, else python3).
#   networkx.sh wheels DIR   downloads those wheels here, for Python ${PYVER:-3.12} on x86_64 Linux
set -u
here=$(cd "$(dirname "$0")" && pwd)
PY=${PY:-$(command -v /usr/bin/python3 || echo python3)}
if [ "${1:-}" = wheels ]; then
	dir=${2:?usage: networkx.sh wheels DIR}
	exec "$PY" -m pip download --only-binary=:all: --no-deps --python-version "${PYVER:-3.12}" \
		--platform manylinux2014_x86_64 --platform manylinux_2_28_x86_64 -d "$dir" networkit igraph texttable
fi
out=${1:?usage: networkx.sh OUTDIR [ARGS...]}
shift
mkdir -p "$out"
[ -n "${PYTHONPATH:-}" ] || { PYTHONPATH=$here/../python; export PYTHONPATH; }
if [ -n "${WHEELS:-}" ] && ls "$WHEELS"/*.whl >/dev/null 2>&1; then
	venv=$out/venv
	if "$PY" -m venv --system-site-packages "$venv" >/dev/null 2>&1; then
		for w in texttable igraph networkit; do
			"$venv/bin/python" -m pip install -q --no-index --no-deps --find-links "$WHEELS" "$w" 2>&1 | tail -1
		done
		PY=$venv/bin/python
	else
		echo "(no virtual environment: NetworKit and igraph as the system has them)"
	fi
fi
"$PY" "$here/networkx_bench.py" "$@" 2>&1 | tee "$out/networkx.txt"
status=$?
rm -rf "${venv:-}"
exit $status
