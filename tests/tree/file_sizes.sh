#!/bin/sh
# No source file (.c .h .cu .cuh .cpp .py .sh) of the tree over MAX_LINES lines (default 1,000):
# a file that grows past it is split by what its parts do (issue 23). bench/results/ (measurements)
# and tests/data/ are not sources. TREE_SRCDIR: the tree to look at (default top_srcdir).
set -u
s=${TREE_SRCDIR:-${top_srcdir:-.}}
max=${MAX_LINES:-1000}
[ -f "$s/setup.sh" ] && [ -f "$s/README.md" ] || { echo "needs the source tree (not in a bundle): skipped"; exit 77; }
dirs=
for d in include lib schedulers codelets apps examples python scripts bench tests; do
	[ -d "$s/$d" ] && dirs="$dirs $s/$d"
done
[ -n "$dirs" ] || { echo "FAIL: no source folders in $s"; exit 1; }
status=0
n=0
# shellcheck disable=SC2086 # a list of folders
for f in $(find $dirs "$s/setup.sh" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \
	-o -name '*.cpp' -o -name '*.py' -o -name '*.sh' \) ! -path '*/bench/results/*' ! -path '*/tests/data/*' \
	! -path '*/.deps/*' ! -path '*/.libs/*' 2>/dev/null); do
	n=$((n + 1))
	lines=$(wc -l <"$f")
	if [ "$lines" -gt "$max" ]; then
		echo "FAIL: ${f#"$s"/} has $lines lines (at most $max: split it by what its parts do)"
		status=1
	fi
done
[ $n -gt 0 ] || { echo "FAIL: no source files found in $s"; exit 1; }
[ $status = 0 ] && echo "PASS: $n source files, none over $max lines"
exit $status
