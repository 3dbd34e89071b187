#!/bin/sh
# The README shows examples/hello.c verbatim: the C block after the marker comment equals the file,
# and the README's build line names that file (so that what users copy is what make check builds).
s=${top_srcdir:-.}
[ -f "$s/setup.sh" ] && [ -f "$s/README.md" ] || { echo "needs the source tree (not in a bundle): skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^<!-- tests\/install\/readme_sample.sh / { m = 1; next }
	m == 1 && /^```c$/ { m = 2; next }
	m == 2 && /^```$/ { exit }
	m == 2 { print }' "$s/README.md" >"$tmp/block.c"
[ -s "$tmp/block.c" ] || { echo "FAIL: no C block after the readme_sample.sh marker in README.md"; exit 1; }
if ! cmp -s "$tmp/block.c" "$s/examples/hello.c"; then
	echo "FAIL: README.md's C sample differs from examples/hello.c (copy the file into the README):"
	diff "$s/examples/hello.c" "$tmp/block.c" | head -n 20
	exit 1
fi
grep -q '^cc examples/hello.c \$(pkg-config --cflags --libs tuccompi-starpu) -o hello$' "$s/README.md" ||
	{ echo "FAIL: README.md's build line does not build examples/hello.c with pkg-config"; exit 1; }
echo "ok: README.md shows examples/hello.c ($(wc -l <"$s/examples/hello.c") lines) verbatim"
