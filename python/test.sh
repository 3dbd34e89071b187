#!/bin/sh
# make check's run of python/test_tuccompi.py: the tuccompi module of this source tree against
# scipy, driving the tuccompi-apsp of this build tree. Needs a python3 with numpy and scipy
# ($PYTHON_TEST, else Debian's /usr/bin/python3 with python3-numpy and python3-scipy, else
# python3 on PATH); skipped (77) without one.
b=${top_builddir:-.}
s=${top_srcdir:-.}
py=
for c in ${PYTHON_TEST:-} /usr/bin/python3 python3; do
	if "$c" -c 'import numpy, scipy.sparse.csgraph' >/dev/null 2>&1; then
		py=$c
		break
	fi
done
if [ -z "$py" ]; then
	echo "SKIP: no python3 with numpy and scipy (apt-get install python3-numpy python3-scipy)"
	exit 77
fi
PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$s/python${PYTHONPATH:+:$PYTHONPATH}" TUCCOMPI_APSP="$b/apps/apsp/tuccompi-apsp" \
	exec "$py" "$s/python/test_tuccompi.py"
