#!/bin/sh
# Tests of the tuccompi-graph command line: --help, exit status 2 with one line on stderr for
# bad arguments, exit status 1 with the reader's message for bad inputs, and
# gen -> convert -> info round trips (the same seed gives the same file; .gr and .tgb agree).
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
tg=$top_builddir/apps/apsp/tuccompi-graph
corpus=$top_srcdir/tests/data/graphs
tmp=$(mktemp -d "${TMPDIR:-/tmp}/graph_cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

fail() {
	echo "graph_cli.sh: FAIL: $*" >&2
	exit 1
}

[ -x "$tg" ] || fail "$tg is not built"

# expect STATUS PATTERN COMMAND...: COMMAND exits with STATUS; when STATUS is not 0, stderr
# is one line matching PATTERN, else stdout matches it (an empty PATTERN matches anything).
expect() {
	want=$1 pattern=$2
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	[ "$got" = "$want" ] || fail "'$*' exited $got, expected $want; stderr: $(cat "$tmp/err")"
	if [ "$want" = 0 ]; then
		[ -z "$pattern" ] || grep -q -e "$pattern" "$tmp/out" || fail "'$*': output does not match '$pattern': $(cat "$tmp/out")"
	else
		[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "'$*': stderr is not one line: $(cat "$tmp/err")"
		grep -q -e "$pattern" "$tmp/err" || fail "'$*': stderr '$(cat "$tmp/err")' does not match '$pattern'"
	fi
}

expect 0 "usage: tuccompi-graph COMMAND" "$tg" --help
expect 0 "usage: tuccompi-graph gen random|rmat|grid" "$tg" gen --help
expect 0 "Graph500" "$tg" gen rmat --help

# Bad arguments: 2.
expect 2 "missing command" "$tg"
expect 2 "unknown command 'frobnicate'" "$tg" frobnicate
expect 2 "info takes one FILE" "$tg" info
expect 2 "info takes one FILE" "$tg" info a.gr b.gr
expect 2 "convert takes IN and OUT" "$tg" convert a.gr
expect 2 "unknown option '--bogus'" "$tg" info --bogus a.gr
expect 2 "real-scale needs a value" "$tg" info a.mtx --real-scale
expect 2 "cannot write 'x.mtx'" "$tg" convert a.gr x.mtx
expect 2 "gen needs a generator" "$tg" gen
expect 2 "unknown generator 'fractal'" "$tg" gen fractal -o "$tmp/x.gr"
expect 2 "gen needs an output file" "$tg" gen random -n 10
expect 2 "^tuccompi-graph: -n 'abc': expected an integer" "$tg" gen random -n abc -o "$tmp/x.gr"
expect 2 "-n '0': expected an integer 1\.\." "$tg" gen random -n 0 -o "$tmp/x.gr"
expect 2 "--degree '5:2': MIN is above MAX" "$tg" gen random --degree 5:2 -o "$tmp/x.gr"
expect 2 "--weights '1:2000000'" "$tg" gen random --weights 1:2000000 -o "$tmp/x.gr"
expect 2 "--scale is an option of 'gen rmat', not of 'gen random'" "$tg" gen random --scale 3 -o "$tmp/x.gr"
expect 2 "--abc '0.5,0.5': expected three" "$tg" gen rmat --abc 0.5,0.5 -o "$tmp/x.gr"
expect 2 "a+b+c = 1.1, must be below 1" "$tg" gen rmat --abc 0.5,0.3,0.3 -o "$tmp/x.gr"
expect 2 "grid graph: 65536 x 65536" "$tg" gen grid --rows 65536 --cols 65536 -o "$tmp/x.gr"
[ ! -e "$tmp/x.gr" ] || fail "a failed gen left $tmp/x.gr"

# Bad inputs and outputs: 1.
expect 1 "missing.gr: cannot open: No such file or directory" "$tg" info "$tmp/missing.gr"
expect 1 "bad_target.gr:5: arc target 4 out of range 1..3" "$tg" info "$corpus/bad/bad_target.gr"
expect 1 "mtx_nan.mtx:3: weight 'nan'" "$tg" convert "$corpus/bad/mtx_nan.mtx" "$tmp/x.tgb"
expect 1 "nodir/x.tgb: cannot create the temporary file .*nodir/x.tgb.tmp.[0-9]*: No such file or directory" "$tg" convert "$corpus/good/basic.gr" "$tmp/nodir/x.tgb"
[ ! -e "$tmp/x.tgb" ] || fail "a failed convert left $tmp/x.tgb"

# Round trips.
expect 0 "" "$tg" gen random -n 1000 --degree 2:4 --weights 0:99 --seed 7 -o "$tmp/a.gr"
expect 0 "" "$tg" gen random -n 1000 --degree 2:4 --weights 0:99 --seed 7 -o "$tmp/b.gr"
cmp -s "$tmp/a.gr" "$tmp/b.gr" || fail "the same seed gave two different graphs"
expect 0 "" "$tg" gen random -n 1000 --degree 2:4 --weights 0:99 --seed 8 -o "$tmp/c.gr"
cmp -s "$tmp/a.gr" "$tmp/c.gr" && fail "seeds 7 and 8 gave the same graph"
expect 0 "" "$tg" convert "$tmp/a.gr" "$tmp/a.tgb"
expect 0 "" "$tg" convert "$tmp/a.tgb" "$tmp/d.gr"
cmp -s "$tmp/a.gr" "$tmp/d.gr" || fail ".gr -> .tgb -> .gr changed the graph"
expect 0 "^vertices     1000$" "$tg" info "$tmp/a.tgb"
grep -q "^out-degree   min [0-4], avg [23]\.[0-9]*, max 4$" "$tmp/out" || fail "info: $(cat "$tmp/out")"
grep -q "^weights      0\.\.99$" "$tmp/out" || fail "info: $(cat "$tmp/out")"

expect 0 "" "$tg" gen rmat --scale 8 --edgefactor 4 -o "$tmp/r.tgb"
expect 0 "^vertices     256$" "$tg" info "$tmp/r.tgb"
expect 0 "" "$tg" gen grid --rows 3 --cols 4 --weights 5:5 -o "$tmp/g.gr"
expect 0 "^arcs         34$" "$tg" info "$tmp/g.gr"
grep -q "^weights      5\.\.5$" "$tmp/out" || fail "info: $(cat "$tmp/out")"
expect 0 "^weights      7\.\.7$" "$tg" info --pattern-weight 7 "$corpus/good/pattern_weight.mtx"
expect 0 "^isolated     1 " "$tg" info "$corpus/good/unreachable.gr"

ls "$tmp" | grep -q '\.tmp\.' && fail "temporary files left: $(ls "$tmp")"
echo "graph_cli.sh: ok"
exit 0
