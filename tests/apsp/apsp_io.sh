#!/bin/sh
# tuccompi-apsp's inputs and outputs of issue 22, each on 1 rank and, under mpirun, on 2 and 4
# ranks (byte-identical outputs), on the CPU, and with the journal (a run killed by kill -9,
# then --resume, gives the same bytes as a run without a journal):
#  - a .gr.gz file and gzipped standard input give the bytes of the .gr (1, 2, 4 ranks); a
#    truncated one fails with a message and no output; a METIS file of the undirected graph gives
#    its bytes;
#  - --undirected, for a file and for --gen: the same table and rows as the graph written with
#    both directions by tuccompi-graph convert --undirected; a symmetric graph is unchanged;
#    refused against --max-memory before the new CSR is allocated;
#  - --rows FILE.npy: numpy's format 1.0 (the preamble, float64, inf), |S| x n in the order of
#    --sources, the same distances as the binary rows file; numpy.load reads it as it is (when
#    numpy is there); partial rows of another run (another graph, the same n and sources) are
#    refused by --resume, in both formats;
#  - real weights (Matrix Market real, decimal edge-list weights) that are not integers: refused
#    at file:line, naming --mtx-real-scale, no output; with --mtx-real-scale X rounded with a
#    warning that says how many, by how much and where the first is (through a cache too); exact
#    with a scale that keeps their decimals (4.25 -> 425, not 5);
#  - ids: a .gr file's vertex 1 is source 0 (its row in -o, its distance 0 in the rows); N,
#    first:N and 0-(N-1) are the same sources, and a run with N says what it took and how to
#    name vertex N alone; --sources 0 says why it is not vertex 0; --sources file:PATH keeps its
#    order on every rank count, is an input no output may overwrite, and errors at PATH:LINE;
#  - --targets SPEC --matrix FILE (.npy, .csv, .tsv) and --pred FILE.npy, on a graph with zero
#    weights and unreachable vertices: the matrix is the rows' columns of the targets, each tree is
#    a shortest-path tree (tight arcs, rooted, -9999 exactly at the source and unreachable
#    vertices), the table's harmonic column is 1/d summed; every engine writes the same bytes, and
#    so do 2 and 4 ranks; kill -9 then --resume gives the same matrix and trees, and a journal of
#    other targets is refused; bad arguments (a matrix without targets and the reverse, names of
#    no format, bad target lists, outputs onto inputs or each other, a matrix over the memory
#    limit) fail with one line and write nothing; the dial engine's CPU units without a GPU (128-512
#    sources per call) write the batched engine's matrix and table bytes on 1 and 2 ranks.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tg="$b/apps/apsp/tuccompi-graph"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
have_mpi() { [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; }
same() { # FILE REF WHAT
	cmp -s "$1" "$2" || fail "$3: $1 differs from $2"
}

# The rows files' name ends in .$ext: "rows" (binary) or "npy".
ext=rows

# on_ranks REF_PREFIX ARGS...: the run on 2 and 4 ranks writes the same -o and --rows as
# REF_PREFIX.csv and REF_PREFIX.$ext
on_ranks() {
	ref=$1
	shift
	have_mpi || return 0
	for n in 2 4; do
		"$s/tests/mpirun.sh" $n "$app" "$@" --ncpu 1 -q -o "$tmp/m.csv" --rows "$tmp/m.$ext" ||
			fail "$n ranks: $*"
		same "$tmp/m.csv" "$ref.csv" "$n ranks: $*"
		same "$tmp/m.$ext" "$ref.$ext" "$n ranks: $*"
	done
}

# tree PID: PID and every process below it (collected before any is killed)
tree() {
	for c in $(pgrep -P "$1" 2>/dev/null); do tree "$c"; done
	echo "$1"
}

# journaled ARGS...: a run with --journal killed by kill -9 part-way, then --resume, writes the
# same -o and --rows bytes as the run without a journal (1 rank; and 2 ranks under mpirun).
# ARGS must make a run of a second or more, so that the kill lands in the middle.
journaled() {
	"$app" "$@" --units cpu --ncpu 1 -q -o "$tmp/jref.csv" --rows "$tmp/jref.$ext" || fail "reference of $*"
	for launcher in "" "$s/tests/mpirun.sh 2"; do
		[ -n "$launcher" ] && ! have_mpi && continue
		rm -f "$tmp"/j.rank-* "$tmp/k.csv" "$tmp/k.$ext" "$tmp/k.$ext.partial"
		$launcher "$app" "$@" --units cpu --ncpu 1 -q --journal "$tmp/j" -o "$tmp/k.csv" --rows "$tmp/k.$ext" &
		pid=$!
		for _ in $(seq 1 400); do
			[ "$(cat "$tmp"/j.rank-* 2>/dev/null | wc -c)" -gt 2000 ] && break
			sleep 0.02
		done
		pids=$(tree $pid)
		# shellcheck disable=SC2086
		kill -9 $pids 2>/dev/null
		wait $pid 2>/dev/null
		if [ -e "$tmp/k.csv" ]; then
			echo "ok: the journaled run ended before kill -9 (${launcher:+$launcher }$*); not checked"
			continue
		fi
		[ -e "$tmp/k.$ext.partial" ] || fail "the killed run left no partial rows (${launcher:+$launcher }$*)"
		$launcher "$app" "$@" --units cpu --ncpu 1 -q --journal "$tmp/j" --resume -o "$tmp/k.csv" --rows "$tmp/k.$ext" \
			>"$tmp/k.log" 2>&1 || { cat "$tmp/k.log"; fail "--resume ${launcher:+($launcher) }$*"; }
		same "$tmp/k.csv" "$tmp/jref.csv" "--resume ${launcher:+($launcher) }$*"
		same "$tmp/k.$ext" "$tmp/jref.$ext" "--resume ${launcher:+($launcher) }$*"
		[ -e "$tmp/k.$ext.partial" ] && fail "the partial rows are still there (${launcher:+$launcher }$*)"
	done
}

# ---------------------------------------------------------------- gzip inputs
"$tg" gen random:4000:1-4:1-30 --seed 3 -o "$tmp/d.gr" || fail "gen"
if command -v gzip >/dev/null; then
	gzip -c "$tmp/d.gr" >"$tmp/dz.gr.gz"
	"$app" "$tmp/d.gr" --sources 0-299 -q -o "$tmp/z0.csv" --rows "$tmp/z0.$ext" || fail "run on the .gr"
	"$app" "$tmp/dz.gr.gz" --sources 0-299 -q -o "$tmp/z1.csv" --rows "$tmp/z1.$ext" || fail "run on the .gr.gz"
	same "$tmp/z1.csv" "$tmp/z0.csv" ".gr.gz"
	same "$tmp/z1.$ext" "$tmp/z0.$ext" ".gr.gz"
	"$app" - --format gr --sources 0-299 -q -o "$tmp/z2.csv" <"$tmp/dz.gr.gz" || fail "gzip on standard input"
	same "$tmp/z2.csv" "$tmp/z0.csv" "gzip on standard input"
	on_ranks "$tmp/z0" "$tmp/dz.gr.gz" --sources 0-299
	head -c 2000 "$tmp/dz.gr.gz" >"$tmp/dt.gr.gz"
	"$app" "$tmp/dt.gr.gz" --sources 0-9 -q -o "$tmp/zt.csv" 2>"$tmp/err" && fail "a truncated .gr.gz was read"
	grep -q "dt.gr.gz: the gzip data ends early" "$tmp/err" || fail "truncated .gr.gz: $(cat "$tmp/err")"
	[ -e "$tmp/zt.csv" ] && fail "a truncated .gr.gz left an output"
	echo "ok: .gr.gz and gzipped standard input read as the .gr (1, 2, 4 ranks); a truncated one refused"
fi

# ---------------------------------------------------------------- --undirected
"$tg" convert --undirected "$tmp/d.gr" "$tmp/u.gr" || fail "convert --undirected"
[ "$(grep -c '^a ' "$tmp/u.gr")" -gt "$(grep -c '^a ' "$tmp/d.gr")" ] || fail "convert --undirected added no arc"
src="--sources 0-299"
"$app" "$tmp/u.gr" $src -q -o "$tmp/u.csv" --rows "$tmp/u.rows" || fail "run on the undirected file"
"$app" "$tmp/d.gr" --undirected $src -q -o "$tmp/du.csv" --rows "$tmp/du.rows" 2>"$tmp/err" || fail "--undirected: $(cat "$tmp/err")"
same "$tmp/du.csv" "$tmp/u.csv" "--undirected"
same "$tmp/du.rows" "$tmp/u.rows" "--undirected"
# the undirected graph as a METIS file (a line of NEIGHBOUR WEIGHT pairs per vertex, FMT 1): the same
# table and rows; through standard input (--format metis) and gzipped too
awk '$1 == "p" { n = $3; m = $4 } $1 == "a" { adj[$2] = adj[$2] " " $3 " " $4 }
	END { print "% the test graph"; print n, m / 2, 1; for (v = 1; v <= n; v++) print substr(adj[v], 2) }' \
	"$tmp/u.gr" >"$tmp/u.graph"
"$app" "$tmp/u.graph" $src -q -o "$tmp/mt.csv" --rows "$tmp/mt.rows" 2>"$tmp/err" || fail "METIS: $(cat "$tmp/err")"
same "$tmp/mt.csv" "$tmp/u.csv" "METIS"
same "$tmp/mt.rows" "$tmp/u.rows" "METIS"
gzip -c "$tmp/u.graph" >"$tmp/u.metis.gz"
"$app" - --format metis $src -q -o "$tmp/mt2.csv" <"$tmp/u.metis.gz" || fail "METIS, gzipped on standard input"
same "$tmp/mt2.csv" "$tmp/u.csv" "METIS, gzipped on standard input"
echo "ok: a METIS file of the undirected graph gives its table and rows (file, gzipped standard input)"
"$app" "$tmp/d.gr" $src -q -o "$tmp/d.csv" || fail "directed run"
cmp -s "$tmp/d.csv" "$tmp/u.csv" && fail "--undirected changed nothing on a directed graph"
"$app" --gen random:4000:1-4:1-30 --seed 3 --undirected $src -q -o "$tmp/gu.csv" --rows "$tmp/gu.rows" || fail "--gen --undirected"
same "$tmp/gu.csv" "$tmp/u.csv" "--gen --undirected"
same "$tmp/gu.rows" "$tmp/u.rows" "--gen --undirected"
"$tg" convert "$tmp/d.gr" "$tmp/d.csv" || fail "convert to an edge list"
"$app" "$tmp/d.csv" --undirected $src -q -o "$tmp/eu.csv" || fail "--undirected on an edge list"
same "$tmp/eu.csv" "$tmp/u.csv" "--undirected on an edge list"
"$app" "$tmp/d.gr" --undirected $src -o "$tmp/x.csv" 2>"$tmp/err" || fail "--undirected, not quiet"
grep -q "^graph: 4000 vertices, [0-9]* arcs (undirected: both directions of each)" "$tmp/err" ||
	fail "the report does not say the graph is undirected: $(cat "$tmp/err")"
# a symmetric graph stays as it is
"$app" --gen grid:40x50 $src -q -o "$tmp/g1.csv" || fail "grid"
"$app" --gen grid:40x50 --undirected $src -q -o "$tmp/g2.csv" || fail "grid --undirected"
same "$tmp/g2.csv" "$tmp/g1.csv" "--undirected on a symmetric graph"
# memory: refused before the new CSR is allocated
"$app" "$tmp/d.gr" --undirected $src --max-memory 300K -q -o "$tmp/never.csv" >"$tmp/err" 2>&1 && fail "--undirected over --max-memory ran"
grep -q "^tuccompi-apsp: --undirected: the graph with both directions of every arc needs about [0-9]* bytes, more than the limit of 307200 (--max-memory); use a smaller graph$" \
	"$tmp/err" || fail "--undirected over --max-memory: $(cat "$tmp/err")"
[ -e "$tmp/never.csv" ] && fail "--undirected over --max-memory left an output"
on_ranks "$tmp/u" "$tmp/d.gr" --undirected $src
journaled --gen random:30000 --seed 4 --undirected --sources 0-999 --engine crauser
echo "ok: --undirected (file, edge list, --gen; symmetric graphs unchanged; memory checked)$(have_mpi && echo '; 2 and 4 ranks'); resumed after kill -9"

# ---------------------------------------------------------------- --rows FILE.npy
ext=npy
g="--gen random:3000:1-6:1-20 --seed 5 --sources 17,3,2999,0,1500"
"$app" $g -q -o "$tmp/n.csv" --rows "$tmp/n.rows" || fail "binary rows"
"$app" $g -q -o "$tmp/n2.csv" --rows "$tmp/n.npy" || fail ".npy rows"
same "$tmp/n2.csv" "$tmp/n.csv" ".npy run's table"
[ "$(stat -c %s "$tmp/n.npy")" = $((128 + 5 * 3000 * 8)) ] || fail ".npy size $(stat -c %s "$tmp/n.npy")"
# the format, and the distances of the binary file, with Python's standard library alone
python3 - "$tmp/n.npy" "$tmp/n.rows" <<'PY' || fail ".npy contents"
import struct, sys
npy = open(sys.argv[1], 'rb').read()
rows = open(sys.argv[2], 'rb').read()
assert npy[:8] == b'\x93NUMPY\x01\x00', npy[:8]
hlen = struct.unpack('<H', npy[8:10])[0]
assert (10 + hlen) % 64 == 0 and npy[10 + hlen - 1:10 + hlen] == b'\n'
order = '<' if sys.byteorder == 'little' else '>'
want = "{'descr': '%sf8', 'fortran_order': False, 'shape': (5, 3000), }" % order
assert npy[10:10 + hlen].decode('ascii').rstrip() == want, npy[10:10 + hlen]
n, k = struct.unpack('=I', rows[8:12])[0], struct.unpack('=Q', rows[16:24])[0]
assert (n, k) == (3000, 5)
assert struct.unpack('=5I', rows[32:52]) == (17, 3, 2999, 0, 1500)
d = struct.unpack('=%dI' % (k * n), rows[52:])
x = struct.unpack(order + '%dd' % (k * n), npy[10 + hlen:])
inf = float('inf')
assert all((b == inf) if a == 0xffffffff else (b == a) for a, b in zip(d, x))
assert any(b == inf for b in x) and x[3000 * 0 + 17] == 0
PY
if /usr/bin/python3 -c 'import numpy' 2>/dev/null || python3 -c 'import numpy' 2>/dev/null; then
	py=python3
	python3 -c 'import numpy' 2>/dev/null || py=/usr/bin/python3
	$py -c "import numpy, sys; a = numpy.load(sys.argv[1]); assert a.shape == (5, 3000) and a.dtype == numpy.float64; \
assert a[0, 17] == 0 and a[3, 0] == 0 and numpy.isinf(a).any()" "$tmp/n.npy" || fail "numpy.load of the .npy rows"
	echo "ok: numpy.load reads the .npy rows"
fi
"$app" $g -q -o "$tmp/n.csv" --rows "$tmp/n.NPY" || fail ".NPY rows"
same "$tmp/n.NPY" "$tmp/n.npy" "the suffix in capitals"
cp "$tmp/n.npy" "$tmp/ref.npy"
cp "$tmp/n.csv" "$tmp/ref.csv"
on_ranks "$tmp/ref" $g
journaled --gen random:30000 --seed 4 --sources 0-999 --engine crauser
# partial rows of another run (another graph: same n and sources), in either format: refused
for e in npy rows; do
	rm -f "$tmp"/j.rank-* "$tmp"/j2.rank-*
	"$app" --gen random:30000 --seed 4 --sources 0-999 --engine crauser --units cpu --ncpu 1 -q --journal "$tmp/j" \
		--rows "$tmp/o.$e" &
	pid=$!
	for _ in $(seq 1 400); do
		[ "$(cat "$tmp"/j.rank-* 2>/dev/null | wc -c)" -gt 2000 ] && break
		sleep 0.02
	done
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ -e "$tmp/o.$e.partial" ] || { echo "ok: the run ended before kill -9 ($e); not checked"; continue; }
	"$app" --gen random:30000 --seed 5 --sources 0-999 --engine crauser --units cpu --ncpu 1 -q --journal "$tmp/j2" \
		--rows "$tmp/o.$e" --resume >"$tmp/err" 2>&1 && fail "--resume took the partial rows (.$e) of another run"
	grep -q "o.$e.partial is missing or belongs to another run" "$tmp/err" || fail "another run's .$e: $(cat "$tmp/err")"
	[ -e "$tmp/o.$e" ] && fail "an output was written after refusing another run's rows"
done
echo "ok: --rows FILE.npy: numpy's format, the binary file's distances$(have_mpi && echo '; 2 and 4 ranks'); resumed after kill -9"

# ---------------------------------------------------------------- real weights
printf '%%%%MatrixMarket matrix coordinate real general\n%% eccentricity 4.25 from vertex 0\n4 4 3\n1 2 1.5\n2 3 2.75\n3 4 0\n' >"$tmp/r.mtx"
mkdir "$tmp/out"
"$app" "$tmp/r.mtx" -q -o "$tmp/out/r.csv" >"$tmp/err" 2>&1 && fail "fractional real weights were taken without --mtx-real-scale"
grep -q "^tuccompi-apsp: $tmp/r.mtx:4: weight 1.5 is not an integer; weights are integers: give --mtx-real-scale X to multiply the real weights by X (e.g. 100 keeps two decimals; the distances come multiplied by X), or --mtx-real-scale 1 to round them to the nearest integer$" \
	"$tmp/err" || fail "refused real weights: $(cat "$tmp/err")"
[ -z "$(ls "$tmp/out")" ] || fail "a refused graph left $(ls "$tmp/out")"
"$app" "$tmp/r.mtx" --sources 0-0 -q --mtx-real-scale 1 -o "$tmp/r1.csv" 2>"$tmp/err" || fail "--mtx-real-scale 1"
grep -q "^tuccompi-apsp: warning: $tmp/r.mtx: 2 real weights rounded to integers (by up to 0.5 after --mtx-real-scale 1; the first at line 4): the graph holds the rounded weights" \
	"$tmp/err" || fail "no warning for rounded weights: $(cat "$tmp/err")"
[ "$(sed -n 2p "$tmp/r1.csv")" = "0,4,5,12,4.0000,0.9" ] || fail "rounded weights: $(cat "$tmp/r1.csv")"
"$app" "$tmp/r.mtx" --sources 0-0 -q --mtx-real-scale 100 -o "$tmp/r100.csv" 2>"$tmp/err" || fail "--mtx-real-scale 100"
[ -s "$tmp/err" ] && fail "an exact scale warned: $(cat "$tmp/err")"
[ "$(sed -n 2p "$tmp/r100.csv")" = "0,4,425,1000,333.3333,$(python3 -c 'print("%.12g" % (1/150 + 2/425))')" ] || fail "scaled weights: $(cat "$tmp/r100.csv")"
# through a cache: the second run uses it, and still warns
"$app" "$tmp/r.mtx" --sources 0-0 -q --mtx-real-scale 1 --cache "$tmp/r.tgb" -o "$tmp/c1.csv" 2>/dev/null || fail "cached run"
"$app" "$tmp/r.mtx" --sources 0-0 -q --mtx-real-scale 1 --cache "$tmp/r.tgb" -o "$tmp/c2.csv" 2>"$tmp/err" || fail "second cached run"
same "$tmp/c2.csv" "$tmp/r1.csv" "the cached rounded graph"
grep -q "warning: $tmp/r.mtx: its cache holds real weights rounded to integers (--mtx-real-scale 1) when it was made" "$tmp/err" ||
	fail "no warning through the cache: $(cat "$tmp/err")"
"$app" "$tmp/r.mtx" --sources 0-0 -q --cache "$tmp/r.tgb" -o "$tmp/out/c3.csv" >"$tmp/err" 2>&1 &&
	fail "the cache of rounded weights served a run that refuses rounding"
grep -q "r.mtx:4: weight 1.5 is not an integer" "$tmp/err" || fail "cache of rounded weights: $(cat "$tmp/err")"
# an edge list's decimal weights alike
printf '0 1 1.5\n1 2 2.75\n2 3 0\n' >"$tmp/r.edges"
"$app" "$tmp/r.edges" -q -o "$tmp/out/e.csv" >"$tmp/err" 2>&1 && fail "fractional edge-list weights were taken"
grep -q "r.edges:1: weight 1.5 is not an integer; weights are integers: give --mtx-real-scale X" "$tmp/err" ||
	fail "refused edge-list weights: $(cat "$tmp/err")"
"$app" "$tmp/r.edges" --sources 0-0 -q --mtx-real-scale 100 -o "$tmp/e100.csv" || fail "edge list --mtx-real-scale 100"
same "$tmp/e100.csv" "$tmp/r100.csv" "the edge list of the same real weights"
echo "ok: real weights: refused without --mtx-real-scale, rounded with a warning (through a cache too), exact when scaled"

# ---------------------------------------------------------------- ids and --sources
printf 'p sp 3 2\na 1 2 5\na 2 3 7\n' >"$tmp/ids.gr"
"$app" "$tmp/ids.gr" --sources 0-0 -q -o "$tmp/ids.csv" --rows "$tmp/ids.npy" || fail "ids.gr"
[ "$(sed -n 2p "$tmp/ids.csv")" = "0,3,12,17,8.5000,$(python3 -c 'print("%.12g" % (1/5 + 1/12))')" ] || fail ".gr vertex 1 is not source 0: $(cat "$tmp/ids.csv")"
"$app" --gen random:500 --sources 7 -q -o "$tmp/s1.csv" || fail "--sources 7"
"$app" --gen random:500 --sources first:7 -q -o "$tmp/s2.csv" || fail "--sources first:7"
"$app" --gen random:500 --sources 0-6 -q -o "$tmp/s3.csv" || fail "--sources 0-6"
same "$tmp/s2.csv" "$tmp/s1.csv" "first:7"
same "$tmp/s3.csv" "$tmp/s1.csv" "0-6"
"$app" --gen random:500 --sources 7 -o "$tmp/s4.csv" 2>"$tmp/err" || fail "--sources 7, not quiet"
grep -q "^sources: the first 7 vertices, 0..6 (vertex 7 alone is --sources 7-7)$" "$tmp/err" ||
	fail "--sources N does not say what it took: $(cat "$tmp/err")"
"$app" --gen random:500 --sources 0 -q -o "$tmp/out/s.csv" >"$tmp/err" 2>&1 && fail "--sources 0 ran"
grep -q "^tuccompi-apsp: --sources '0': want 1 to 500 sources (N means the first N vertices, 0..N-1; one vertex V alone is V-V)$" \
	"$tmp/err" || fail "--sources 0: $(cat "$tmp/err")"
"$app" --help | grep -q "vertex 1 of a$" || fail "--help does not say how .gr ids are shifted"
# --sources file:PATH: the list's order, on 1 and several ranks; it is an input no output may name
printf '# sources\n40\n7, 3\n499\n' >"$tmp/src.txt"
"$app" --gen random:500 --sources 40,7,3,499 -q -o "$tmp/f1.csv" --rows "$tmp/f1.npy" || fail "--sources a list"
"$app" --gen random:500 --sources "file:$tmp/src.txt" -q -o "$tmp/f2.csv" --rows "$tmp/f2.npy" || fail "--sources file:"
same "$tmp/f2.csv" "$tmp/f1.csv" "--sources file:"
same "$tmp/f2.npy" "$tmp/f1.npy" "--sources file:"
cut -d, -f1 "$tmp/f2.csv" | tr '\n' ' ' | grep -q "^source 40 7 3 499 $" || fail "file: order: $(cat "$tmp/f2.csv")"
ext=npy
on_ranks "$tmp/f1" --gen random:500 --sources "file:$tmp/src.txt"
"$app" --gen random:500 --sources "file:$tmp/src.txt" -q -o "$tmp/src.txt" >"$tmp/err" 2>&1 && fail "-o onto the sources file ran"
grep -q "is the input $tmp/src.txt: writing it would destroy the input" "$tmp/err" || fail "-o onto the sources file: $(cat "$tmp/err")"
printf '1\n600\n' >"$tmp/bad.txt"
"$app" --gen random:500 --sources "file:$tmp/bad.txt" -q >"$tmp/err" 2>&1 && fail "a bad sources file ran"
grep -q "^tuccompi-apsp: --sources file:$tmp/bad.txt:2: '600' is not a vertex id 0..499$" "$tmp/err" ||
	fail "a bad sources file: $(cat "$tmp/err")"
echo "ok: ids from 0 (a .gr file's vertex 1 is 0); N = first:N = 0-(N-1), said when N is used; --sources file:PATH"

# ---------------------------------------------------------------- --targets, --matrix, --pred, harmonic
# check_outputs GRAPH.edges ROWS.npy MATRIX.npy MATRIX.csv PRED.npy TABLE.csv SOURCES TARGETS: with Python's
# standard library: the matrix (.npy and .csv) is the rows' targets' columns; each pred row is a
# shortest-path tree of the graph; the table's harmonic column is 1/d summed
check_outputs() {
	python3 - "$@" <<'PY' || fail "--matrix/--pred/harmonic contents ($*)"
import struct, sys
edges, rows, mnpy, mcsv, pred, table, S, T = sys.argv[1:9]
S = [int(x) for x in S.split(',')]
T = [int(x) for x in T.split(',')]
def npy(path, code):
    b = open(path, 'rb').read()
    assert b[:8] == b'\x93NUMPY\x01\x00', path
    hlen = struct.unpack('<H', b[8:10])[0]
    h = b[10:10 + hlen].decode('ascii')
    order = '<' if sys.byteorder == 'little' else '>'
    assert ("'descr': '%s%s'" % (order, code)) in h and "'fortran_order': False" in h, h
    shape = tuple(int(x) for x in h[h.index('(') + 1:h.index(')')].split(',') if x.strip())
    data = b[10 + hlen:]
    size = {'f8': 8, 'i4': 4}[code]
    assert len(data) == shape[0] * shape[1] * size, (path, len(data), shape)
    flat = struct.unpack(order + '%d%s' % (shape[0] * shape[1], {'f8': 'd', 'i4': 'i'}[code]), data)
    return shape, [flat[i * shape[1]:(i + 1) * shape[1]] for i in range(shape[0])]
(k, n), d = npy(rows, 'f8')
(mk, mt), m = npy(mnpy, 'f8')
assert (k, mk, mt) == (len(S), len(S), len(T)), (k, mk, mt)
inf = float('inf')
for i in range(k):
    assert list(m[i]) == [d[i][t] for t in T], ('matrix row', i)
lines = open(mcsv).read().splitlines()
assert lines[0] == 'source,' + ','.join(map(str, T)), lines[0]
assert len(lines) == k + 1
for i in range(k):
    f = lines[i + 1].split(',')
    assert int(f[0]) == S[i] and len(f) == len(T) + 1
    assert [inf if x == 'inf' else float(x) for x in f[1:]] == list(m[i]), ('csv row', i)
assert any(x == inf for r in m for x in r) and any(x != inf for r in m for x in r), 'the matrix needs both'
w = {}
for line in open(edges):
    if line[0] in '#%':
        continue
    u, v, c = (int(x) for x in line.replace(',', ' ').split()[:3])
    w[(u, v)] = min(c, w.get((u, v), c))
(pk, pn), p = npy(pred, 'i4')
assert (pk, pn) == (k, n)
zero_pred = 0
for i in range(k):
    s = S[i]
    for v in range(n):
        if v == s or d[i][v] == inf:
            assert p[i][v] == -9999, (i, v, p[i][v])
            continue
        u = p[i][v]
        assert 0 <= u < n and (u, v) in w and d[i][u] + w[(u, v)] == d[i][v], ('not tight', s, u, v)
        zero_pred += w[(u, v)] == 0
        x, steps = v, 0
        while x != s and steps <= n:
            x, steps = p[i][x], steps + 1
        assert x == s, ('not rooted', s, v)
assert zero_pred > 0, 'no zero-weight arc in the trees: the test graph should have some'
tab = open(table).read().splitlines()
assert tab[0].endswith(',harmonic')
for i in range(k):
    h = float(tab[i + 1].split(',')[-1])
    want = sum(1 / x for x in d[i] if x != inf and x > 0)
    assert abs(h - want) <= 1e-11 * want, (S[i], h, want)
PY
}

"$tg" gen random:3000:1-3:0-5 --seed 6 -o "$tmp/z.gr" || fail "gen" # unreachable vertices (4, 1234), zero weights
"$tg" convert "$tmp/z.gr" "$tmp/z.edges" || fail "convert"
S=17,3,2999,0,1500
T=9,2999,0,4,1234,3
z="$tmp/z.gr --sources $S --targets $T"
for e in crauser batched phast; do
	"$app" $z --engine $e --units cpu -q -o "$tmp/z-$e.csv" --rows "$tmp/z-$e.npy" --matrix "$tmp/zm-$e.npy" \
		--pred "$tmp/zp-$e.npy" 2>"$tmp/err" || fail "--matrix/--pred, $e: $(cat "$tmp/err")"
	"$app" $z --engine $e --units cpu -q --matrix "$tmp/zm-$e.csv" || fail "--matrix .csv, $e"
	check_outputs "$tmp/z.edges" "$tmp/z-$e.npy" "$tmp/zm-$e.npy" "$tmp/zm-$e.csv" "$tmp/zp-$e.npy" "$tmp/z-$e.csv" "$S" "$T"
	[ "$(stat -c %s "$tmp/zm-$e.npy")" = $((128 + 5 * 6 * 8)) ] || fail "--matrix .npy size, $e"
	[ "$(stat -c %s "$tmp/zp-$e.npy")" = $((128 + 5 * 3000 * 4)) ] || fail "--pred size, $e"
done
# every engine: the same matrix, trees and table, byte for byte (a tree depends on the row alone)
for e in batched phast; do
	for f in zm-%s.npy zm-%s.csv zp-%s.npy z-%s.csv; do
		same "$tmp/$(printf "$f" $e)" "$tmp/$(printf "$f" crauser)" "$e against crauser"
	done
done
"$app" $z --units cpu -q --matrix "$tmp/zm.tsv" || fail "--matrix .tsv"
tr '\t' , <"$tmp/zm.tsv" | cmp -s - "$tmp/zm-crauser.csv" || fail "--matrix .tsv is not the .csv with tabs"
# without --rows, -o or --verify: the same matrix and trees
"$app" $z --units cpu -q --matrix "$tmp/zm2.npy" --pred "$tmp/zp2.npy" || fail "--matrix and --pred alone"
same "$tmp/zm2.npy" "$tmp/zm-crauser.npy" "--matrix alone"
same "$tmp/zp2.npy" "$tmp/zp-crauser.npy" "--pred alone"
if [ -n "${py:-}" ]; then
	$py -c "import numpy, sys; p = numpy.load(sys.argv[1]); m = numpy.load(sys.argv[2]); \
assert p.dtype == numpy.int32 and p.shape == (5, 3000) and p[0, 17] == -9999; \
assert m.dtype == numpy.float64 and m.shape == (5, 6) and m[1, 5] == 0 and numpy.isinf(m[0, 3])" "$tmp/zp2.npy" "$tmp/zm2.npy" ||
		fail "numpy.load of --pred and --matrix"
fi
# 2 and 4 ranks: the same bytes
if have_mpi; then
	for nr in 2 4; do
		"$s/tests/mpirun.sh" $nr "$app" $z --ncpu 1 -q -o "$tmp/zr.csv" --matrix "$tmp/zr.npy" --pred "$tmp/zrp.npy" ||
			fail "$nr ranks: --matrix --pred"
		same "$tmp/zr.npy" "$tmp/zm-crauser.npy" "$nr ranks: --matrix"
		same "$tmp/zrp.npy" "$tmp/zp-crauser.npy" "$nr ranks: --pred"
		same "$tmp/zr.csv" "$tmp/z-crauser.csv" "$nr ranks: -o"
	done
fi

# the dial engine's CPU units without a GPU take 128-512 sources per call for a matrix too (the
# distances to the targets recorded as the levels go): the bytes of the batched engine's, on 1 and 2
# ranks (weights 1..5, sparse: unreachable targets)
"$tg" gen random:3000:0-3:1-5 --seed 9 -o "$tmp/y.gr" || fail "gen"
y="$tmp/y.gr --sources 0-599 --targets 2999,5,0,1234,77 --units cpu"
"$app" $y --engine batched -q -o "$tmp/yb.csv" --matrix "$tmp/yb.npy" || fail "--matrix, batched"
"$app" $y --engine dial -q -o "$tmp/yd.csv" --matrix "$tmp/yd.npy" || fail "--matrix, dial"
same "$tmp/yd.npy" "$tmp/yb.npy" "--matrix, dial against batched"
same "$tmp/yd.csv" "$tmp/yb.csv" "-o with --matrix, dial against batched"
if have_mpi; then
	"$s/tests/mpirun.sh" 2 "$app" $y --engine dial --ncpu 1 -q -o "$tmp/yr.csv" --matrix "$tmp/yr.npy" ||
		fail "2 ranks: --matrix, dial"
	same "$tmp/yr.npy" "$tmp/yb.npy" "2 ranks: --matrix, dial"
	same "$tmp/yr.csv" "$tmp/yb.csv" "2 ranks: -o with --matrix, dial"
fi

# the journal: killed by kill -9, then --resume, the same matrix and trees (1 rank; 2 under mpirun);
# a journal of other targets is refused
jz="--gen random:30000 --seed 4 --sources 0-999 --targets random:300 --engine crauser --units cpu --ncpu 1 -q"
"$app" $jz -o "$tmp/jz.csv" --matrix "$tmp/jz.npy" --pred "$tmp/jzp.npy" || fail "journal reference"
for launcher in "" "$s/tests/mpirun.sh 2"; do
	[ -n "$launcher" ] && ! have_mpi && continue
	rm -f "$tmp"/jj.rank-* "$tmp/kz.csv" "$tmp/kz.npy" "$tmp/kzp.npy" "$tmp/kzp.npy.partial"
	$launcher "$app" $jz --journal "$tmp/jj" -o "$tmp/kz.csv" --matrix "$tmp/kz.npy" --pred "$tmp/kzp.npy" &
	pid=$!
	for _ in $(seq 1 400); do
		[ "$(cat "$tmp"/jj.rank-* 2>/dev/null | wc -c)" -gt 40000 ] && break
		sleep 0.02
	done
	pids=$(tree $pid)
	# shellcheck disable=SC2086
	kill -9 $pids 2>/dev/null
	wait $pid 2>/dev/null
	if [ -e "$tmp/kz.csv" ]; then
		echo "ok: the journaled run ended before kill -9 (${launcher:+$launcher }--matrix --pred); not checked"
		continue
	fi
	[ -e "$tmp/kz.npy" ] && fail "a killed run left a matrix"
	[ -e "$tmp/kzp.npy.partial" ] || fail "the killed run left no partial trees"
	if [ -z "$launcher" ]; then
		"$app" ${jz%--targets*}--targets random:301 --engine crauser --units cpu --ncpu 1 -q --journal "$tmp/jj" --resume \
			--matrix "$tmp/kz.npy" --pred "$tmp/kzp.npy" >"$tmp/err" 2>&1 && fail "--resume took a journal of other targets"
		grep -q "belongs to another run" "$tmp/err" || fail "a journal of other targets: $(cat "$tmp/err")"
	fi
	$launcher "$app" $jz --journal "$tmp/jj" --resume -o "$tmp/kz.csv" --matrix "$tmp/kz.npy" --pred "$tmp/kzp.npy" \
		>"$tmp/k.log" 2>&1 || { cat "$tmp/k.log"; fail "--resume (--matrix --pred) ${launcher:+($launcher)}"; }
	same "$tmp/kz.npy" "$tmp/jz.npy" "--resume ${launcher:+($launcher) }--matrix"
	same "$tmp/kzp.npy" "$tmp/jzp.npy" "--resume ${launcher:+($launcher) }--pred"
	same "$tmp/kz.csv" "$tmp/jz.csv" "--resume ${launcher:+($launcher) }-o"
	[ -e "$tmp/kzp.npy.partial" ] && fail "the partial trees are still there"
done

# bad arguments: one line each, exit 2, nothing written
expect_bad() { # MESSAGE ARGS...
	want=$1
	shift
	"$app" --gen random:3000 -q "$@" >"$tmp/err" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "$* exited $rc: $(cat "$tmp/err")"
	grep -qF -- "$want" "$tmp/err" || fail "$*: $(cat "$tmp/err")"
	[ -z "$(ls "$tmp/out")" ] || fail "$* left $(ls "$tmp/out")"
}
expect_bad "--matrix FILE needs --targets SPEC (its columns)" --matrix "$tmp/out/m.npy"
expect_bad "--targets SPEC chooses the columns of --matrix FILE: give --matrix" --targets 0-9 -o "$tmp/out/t.csv"
expect_bad "--matrix $tmp/out/m.txt: the name says the format: FILE.npy" --targets 0-9 --matrix "$tmp/out/m.txt"
expect_bad "--pred $tmp/out/p.rows: the trees are numpy's .npy" --pred "$tmp/out/p.rows"
expect_bad "--targets '5000': want 1 to 3000 targets" --targets 5000 --matrix "$tmp/out/m.npy"
expect_bad "--targets '1,2,1': vertex 1 is listed twice; list each target once" --targets 1,2,1 --matrix "$tmp/out/m.npy"
printf '4\n3001\n' >"$tmp/tbad.txt"
expect_bad "--targets file:$tmp/tbad.txt:2: '3001' is not a vertex id 0..2999" --targets "file:$tmp/tbad.txt" --matrix "$tmp/out/m.npy"
printf '4\n5\n' >"$tmp/tgood.csv"
expect_bad "is the input $tmp/tgood.csv" --targets "file:$tmp/tgood.csv" --matrix "$tmp/tgood.csv"
expect_bad "--matrix and --pred both name $tmp/out/x.npy; give each output its own file" --targets 1 --matrix "$tmp/out/x.npy" --pred "$tmp/out/x.npy"
# a bad TUCCOMPI_PIN_RESULTS (the size of results the library registers with CUDA): said, nothing written
TUCCOMPI_PIN_RESULTS=64M "$app" --gen random:3000 -q --sources 0-9 --targets 0-9 --matrix "$tmp/out/m.npy" >"$tmp/err" 2>&1 &&
	fail "TUCCOMPI_PIN_RESULTS=64M was accepted"
grep -qF "TUCCOMPI_PIN_RESULTS='64M': write the smallest results in bytes" "$tmp/err" ||
	fail "TUCCOMPI_PIN_RESULTS=64M: $(cat "$tmp/err")"
[ -z "$(ls "$tmp/out")" ] || fail "a bad TUCCOMPI_PIN_RESULTS left $(ls "$tmp/out")"
# and a bad TUCCOMPI_PIN_SHARED (the size of shared data, the graph, it registers)
TUCCOMPI_PIN_SHARED=-1 "$app" --gen random:3000 -q --sources 0-9 -o "$tmp/out/t.csv" >"$tmp/err" 2>&1 &&
	fail "TUCCOMPI_PIN_SHARED=-1 was accepted"
grep -qF "TUCCOMPI_PIN_SHARED='-1': write the smallest shared data in bytes" "$tmp/err" ||
	fail "TUCCOMPI_PIN_SHARED=-1: $(cat "$tmp/err")"
[ -z "$(ls "$tmp/out")" ] || fail "a bad TUCCOMPI_PIN_SHARED left $(ls "$tmp/out")"
# the matrix's memory on rank 0, before the run
"$app" --gen random:3000 -q --sources all --targets all --matrix "$tmp/out/m.npy" --max-memory 20M >"$tmp/err" 2>&1 &&
	fail "a matrix over --max-memory ran"
grep -q "^tuccompi-apsp: --matrix: 3000 x 3000 distances need [0-9]* bytes on rank 0, more than the limit of 20971520 (--max-memory)" \
	"$tmp/err" || fail "a matrix over --max-memory: $(cat "$tmp/err")"
[ -z "$(ls "$tmp/out")" ] || fail "a matrix over --max-memory left $(ls "$tmp/out")"
echo "ok: --targets/--matrix (.npy, .csv, .tsv) and --pred: the rows' columns, shortest-path trees, harmonic = 1/d summed; every engine the same bytes$(have_mpi && echo '; 2 and 4 ranks'); resumed after kill -9; bad arguments"

exit 0
