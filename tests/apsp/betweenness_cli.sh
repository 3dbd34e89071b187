#!/bin/sh
# tuccompi-apsp --betweenness FILE as a user meets it:
#  - with --sources all it equals networkx's betweenness_centrality(G, normalized=False,
#    weight="weight") to 1e-9 relative on directed graphs (a grid with unit weights, a sparse random
#    graph with unreachable parts, an R-MAT graph with hubs), and on a symmetric graph half of it is
#    networkx's undirected value; with --sources random:K, betweenness_centrality_subset over the
#    sources the -o table names; .npy loads as float64 of n values and says the same as the .csv;
#  - arcs of weight 0: the exact values of a plain Brandes in this script (Kahn's order of the tight
#    arcs), where networkx settles a vertex before the tail of an arc of weight 0 into it and gives
#    less (its value is printed, not required);
#  - the file is the same, byte for byte, on 1 and 2 ranks, under EQ1, MS and MS-TAIL, on CPU cores
#    alone, and from the dial-brandes engine (auto here) and the brandes engine (--engine batched);
#  - bad uses give one clear error, a non-zero exit and no file: another extension, --journal,
#    --rows, a cycle of arcs of weight 0.
# Needs /usr/bin/python3 (77 without); networkx (Debian's python3-networkx) for its comparisons,
# which are skipped with a note when it is missing.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tg="$b/apps/apsp/tuccompi-graph"
py=/usr/bin/python3
[ -x "$py" ] || { echo "no /usr/bin/python3: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
have_mpi() { [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; }
nx=1
"$py" -c "import networkx, numpy" 2>/dev/null || { nx=0; echo "note: no networkx/numpy in $py: its comparisons are skipped"; }

cat >"$tmp/bc.py" <<'EOF'
# bc.py CHECK GRAPH.gr OUT(.npy|.csv) [TABLE.csv]: compare a --betweenness output with a reference.
#   nx        networkx, directed, every source (or the -o table's sources with TABLE)
#   nxhalf    networkx on the undirected graph (the .gr file is symmetric): OUT / 2
#   nxundir   networkx on the graph made undirected (the lighter of opposite arcs): OUT, a run with --undirected
#   plain     the plain Brandes below (exact with arcs of weight 0), every source
#   same      OUT (.npy) against OUT2 (.csv), given as TABLE
import sys, heapq

def read_gr(path):
    n, arcs = 0, []
    for line in open(path):
        f = line.split()
        if f and f[0] == 'p':
            n = int(f[2])
        elif f and f[0] == 'a':
            arcs.append((int(f[1]) - 1, int(f[2]) - 1, int(f[3])))
    return n, arcs

def read_out(path, n):
    if path.endswith('.npy'):
        import numpy
        a = numpy.load(path)
        assert a.dtype == numpy.float64 and a.shape == (n,), (a.dtype, a.shape)
        return [float(x) for x in a]
    lines = open(path).read().split('\n')
    assert lines[0] == 'vertex,betweenness', lines[0]
    rows = [l.split(',') for l in lines[1:] if l]
    assert [int(r[0]) for r in rows] == list(range(n)), 'vertices 0..n-1 in order'
    return [float(r[1]) for r in rows]

def plain(n, arcs, sources):
    out = [[] for _ in range(n)]
    for u, v, w in arcs:
        out[u].append((v, w))
    bc = [0.0] * n
    for s in sources:
        d = [None] * n
        d[s] = 0
        h = [(0, s)]
        while h:
            du, u = heapq.heappop(h)
            if du > d[u]:
                continue
            for v, w in out[u]:
                if d[v] is None or du + w < d[v]:
                    d[v] = du + w
                    heapq.heappush(h, (d[v], v))
        tight = [[v for v, w in out[u] if d[u] is not None and d[v] is not None and d[u] + w == d[v]] for u in range(n)]
        indeg = [0] * n
        for u in range(n):
            for v in tight[u]:
                indeg[v] += 1
        order, sigma = [s], [0] * n
        sigma[s] = 1
        for u in order:  # Kahn's order: every tight arc into v counted before v
            for v in tight[u]:
                sigma[v] += sigma[u]
                indeg[v] -= 1
                if indeg[v] == 0:
                    order.append(v)
        delta = [0.0] * n
        for u in reversed(order):
            for v in tight[u]:
                delta[u] += sigma[u] / sigma[v] * (1 + delta[v])
            if u != s:
                bc[u] += delta[u]
    return bc

def compare(got, want, what):
    bad = [(v, got[v], want[v]) for v in range(len(got)) if abs(got[v] - want[v]) > 1e-9 * abs(want[v]) + 1e-12]
    if bad:
        print('%s: %d vertices differ, e.g. vertex %d: %.17g, reference %.17g' % ((what, len(bad)) + bad[0]))
        sys.exit(1)

check, gr, out = sys.argv[1], sys.argv[2], sys.argv[3]
n, arcs = read_gr(gr)
got = read_out(out, n)
if check == 'same':
    compare(got, read_out(sys.argv[4], n), 'the .npy and the .csv')
elif check == 'plain':
    compare(got, plain(n, arcs, range(n)), 'plain Brandes')
else:
    import networkx as nx
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(arcs)
    if check == 'nxundir':
        w = {}
        for u, v, x in arcs:
            k = (min(u, v), max(u, v))
            if u != v and (k not in w or x < w[k]):
                w[k] = x
        U = nx.Graph()
        U.add_nodes_from(range(n))
        U.add_weighted_edges_from((u, v, x) for (u, v), x in w.items())
        ref = nx.betweenness_centrality(U, normalized=False, weight='weight')
        compare(got, [ref[v] for v in range(n)], 'networkx, undirected')
    elif check == 'nxhalf':
        U = nx.Graph()
        U.add_nodes_from(range(n))
        U.add_weighted_edges_from(arcs)
        assert U.number_of_edges() * 2 == G.number_of_edges(), 'the graph is not symmetric'
        ref = nx.betweenness_centrality(U, normalized=False, weight='weight')
        compare([x / 2 for x in got], [ref[v] for v in range(n)], 'half of it against networkx, undirected')
    elif len(sys.argv) > 4:
        src = [int(l.split(',')[0]) for l in open(sys.argv[4]).read().split('\n')[1:] if l]
        ref = nx.betweenness_centrality_subset(G, src, list(range(n)), normalized=False, weight='weight')
        compare(got, [ref[v] for v in range(n)], 'networkx, %d sources' % len(src))
    else:
        ref = nx.betweenness_centrality(G, normalized=False, weight='weight')
        if check == 'nxshow':
            print('networkx says %s where the exact values are %s' % ([round(ref[v], 4) for v in range(4)], got[:4]))
        else:
            compare(got, [ref[v] for v in range(n)], 'networkx')
EOF
bc() { "$py" "$tmp/bc.py" "$@" || fail "$*"; }

# ---------------------------------------------------------------- against networkx
"$tg" gen grid:12x12:1-1 -o "$tmp/grid.gr" || fail "tuccompi-graph gen grid"
"$tg" gen random:400:1-3:1-10 --seed 3 -o "$tmp/rand.gr" || fail "tuccompi-graph gen random"
"$tg" gen rmat:8:8:1-5 --seed 2 -o "$tmp/rmat.gr" || fail "tuccompi-graph gen rmat"
for g in grid rand rmat; do
	"$app" "$tmp/$g.gr" --sources all --betweenness "$tmp/$g.npy" -q || fail "$g: the run failed"
	"$app" "$tmp/$g.gr" --sources all --betweenness "$tmp/$g.csv" --policy eq1 -q || fail "$g: the .csv run failed"
	bc same "$tmp/$g.gr" "$tmp/$g.npy" "$tmp/$g.csv"
	if [ $nx = 1 ]; then
		bc nx "$tmp/$g.gr" "$tmp/$g.npy"
		echo "ok: $g: --sources all equals networkx (directed, 1e-9)"
	fi
done
if [ $nx = 1 ]; then
	bc nxhalf "$tmp/grid.gr" "$tmp/grid.csv" # grid and R-MAT graphs are symmetric
	bc nxhalf "$tmp/rmat.gr" "$tmp/rmat.npy"
	echo "ok: symmetric graphs: half the value is networkx's undirected one"
	"$app" "$tmp/rand.gr" --undirected --sources all --betweenness "$tmp/ru.npy" -q || fail "--undirected"
	bc nxundir "$tmp/rand.gr" "$tmp/ru.npy"
	echo "ok: --undirected equals networkx's value on the undirected graph (which halves the directed sums)"
	"$app" "$tmp/rand.gr" --sources random:37 --seed 9 --betweenness "$tmp/rs.npy" -o "$tmp/rs.csv" -q || fail "random:37"
	bc nx "$tmp/rand.gr" "$tmp/rs.npy" "$tmp/rs.csv"
	"$app" "$tmp/grid.gr" --sources random:20 --betweenness "$tmp/gs.npy" -o "$tmp/gs.csv" -q || fail "grid random:20"
	bc nx "$tmp/grid.gr" "$tmp/gs.npy" "$tmp/gs.csv"
	echo "ok: --sources random:K equals networkx's betweenness_centrality_subset over those sources"
fi

# ---------------------------------------------------------------- arcs of weight 0, unreachable parts
cat >"$tmp/zero.gr" <<'EOF'
c 1 -> 4 directly (2) or through 2 and 3 (1 + 1 + 0), 2 -> 4 through 3; 5 alone
p sp 5 4
a 1 2 1
a 1 4 2
a 2 3 1
a 3 4 0
EOF
"$app" "$tmp/zero.gr" --sources all --betweenness "$tmp/zero.csv" -q || fail "arcs of weight 0: the run failed"
bc plain "$tmp/zero.gr" "$tmp/zero.csv"
grep -q '^1,1.5$' "$tmp/zero.csv" && grep -q '^2,1.5$' "$tmp/zero.csv" || fail "arcs of weight 0: vertex 1 should have 1.5: $(cat "$tmp/zero.csv")"
[ $nx = 1 ] && bc nxshow "$tmp/zero.gr" "$tmp/zero.csv"
"$tg" gen random:300:0-2:0-4 --seed 4 -o "$tmp/z2.gr" || fail "tuccompi-graph gen random with weights 0-4"
if "$app" "$tmp/z2.gr" --sources all --betweenness "$tmp/z2.npy" -q 2>"$tmp/z2.err"; then
	bc plain "$tmp/z2.gr" "$tmp/z2.npy"
	echo "ok: arcs of weight 0 and unreachable parts: the plain Brandes' values"
else
	grep -q "arcs of weight 0 form a cycle" "$tmp/z2.err" || fail "weights 0-4: $(cat "$tmp/z2.err")"
	[ -e "$tmp/z2.npy" ] && fail "a refused graph left its output"
	echo "ok: arcs of weight 0: the plain Brandes' values (the random one has a cycle of them: refused)"
fi

# ---------------------------------------------------------------- the same bytes everywhere
ref="$tmp/rand.npy"
for pol in ms ms-tail eq1; do
	"$app" "$tmp/rand.gr" --sources all --policy $pol --betweenness "$tmp/p.npy" -q || fail "policy $pol"
	cmp -s "$tmp/p.npy" "$ref" || fail "policy $pol gives other bytes"
done
"$app" "$tmp/rand.gr" --sources all --engine batched --betweenness "$tmp/p.npy" -q || fail "--engine batched"
cmp -s "$tmp/p.npy" "$ref" || fail "the brandes engine (--engine batched) gives other bytes than auto's dial-brandes"
"$app" "$tmp/rand.gr" --sources all --units cpu --ncpu 1 --betweenness "$tmp/p.npy" -q || fail "one CPU core"
cmp -s "$tmp/p.npy" "$ref" || fail "one CPU core gives other bytes"
if have_mpi; then
	"$s/tests/mpirun.sh" 2 "$app" "$tmp/rand.gr" --sources all --betweenness "$tmp/m.npy" -q >"$tmp/m.out" 2>&1 ||
		{ cat "$tmp/m.out"; fail "2 ranks"; }
	cmp -s "$tmp/m.npy" "$ref" || fail "2 ranks give other bytes"
	"$s/tests/mpirun.sh" 2 "$app" "$tmp/rand.gr" --sources all --policy eq2 --betweenness "$tmp/m.npy" -q \
		>"$tmp/m.out" 2>&1 || { cat "$tmp/m.out"; fail "2 ranks, eq2"; }
	cmp -s "$tmp/m.npy" "$ref" || fail "2 ranks under eq2 give other bytes"
	echo "ok: the same bytes on 1 and 2 ranks, under ms, ms-tail, eq1, eq2 and on one core"
else
	echo "ok: the same bytes under ms, ms-tail, eq1 and on one core (no MPI: 2 ranks skipped)"
fi

# ---------------------------------------------------------------- bad uses
expect() { # expect CODE PATTERN ARGS...: exit status CODE, PATTERN on stderr, no output left
	code=$1 pat=$2
	shift 2
	"$app" "$@" -q >"$tmp/e.out" 2>"$tmp/e.err"
	rc=$?
	ls "$tmp"/out.* >/dev/null 2>&1 && fail "$*: left a file behind: $(ls "$tmp"/out.*)"
	[ $rc = "$code" ] || fail "$*: exit $rc, expected $code ($(cat "$tmp/e.err"))"
	grep -q "$pat" "$tmp/e.err" || fail "$*: stderr lacks '$pat': $(cat "$tmp/e.err")"
	[ "$(wc -l <"$tmp/e.err")" = 1 ] || fail "$*: more than one line: $(cat "$tmp/e.err")"
	return 0
}
expect 2 "name a .npy (float64) or .csv" "$tmp/grid.gr" --betweenness "$tmp/out.txt"
expect 2 "cannot be resumed from a journal" "$tmp/grid.gr" --betweenness "$tmp/out.npy" --journal "$tmp/out.j"
expect 2 "writes no distance rows" "$tmp/grid.gr" --betweenness "$tmp/out.csv" --rows "$tmp/out.rows"
expect 2 "run --pred separately" "$tmp/grid.gr" --betweenness "$tmp/out.csv" --pred "$tmp/out.p.npy"
expect 2 "run --targets separately" "$tmp/grid.gr" --betweenness "$tmp/out.csv" --targets 0-3 --matrix "$tmp/out.m.csv"
printf 'p sp 3 3\na 1 2 0\na 2 1 0\na 2 3 1\n' >"$tmp/cyc.gr"
expect 1 "arcs of weight 0 form a cycle (through the arc" "$tmp/cyc.gr" --betweenness "$tmp/out.npy"
expect 1 "folder .* does not exist" "$tmp/grid.gr" --betweenness "$tmp/no/such/dir.npy"
echo "ok: bad uses: one line, non-zero exit, nothing left"
