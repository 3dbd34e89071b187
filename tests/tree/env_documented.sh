#!/bin/sh
# Every TUCCOMPI_* environment variable the sources read is in the README's environment tables, and
# every one those tables list is still read. A variable is read where a C, C++, CUDA or Python file
# names it as a whole string literal ("TUCCOMPI_MK", getenv's and os.environ's argument), or where a
# shell script expands it (a dollar sign before the name) or sets it for a program it runs
# (the name, then "="). Macros and types of the API (TUCCOMPI_API, TUCCOMPI_GPULAUNCH, ...) are neither.
# TREE_SRCDIR: the tree to look at (default top_srcdir), for this test's own check of itself.
set -u
s=${TREE_SRCDIR:-${top_srcdir:-.}}
readme=$s/README.md
[ -f "$s/setup.sh" ] && [ -f "$readme" ] || { echo "needs the source tree (not in a bundle): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the sources: the library, the plug-ins, the apps, the schedulers, the scripts, setup.sh, the tests
dirs=
for d in include lib schedulers codelets apps examples python scripts bench tests; do
	[ -d "$s/$d" ] && dirs="$dirs $s/$d"
done
# shellcheck disable=SC2086 # a list of folders
find $dirs -type f ! -path '*/bench/results/*' ! -path '*/tests/data/*' ! -path '*/tests/fuzz/corpus/*' \
	! -path '*/.deps/*' ! -path '*/.libs/*' ! -path '*/__pycache__/*' >"$tmp/files"
[ -f "$s/setup.sh" ] && echo "$s/setup.sh" >>"$tmp/files"
: >"$tmp/read"
while IFS= read -r f; do
	case $f in
	*.c | *.h | *.cu | *.cuh | *.cpp | *.py)
		grep -ohE "[\"']TUCCOMPI_[A-Z0-9_]+[\"']" "$f" | tr -d "\"'" >>"$tmp/read" ;;
	*.sh | */setup.sh)
		grep -ohE '\$\{?TUCCOMPI_[A-Z0-9_]+|(^|[^A-Za-z0-9_$])TUCCOMPI_[A-Z0-9_]+=' "$f" |
			grep -oE 'TUCCOMPI_[A-Z0-9_]+' >>"$tmp/read" ;;
	*)
		# scripts without an extension: python or shell, by their first line
		case $(head -n 1 "$f" 2>/dev/null) in
		'#!'*python*) grep -ohE "[\"']TUCCOMPI_[A-Z0-9_]+[\"']" "$f" | tr -d "\"'" >>"$tmp/read" ;;
		'#!'*sh*) grep -ohE '\$\{?TUCCOMPI_[A-Z0-9_]+|(^|[^A-Za-z0-9_$])TUCCOMPI_[A-Z0-9_]+=' "$f" |
			grep -oE 'TUCCOMPI_[A-Z0-9_]+' >>"$tmp/read" ;;
		esac ;;
	esac
done <"$tmp/files"
sort -u "$tmp/read" >"$tmp/read.u"
[ -s "$tmp/read.u" ] || { echo "FAIL: found no TUCCOMPI_* variable in $s (wrong folder?)"; exit 1; }

# the README's tables: rows (lines starting with |) of the section "### Environment"
awk '/^### Environment/ {on = 1; next} on && /^##/ {on = 0} on && /^\|/' "$readme" |
	grep -oE 'TUCCOMPI_[A-Z0-9_]+' | sort -u >"$tmp/documented"

status=0
missing=$(comm -23 "$tmp/read.u" "$tmp/documented")
for v in $missing; do
	where=$(grep -lE "$v([^A-Z0-9_]|\$)" $(cat "$tmp/files") 2>/dev/null | sed "s|^$s/||" | head -n 3 | tr '\n' ' ')
	echo "FAIL: $v is read (${where% }) but not in README.md's environment tables"
	status=1
done
stale=$(comm -13 "$tmp/read.u" "$tmp/documented")
for v in $stale; do
	echo "FAIL: README.md's environment tables list $v, which no source reads"
	status=1
done
[ $status = 0 ] && echo "PASS: $(wc -l <"$tmp/read.u") TUCCOMPI_* variables read, all in README.md"
exit $status
