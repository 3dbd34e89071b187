#!/bin/sh
# Tests of the tuccompi-graph command line: --help and --version, exit status 2 with one line on
# stderr for bad arguments, exit status 1 with the reader's message for bad inputs, gen SPEC ->
# convert -> info round trips (the same seed gives the same file; .gr and .tgb agree; the older
# 'gen random -n N' form gives the same file and names its SPEC), and the hostile cases of
# issue 15: outputs checked before any work (missing folder, a folder, the input itself), NUL and
# control bytes refused at file:line, headers whose counts need more memory than the limit
# refused at once (a 26-byte file announcing 2^31 vertices), input from a pipe (with --format),
# DIMACS coordinates (.co), edge lists (read and written by convert and gen, .gr -> .edges ->
# .gr -> .csv -> .tgb round trips keep the graph, n included; a pipe; a hostile id refused
# against the memory limit at its line), outputs gzipped by their name's .gz and METIS outputs
# (round trips, a directed graph refused), and temporary files removed when a run is killed by SIGTERM.
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
expect 0 "usage: tuccompi-graph gen SPEC" "$tg" gen --help
expect 0 "Graph500" "$tg" gen --help
expect 0 "^tuccompi-graph [0-9]*\.[0-9]*\.[0-9]* (built with libtuccompi-starpu" "$tg" --version

# Bad arguments: 2.
expect 2 "missing command" "$tg"
expect 2 "unknown command 'frobnicate'" "$tg" frobnicate
expect 2 "info takes one FILE" "$tg" info
expect 2 "info takes one FILE" "$tg" info a.gr b.gr
expect 2 "convert takes IN and OUT" "$tg" convert a.gr
expect 2 "unknown option '--bogus'" "$tg" info --bogus a.gr
expect 2 "real-scale needs a value" "$tg" info a.mtx --real-scale
expect 2 "cannot write 'x.mtx'" "$tg" convert a.gr x.mtx
expect 2 "gen needs a SPEC" "$tg" gen
expect 2 "gen 'fractal': unknown generator 'fractal'" "$tg" gen fractal -o "$tmp/x.gr"
expect 2 "gen 'random:abc': N 'abc': expected an integer 1\.\.4294967294" "$tg" gen random:abc -o "$tmp/x.gr"
expect 2 "gen 'random:0': N '0'" "$tg" gen random:0 -o "$tmp/x.gr"
expect 2 "D1-D2 '5-2': LO is above HI" "$tg" gen random:10:5-2 -o "$tmp/x.gr"
expect 2 "W1-W2 '1-2000000'" "$tg" gen random:10:1-2:1-2000000 -o "$tmp/x.gr"
expect 2 "65536 x 65536 vertices, at most" "$tg" gen grid:65536x65536 -o "$tmp/x.gr"
expect 2 "gen needs an output file" "$tg" gen random:10
expect 2 "--abc '0.5,0.5': expected three" "$tg" gen rmat:4 --abc 0.5,0.5 -o "$tmp/x.gr"
expect 2 "a+b+c = 1.1, must be below 1" "$tg" gen rmat:4 --abc 0.5,0.3,0.3 -o "$tmp/x.gr"
expect 2 "-n belongs to the older form" "$tg" gen random:10 -n 5 -o "$tmp/x.gr"
expect 2 "--max-memory '4X': unknown unit 'X'" "$tg" gen random:10 --max-memory 4X -o "$tmp/x.gr"
expect 2 "'-' (standard input) needs its format" "$tg" info -
# The older form's own mistakes still get their message.
expect 2 "^tuccompi-graph: -n 'abc': expected an integer" "$tg" gen random -n abc -o "$tmp/x.gr"
expect 2 "--scale is an option of 'gen rmat', not of 'gen random'" "$tg" gen random --scale 3 -o "$tmp/x.gr"
expect 2 "65536 x 65536 vertices" "$tg" gen grid --rows 65536 --cols 65536 -o "$tmp/x.gr"
[ ! -e "$tmp/x.gr" ] || fail "a failed gen left $tmp/x.gr"

# Memory: what a spec or a header needs is checked before anything is allocated.
expect 2 "gen random:4294967294:1-9:1-10 needs about [0-9]* bytes, more than the limit of 1073741824 (--max-memory)" \
	"$tg" gen random:4294967294 --max-memory 1G -o "$tmp/x.gr"
printf 'p sp 2147483647 1\na 1 2 1\n' >"$tmp/huge.gr"
[ "$(wc -c <"$tmp/huge.gr")" = 26 ] || fail "huge.gr is not 26 bytes"
expect 1 "huge.gr:1: the graph (2147483647 vertices, 1 arc) needs 25769803792 bytes to read, more than the limit of 1073741824 (--max-memory); check the counts of this line" \
	timeout 20 "$tg" info --max-memory 1G "$tmp/huge.gr"
printf '%%%%MatrixMarket matrix coordinate pattern general\n2147483647 2147483647 1\n1 2\n' >"$tmp/huge.mtx"
expect 1 "huge.mtx:2: the graph (2147483647 vertices, 1 arc) needs" timeout 20 "$tg" info --max-memory 1G "$tmp/huge.mtx"
# Without --max-memory the limit is the memory available: 2^32 - 2 vertices (51 GB) are
# refused wherever less is free.
avail=$(awk '/^MemAvailable:/ {print int($2 / 1048576)}' /proc/meminfo 2>/dev/null)
if [ -n "$avail" ] && [ "$avail" -lt 48 ]; then
	printf 'p sp 4294967294 1\na 1 2 1\n' >"$tmp/huger.gr"
	expect 1 "huger.gr:1: the graph (4294967294 vertices, 1 arc) needs .* (\(available memory\|cgroup memory limit\); --max-memory changes it)" \
		timeout 20 "$tg" info "$tmp/huger.gr"
fi

# Bad inputs and outputs: 1.
expect 1 "missing.gr: cannot open: No such file or directory" "$tg" info "$tmp/missing.gr"
expect 1 "bad_target.gr:5: arc target 4 out of range 1..3" "$tg" info "$corpus/bad/bad_target.gr"
expect 1 "mtx_nan.mtx:3: weight 'nan'" "$tg" convert "$corpus/bad/mtx_nan.mtx" "$tmp/x.tgb"
expect 1 "real_default.mtx:4: weight 2.4 is not an integer; weights are integers: give --real-scale X to multiply" \
	"$tg" convert "$corpus/good/real_default.mtx" "$tmp/x.tgb"
expect 0 "" "$tg" convert --real-scale 1 "$corpus/good/real_default.mtx" "$tmp/r.gr"
grep -q "^tuccompi-graph: warning: .*real_default.mtx: 2 real weights rounded to integers (by up to 0.4 after --real-scale 1; the first at line 4)" \
	"$tmp/err" || fail "convert --real-scale 1 did not warn: $(cat "$tmp/err")"
expect 0 "" "$tg" convert --real-scale 10 "$corpus/good/real_default.mtx" "$tmp/r.gr"
[ -s "$tmp/err" ] && fail "an exact --real-scale warned: $(cat "$tmp/err")"
rm -f "$tmp/r.gr"
expect 1 "nul_in_arc.gr:2: a NUL byte at column 8" "$tg" info "$corpus/bad/nul_in_arc.gr"
expect 1 "nul_line.gr:3: a NUL byte at column 1" "$tg" convert "$corpus/bad/nul_line.gr" "$tmp/x.tgb"
expect 1 "mtx_nul.mtx:3: a NUL byte at column 6" "$tg" info "$corpus/bad/mtx_nul.mtx"
expect 1 "ctrl_comment.gr:1: control byte 0x07 at column 25" "$tg" info "$corpus/bad/ctrl_comment.gr"
[ ! -e "$tmp/x.tgb" ] || fail "a failed convert left $tmp/x.tgb"

# Outputs are checked before the input is read: a bad input behind a bad output is not reached.
expect 1 "output $tmp/nodir/x.tgb: folder $tmp/nodir does not exist; create it first" \
	"$tg" convert "$corpus/bad/nul_in_arc.gr" "$tmp/nodir/x.tgb"
mkdir "$tmp/dir.tgb"
expect 1 "output $tmp/dir.tgb: is a folder" "$tg" convert "$corpus/good/basic.gr" "$tmp/dir.tgb"
cp "$corpus/good/basic.gr" "$tmp/self.gr"
expect 2 "output $tmp/self.gr is the input $tmp/self.gr: writing it would destroy the input" \
	"$tg" convert "$tmp/self.gr" "$tmp/self.gr"
ln -s self.gr "$tmp/alias.gr"
expect 2 "is the input" "$tg" convert "$tmp/self.gr" "$tmp/alias.gr"
cmp -s "$tmp/self.gr" "$corpus/good/basic.gr" || fail "converting a file onto itself changed it"
rm -f "$tmp/alias.gr"

# Round trips.
expect 0 "" "$tg" gen random:1000:2-4:0-99 --seed 7 -o "$tmp/a.gr"
expect 0 "" "$tg" gen random:1000:2-4:0-99 --seed 7 -o "$tmp/b.gr"
cmp -s "$tmp/a.gr" "$tmp/b.gr" || fail "the same seed gave two different graphs"
expect 0 "" "$tg" gen random:1000:2-4:0-99 --seed 8 -o "$tmp/c.gr"
cmp -s "$tmp/a.gr" "$tmp/c.gr" && fail "seeds 7 and 8 gave the same graph"
expect 0 "" "$tg" gen random -n 1000 --degree 2:4 --weights 0:99 --seed 7 -o "$tmp/old.gr"
cmp -s "$tmp/a.gr" "$tmp/old.gr" || fail "the older form gave another graph than its SPEC"
grep -q "note: 'gen random' with options is the older form; the same graph is 'gen random:1000:2-4:0-99'" "$tmp/err" ||
	fail "the older form did not name its SPEC: $(cat "$tmp/err")"
expect 0 "" "$tg" convert "$tmp/a.gr" "$tmp/a.tgb"
expect 0 "" "$tg" convert "$tmp/a.tgb" "$tmp/d.gr"
cmp -s "$tmp/a.gr" "$tmp/d.gr" || fail ".gr -> .tgb -> .gr changed the graph"
expect 0 "^vertices     1000$" "$tg" info "$tmp/a.tgb"
grep -q "^out-degree   min [0-4], avg [23]\.[0-9]*, max 4$" "$tmp/out" || fail "info: $(cat "$tmp/out")"
grep -q "^weights      0\.\.99$" "$tmp/out" || fail "info: $(cat "$tmp/out")"

# Standard input, read without seeking: '-' and /dev/stdin, with the format given.
expect 0 "" sh -c "cat '$tmp/a.gr' | '$tg' convert - '$tmp/p.tgb' --format gr"
cmp -s "$tmp/a.tgb" "$tmp/p.tgb" || fail "a graph read from a pipe differs from the file"
expect 0 "^arcs         " sh -c "cat '$tmp/a.gr' | '$tg' info --format gr /dev/stdin"
expect 1 "<stdin>:2: a NUL byte at column 8" sh -c "cat '$corpus/bad/nul_in_arc.gr' | '$tg' info --format gr -"
expect 1 "<stdin>:3: control byte 0x01 at column 3" \
	sh -c "printf '%%%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 \001\n' | '$tg' info --format mtx -"
expect 1 "<stdin>:1: the graph (3 vertices, 1000000000000 arcs) needs 20000000000044 bytes to read, more than the limit of 1073741824" \
	sh -c "printf 'p sp 3 1000000000000\na 1 2 1\n' | '$tg' info --format gr --max-memory 1G -"

expect 0 "" "$tg" gen rmat:8:4 -o "$tmp/r.tgb"
expect 0 "^vertices     256$" "$tg" info "$tmp/r.tgb"
expect 0 "" "$tg" gen rmat --scale 8 --edgefactor 4 -o "$tmp/r2.tgb"
cmp -s "$tmp/r.tgb" "$tmp/r2.tgb" || fail "rmat --scale 8 --edgefactor 4 is not rmat:8:4"
expect 0 "" "$tg" gen grid:3x4:5-5 -o "$tmp/g.gr"
expect 0 "^arcs         34$" "$tg" info "$tmp/g.gr"
grep -q "^weights      5\.\.5$" "$tmp/out" || fail "info: $(cat "$tmp/out")"
expect 0 "^weights      7\.\.7$" "$tg" info --pattern-weight 7 "$corpus/good/pattern_weight.mtx"
expect 0 "^isolated     1 " "$tg" info "$corpus/good/unreachable.gr"

# Edge lists: convert writes them (commas for .csv, tabs for .tsv) and reads them back into the same
# graph, n included (its last vertex has no arc: a last self-loop line keeps it).
expect 0 "" "$tg" gen random:1000:0-4:0-99 --seed 9 -o "$tmp/e.gr"
for ext in edges el txt csv tsv; do
	expect 0 "" "$tg" convert "$tmp/e.gr" "$tmp/e.$ext"
	expect 0 "" "$tg" convert "$tmp/e.$ext" "$tmp/e2.gr"
	cmp -s "$tmp/e.gr" "$tmp/e2.gr" || fail ".gr -> .$ext -> .gr changed the graph"
done
grep -q "^0,[0-9]*,[0-9]*$" "$tmp/e.csv" || fail ".csv is not comma-separated: $(head -3 "$tmp/e.csv")"
grep -q "$(printf '^0\t[0-9]*\t[0-9]*$')" "$tmp/e.tsv" || fail ".tsv is not tab-separated: $(head -3 "$tmp/e.tsv")"
head -1 "$tmp/e.edges" | grep -q "^# written by tuccompi-graph: 1000 vertices, [0-9]* arcs; SOURCE TARGET WEIGHT, ids from 0$" ||
	fail "edge list header: $(head -1 "$tmp/e.edges")"
expect 0 "" "$tg" gen grid:3x4 -o "$tmp/g.edges"
expect 0 "^vertices     12$" "$tg" info "$tmp/g.edges"
printf 'p sp 3 1\na 1 2 1\n' >"$tmp/last.gr"
expect 0 "" "$tg" convert "$tmp/last.gr" "$tmp/last.el"
tail -1 "$tmp/last.el" | grep -q "^2 2 0$" || fail "no self-loop keeps the last vertex: $(cat "$tmp/last.el")"
expect 0 "^vertices     3$" "$tg" info "$tmp/last.el"
expect 0 "^arcs         1$" "$tg" info "$tmp/last.el"
expect 0 "^vertices     4$" sh -c "printf '0 1\n3,2,5\n' | '$tg' info --format edgelist -"
expect 0 "^weights      1\.\.5$" sh -c "printf '0 1\n3,2,5\n' | '$tg' info --format edgelist -"
expect 1 "x.edges:2: source '1.5' is not a vertex id" sh -c "printf '0 1\n1.5 2\n' >'$tmp/x.edges'; '$tg' info '$tmp/x.edges'"
expect 1 "x.csv:1: source 'from' is not a vertex id (an integer from 0); a header line? make it a comment: '# ...'" \
	sh -c "printf 'from,to,weight\n0,1,2\n' >'$tmp/x.csv'; '$tg' info '$tmp/x.csv'"
printf '0 4000000000\n' >"$tmp/hostile.edges"
expect 1 "hostile.edges:1: vertex id 4000000000 makes the graph 4000000001 vertices (ids are used as given: n = largest id + 1), which with 1 arc need [0-9]* bytes, more than the limit of 1073741824 (--max-memory); renumber" \
	timeout 20 "$tg" info --max-memory 1G "$tmp/hostile.edges"
expect 2 "--format 'el': use gr (DIMACS), mtx (Matrix Market), tgb (binary), edgelist or metis" "$tg" info --format el "$tmp/g.edges"
expect 2 "cannot write '.*x.dat': output files are .gr (DIMACS), .tgb (binary), .edges/.el/.txt/.csv/.tsv (edge list) or .graph/.metis (METIS)" \
	"$tg" convert "$tmp/g.edges" "$tmp/x.dat"
rm -f "$tmp"/e.* "$tmp"/e2.gr "$tmp"/x.edges "$tmp"/x.csv

# Written gzipped (the name's .gz) and as METIS: each round trip gives back the same .gr, byte for
# byte; METIS takes undirected graphs only (--undirected makes one) and leaves weights 1 out.
expect 0 "" "$tg" gen grid:12x9 --seed 4 -o "$tmp/u.gr"
for out in u.gr.gz u.csv.gz u.tsv.gz u.graph u.metis.gz; do
	expect 0 "" "$tg" convert "$tmp/u.gr" "$tmp/$out"
	expect 0 "" "$tg" convert "$tmp/$out" "$tmp/back.gr"
	cmp -s "$tmp/u.gr" "$tmp/back.gr" || fail "u.gr -> $out -> .gr changed the graph"
done
if command -v gzip >/dev/null; then
	gzip -t "$tmp/u.gr.gz" || fail "u.gr.gz is not a valid gzip file"
	gzip -dc "$tmp/u.csv.gz" | grep -q "^0,1,[0-9]*$" || fail "u.csv.gz does not hold comma-separated text"
	gzip -dc "$tmp/u.gr.gz" | cmp -s - "$tmp/u.gr" || fail "u.gr.gz does not inflate to u.gr"
fi
grep -q "^108 [0-9]* 1$" "$tmp/u.graph" || fail "METIS header: $(sed -n 2p "$tmp/u.graph")"
expect 0 "" "$tg" gen grid:3x3:1-1 -o "$tmp/w1.gr"
expect 0 "" "$tg" convert "$tmp/w1.gr" "$tmp/w1.graph"
sed -n 2,3p "$tmp/w1.graph" | tr '\n' '|' | grep -q "^9 12|2 4|$" || fail "unweighted METIS: $(cat "$tmp/w1.graph")"
expect 0 "" "$tg" gen random:500 --seed 2 -o "$tmp/d.gr"
expect 1 "d.graph: METIS files hold undirected graphs, but the arc [0-9]* -> [0-9]* (weight [0-9]*) has no arc back (ids from 1); convert with --undirected" \
	"$tg" convert "$tmp/d.gr" "$tmp/d.graph"
[ -e "$tmp/d.graph" ] && fail "a refused METIS output was left behind"
expect 0 "" "$tg" convert --undirected "$tmp/d.gr" "$tmp/d.graph"
expect 0 "" "$tg" convert --undirected "$tmp/d.gr" "$tmp/du.gr"
expect 0 "" "$tg" convert "$tmp/d.graph" "$tmp/back.gr"
cmp -s "$tmp/du.gr" "$tmp/back.gr" || fail "an undirected graph through METIS changed"
expect 2 "cannot write '.*u.tgb.gz': binary graphs (.tgb) are written and read as they are, not gzipped" \
	"$tg" convert "$tmp/u.gr" "$tmp/u.tgb.gz"
expect 2 "cannot write '.*u.dat.gz'" "$tg" convert "$tmp/u.gr" "$tmp/u.dat.gz"
rm -f "$tmp"/u.* "$tmp"/w1.* "$tmp"/d.* "$tmp"/du.gr "$tmp"/back.gr

# DIMACS coordinates.
expect 0 "^coordinates  5 vertices$" "$tg" info "$corpus/good/basic_coords.co"
grep -q "^x            -73530767\.\.2147483647$" "$tmp/out" || fail "info .co: $(cat "$tmp/out")"
grep -q "^y            -2147483648\.\.41086098$" "$tmp/out" || fail "info .co: $(cat "$tmp/out")"
expect 0 "^coordinates  5 vertices$" "$tg" info "$corpus/good/basic.gr" --coords "$corpus/good/basic_coords.co"
grep -q "^vertices     5$" "$tmp/out" || fail "info --coords: $(cat "$tmp/out")"
expect 1 "basic_coords.co has 5 vertices but .*a.gr has 1000; they are not of the same graph" \
	"$tg" info "$tmp/a.gr" --coords "$corpus/good/basic_coords.co"
expect 1 "co_dup.co:4: vertex 1 has a second v line" "$tg" info "$corpus/bad/co_dup.co"
expect 1 "co_missing.co:4: file ends after 2 of the 3 vertices" "$tg" info "$corpus/bad/co_missing.co"

# A killed run leaves no temporary file: SIGTERM while a large graph is being written.
"$tg" gen random:3000000 -o "$tmp/big.gr" 2>"$tmp/err" &
pid=$!
i=0
while [ $i -lt 300 ] && ! ls "$tmp" | grep -q '^big\.gr\.tmp\.'; do
	sleep 0.05
	i=$((i + 1))
done
if ls "$tmp" | grep -q '^big\.gr\.tmp\.'; then
	kill -TERM $pid
	wait $pid
	rc=$?
	[ $rc = 143 ] || fail "gen killed by SIGTERM exited $rc, expected 143"
	ls "$tmp" | grep -q '^big\.gr' && fail "SIGTERM left $(ls "$tmp" | grep '^big\.gr')"
	echo "graph_cli.sh: SIGTERM during gen: no temporary file left"
else
	wait $pid
	echo "graph_cli.sh: gen finished before SIGTERM could be sent; not checked"
fi
rm -f "$tmp/big.gr"

ls "$tmp" | grep -q '\.tmp\.' && fail "temporary files left: $(ls "$tmp")"
echo "graph_cli.sh: ok"
exit 0
