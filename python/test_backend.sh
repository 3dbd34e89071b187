#!/bin/sh
# make check's run of python/test_backend.py (the networkx backend against networkx itself) in the
# virtual environment of python/nx_venv.sh (networkx from PyPI; skipped, 77, where none can be made).
. "${top_srcdir:-.}/python/nx_venv.sh"
exec "$vpy" "$s/python/test_backend.py"
