#!/bin/sh
# tuccompi-apsp as a user meets it: the demo runs; a run's table and distance rows are the
# same on 1 and 2 ranks and under every policy; --verify agrees with the CPU code; bad
# input (missing files, the bad-graph corpus, bad options) gives one clear error, a
# non-zero exit and no output file left behind.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$app" >"$tmp/demo.out" 2>&1 || { cat "$tmp/demo.out"; fail "the demo (no arguments) failed"; }
grep -q "SSSP/s" "$tmp/demo.out" || fail "the demo printed no throughput"

g="--gen random:3000:1-6:1-20 --seed 5 --sources 0-199 -q"
"$app" $g --policy ms -o "$tmp/a.csv" --rows "$tmp/a.rows" --verify 20 || fail "1-rank run"
[ "$(wc -l <"$tmp/a.csv")" = 201 ] || fail "table should have 200 rows + header"
head -1 "$tmp/a.csv" | grep -q "^source,reached,eccentricity,sum,mean$" || fail "table header"
[ "$(stat -c %s "$tmp/a.rows")" = $((32 + 200 * 4 + 200 * 3000 * 4)) ] || fail "rows file size"
"$app" $g --policy eq1 -o "$tmp/b.tsv" || fail "eq1 run"
tr '\t' ',' <"$tmp/b.tsv" | cmp -s - "$tmp/a.csv" || fail "eq1 table differs from ms"
if [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; then
	for p in eq2 ms; do
		"$s/tests/mpirun.sh" 2 "$app" $g --ncpu 1 --policy $p -o "$tmp/m.csv" --rows "$tmp/m.rows" ||
			fail "2-rank run ($p)"
		cmp -s "$tmp/m.csv" "$tmp/a.csv" || fail "2-rank table ($p) differs from 1 rank"
		cmp -s "$tmp/m.rows" "$tmp/a.rows" || fail "2-rank rows ($p) differ from 1 rank"
	done
	echo "ok: 2 ranks (eq2, ms) give the same table and rows as 1 rank"
fi

expect_error() { # CODE SUBSTRING ARGS...
	code=$1 msg=$2
	shift 2
	"$app" "$@" -o "$tmp/never.csv" >"$tmp/err.out" 2>&1
	rc=$?
	[ "$rc" = "$code" ] || { cat "$tmp/err.out"; fail "'$*' exited $rc, expected $code"; }
	grep -qF -- "$msg" "$tmp/err.out" || { cat "$tmp/err.out"; fail "'$*': message lacks '$msg'"; }
	[ -e "$tmp/never.csv" ] && fail "'$*' left an output file"
	ls "$tmp" | grep -q tmp- && fail "'$*' left a temporary file"
	echo "ok: $* -> exit $rc: $(head -1 "$tmp/err.out")"
}
expect_error 1 "$tmp/nope.gr" "$tmp/nope.gr"
expect_error 2 "unknown option" --frobnicate
expect_error 2 "--sources" --gen random:100 --sources 50-200
expect_error 2 "--policy" --gen random:100 --policy fastest
expect_error 2 "--mk" --gen random:100 --mk 0
expect_error 2 "--gen" --gen random:abc
corpus="$s/tests/data/graphs/bad"
n=0
for f in "$corpus"/*.gr "$corpus"/*.mtx; do
	[ -f "$f" ] || continue
	exp="${f%.*}.expect"
	grep -q '^option' "$exp" 2>/dev/null && continue # read with other options than the app's
	want=$(grep -m1 '^error ' "$exp" 2>/dev/null | sed 's/^error //')
	[ -n "$want" ] || continue
	expect_error 1 "$want" "$f"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no bad-graph corpus found in $corpus"
echo "ok: $n corpus files refused with their expected messages"
