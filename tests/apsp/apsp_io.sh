#!/bin/sh
# tuccompi-apsp's inputs and outputs of issue 22, each on 1 rank and, under mpirun, on 2 and 4
# ranks (byte-identical outputs), on the CPU, and with the journal (a run killed by kill -9,
# then --resume, gives the same bytes as a run without a journal):
#  - --undirected, for a file and for --gen: the same table and rows as the graph written with
#    both directions by tuccompi-graph convert --undirected; a symmetric graph is unchanged;
#    refused against --max-memory before the new CSR is allocated;
#  - --rows FILE.npy: numpy's format 1.0 (the preamble, float64, inf), |S| x n in the order of
#    --sources, the same distances as the binary rows file; numpy.load reads it as it is (when
#    numpy is there); partial rows of another run (another graph, the same n and sources) are
#    refused by --resume, in both formats.
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

# ---------------------------------------------------------------- --undirected
"$tg" gen random:4000:1-4:1-30 --seed 3 -o "$tmp/d.gr" || fail "gen"
"$tg" convert --undirected "$tmp/d.gr" "$tmp/u.gr" || fail "convert --undirected"
[ "$(grep -c '^a ' "$tmp/u.gr")" -gt "$(grep -c '^a ' "$tmp/d.gr")" ] || fail "convert --undirected added no arc"
src="--sources 0-299"
"$app" "$tmp/u.gr" $src -q -o "$tmp/u.csv" --rows "$tmp/u.rows" || fail "run on the undirected file"
"$app" "$tmp/d.gr" --undirected $src -q -o "$tmp/du.csv" --rows "$tmp/du.rows" 2>"$tmp/err" || fail "--undirected: $(cat "$tmp/err")"
same "$tmp/du.csv" "$tmp/u.csv" "--undirected"
same "$tmp/du.rows" "$tmp/u.rows" "--undirected"
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

exit 0
