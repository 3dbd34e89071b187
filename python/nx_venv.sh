# Sourced by python/test_networkx.sh and python/test_backend.sh: $vpy, the python3 of a virtual
# environment with networkx, pytest, numpy and scipy from PyPI, made once and kept in the build tree
# ($NX_VENV, default $top_builddir/.venv-networkx; `make distclean` removes it; made under a lock, as
# both tests may start at once); the environment of the tests (the module of this source tree, the
# tuccompi-apsp of this build tree). Exits 77 where no virtual environment can be made.
b=${top_builddir:-.}
s=${top_srcdir:-.}
venv=${NX_VENV:-$b/.venv-networkx}
make_venv() {
	[ -f "$venv/ready" ] && return 0
	py=
	for c in ${PYTHON_VENV:-} /usr/bin/python3 python3; do
		if "$c" -c 'import venv, ensurepip' >/dev/null 2>&1; then
			py=$c
			break
		fi
	done
	if [ -z "$py" ]; then
		echo "SKIP: no python3 that makes virtual environments (apt-get install python3-venv)"
		return 77
	fi
	rm -rf "$venv"
	log=$venv.log
	if ! "$py" -m venv "$venv" >"$log" 2>&1 ||
		! timeout 600 "$venv/bin/python" -m pip install --disable-pip-version-check -q networkx pytest numpy scipy \
			>>"$log" 2>&1; then
		tail -n 3 "$log"
		rm -rf "$venv" "$log"
		echo "SKIP: no virtual environment with networkx from PyPI (no network?)"
		return 77
	fi
	rm -f "$log"
	touch "$venv/ready"
}
if command -v flock >/dev/null 2>&1; then
	exec 9>"$venv.lock"
	flock 9
	make_venv
	rc=$?
	flock -u 9
else
	make_venv
	rc=$?
fi
[ $rc = 0 ] || exit $rc
vpy=$venv/bin/python
PYTHONDONTWRITEBYTECODE=1
PYTHONPATH="$s/python${PYTHONPATH:+:$PYTHONPATH}"
TUCCOMPI_APSP=$b/apps/apsp/tuccompi-apsp
export PYTHONDONTWRITEBYTECODE PYTHONPATH TUCCOMPI_APSP
unset NETWORKX_BACKEND_PRIORITY NETWORKX_AUTOMATIC_BACKENDS NETWORKX_BACKEND_PRIORITY_ALGOS
echo "networkx $("$vpy" -c 'import networkx; print(networkx.__version__)') in $venv"
