#!/bin/sh
# The tree holds reference, not records (issue 52): bench/results/ keeps only the raw outputs behind
# the docs' tables, at most MAX_FILES files and MAX_BYTES bytes, each folder with a README (the command
# that made it) and named by a document; README.md stays within MAX_README lines and docs/*.md within
# MAX_DOCS lines in all; in them and in bench/README.md a date appears only on a table's "Measured on"
# (or "SIMULATED on") line. TREE_SRCDIR: the tree to look at (default top_srcdir).
set -u
s=${TREE_SRCDIR:-${top_srcdir:-.}}
[ -f "$s/setup.sh" ] && [ -f "$s/README.md" ] || { echo "needs the source tree (not in a bundle): skipped"; exit 77; }
r=$s/bench/results
[ -d "$r" ] || { echo "FAIL: no bench/results/ in $s"; exit 1; }
status=0
fail() { echo "FAIL: $*"; status=1; }

files=$(find "$r" -type f | wc -l)
bytes=$(find "$r" -type f -exec cat {} + | wc -c)
[ "$files" -le "${MAX_FILES:-60}" ] || fail "bench/results/ holds $files files (at most ${MAX_FILES:-60}): a run's record goes in its issue's note"
[ "$bytes" -le "${MAX_BYTES:-1048576}" ] || fail "bench/results/ holds $bytes bytes (at most ${MAX_BYTES:-1048576})"
docs="$s/README.md $s/bench/README.md $(ls "$s"/docs/*.md)"
for d in "$r"/*/; do
	name=$(basename "$d")
	[ -f "$d/README.md" ] || fail "bench/results/$name/ has no README.md (the command that made it)"
	# shellcheck disable=SC2086 # a list of files
	grep -q "bench/results/$name" $docs || fail "bench/results/$name/ is named by no document (README.md, bench/README.md, docs/)"
done

readme=$(wc -l <"$s/README.md")
[ "$readme" -le "${MAX_README:-250}" ] || fail "README.md has $readme lines (at most ${MAX_README:-250})"
# shellcheck disable=SC2046 # a list of files
doclines=$(cat $(ls "$s"/docs/*.md) | wc -l)
[ "$doclines" -le "${MAX_DOCS:-1500}" ] || fail "docs/*.md have $doclines lines in all (at most ${MAX_DOCS:-1500})"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# shellcheck disable=SC2086 # a list of files
grep -nE '20[0-9][0-9]-[01][0-9]-[0-3][0-9]' $docs | grep -vE '^[^:]+:[0-9]+:(Measured|SIMULATED) on ' >"$tmp"
while IFS= read -r line; do
	fail "a date outside a table's \"Measured on\" line: ${line#"$s"/}"
done <"$tmp"

[ $status = 0 ] && echo "PASS: bench/results/ $files files, $bytes bytes; README.md $readme lines; docs/*.md $doclines lines; dates only on measured-on lines"
exit $status
