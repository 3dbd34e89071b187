#!/bin/sh
# tuccompi-apsp --edge-betweenness FILE as a user meets it:
#  - with --sources all it equals networkx's edge_betweenness_centrality(G, normalized=False,
#    weight="weight") to 1e-9 relative on directed graphs (a grid with unit weights: many ties; a
#    sparse random graph with unreachable parts; R-MAT with hubs), the .csv one line u,v,betweenness per
#    arc in the order of the graph's arcs, the .npy the same values in the same order (float64, m);
#  - --undirected: networkx's value of the undirected graph (which halves the sum of both directions),
#    the .csv one line per edge (u < v), the .npy both arcs of an edge with the edge's value;
#  - --sources random:K: edge_betweenness_centrality_subset over the -o table's sources, directed and
#    undirected;
#  - arcs of weight 0: the exact values of a plain Brandes in this script (networkx settles a vertex
#    before the tail of an arc of weight 0 into it);
#  - the same bytes from the dial-brandes engine (auto) and the brandes engine (--engine batched), on one
#    CPU core, under EQ1, on 2 ranks; --betweenness beside it is the file a run without it writes;
#  - bad uses give one clear error, a non-zero exit and no file.
# Needs /usr/bin/python3 (77 without); networkx and numpy for the comparisons with networkx (skipped
# with a note when missing).
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

cat >"$tmp/ebc.py" <<'EOF'
# ebc.py CHECK GRAPH.gr OUT.csv [OUT.npy] [TABLE.csv]: compare an --edge-betweenness .csv with a reference
#   nx        networkx, directed (every source, or the -o table's sources with TABLE)
#   nxundir   networkx on the graph made undirected (the lighter of opposite arcs): a run with --undirected
#   plain     the plain Brandes below (exact with arcs of weight 0), directed, every source
# and, given, the .npy against the .csv (directed: the same values in arc order; undirected: each arc
# the value of its edge).
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

def read_csv(path):
    lines = open(path).read().split('\n')
    assert lines[0] == 'u,v,betweenness', lines[0]
    return [(int(r[0]), int(r[1]), float(r[2])) for r in (l.split(',') for l in lines[1:] if l)]

def csr_arcs(n, arcs, undirected):
    """The graph's arcs as tuccompi-apsp holds them: by tail, then by head; parallel ones merged."""
    w = {}
    for u, v, x in arcs:
        if u == v:
            continue
        for a, b in ((u, v), (v, u)) if undirected else ((u, v),):
            if (a, b) not in w or x < w[(a, b)]:
                w[(a, b)] = x
    return sorted(w.items())

def plain(n, arcs):
    out = [[] for _ in range(n)]
    for (u, v), w in csr_arcs(n, arcs, False):
        out[u].append((v, w))
    flow = {}
    for s in range(n):
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
        for u in order:
            for v in tight[u]:
                sigma[v] += sigma[u]
                indeg[v] -= 1
                if indeg[v] == 0:
                    order.append(v)
        delta = [0.0] * n
        for u in reversed(order):
            for v in tight[u]:
                c = sigma[u] / sigma[v] * (1 + delta[v])
                flow[(u, v)] = flow.get((u, v), 0.0) + c
                delta[u] += c
    return flow

def compare(got, want, what):
    bad = [(k, got[k], want.get(k, 0.0)) for k in got if abs(got[k] - want.get(k, 0.0)) > 1e-9 * abs(want.get(k, 0.0)) + 1e-12]
    missing = [k for k in want if k not in got]
    if bad or missing:
        print('%s: %d arcs differ, %d missing; e.g. %s' % (what, len(bad), len(missing), bad[:1] or missing[:1]))
        sys.exit(1)

check, gr, out = sys.argv[1], sys.argv[2], sys.argv[3]
n, arcs = read_gr(gr)
rows = read_csv(out)
undirected = check == 'nxundir'
order = [k for k, _ in csr_arcs(n, arcs, undirected)]
if undirected:
    want_rows = [k for k in order if k[0] < k[1]]
else:
    want_rows = order
assert [(u, v) for u, v, _ in rows] == want_rows, 'the .csv lines are not the graph\'s %s in order' % (
    'edges (u < v)' if undirected else 'arcs')
got = {(u, v): x for u, v, x in rows}
if len(sys.argv) > 4 and sys.argv[4].endswith('.npy'):
    import numpy
    a = numpy.load(sys.argv[4])
    assert a.dtype == numpy.float64 and a.shape == (len(order),), (a.dtype, a.shape)
    for i, (u, v) in enumerate(order):
        want = got[(min(u, v), max(u, v))] if undirected else got[(u, v)]
        assert a[i] == want, ('npy', i, u, v, a[i], want)
if check == 'plain':
    compare(got, plain(n, arcs), 'plain Brandes')
else:
    import networkx as nx
    G = nx.Graph() if undirected else nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from((u, v, w) for (u, v), w in csr_arcs(n, arcs, undirected))
    table = [a for a in sys.argv[4:] if a.endswith('.csv')]
    if table:
        src = [int(l.split(',')[0]) for l in open(table[0]).read().split('\n')[1:] if l]
        ref = nx.edge_betweenness_centrality_subset(G, src, list(range(n)), normalized=False, weight='weight')
    else:
        ref = nx.edge_betweenness_centrality(G, normalized=False, weight='weight')
    want = {}
    for (u, v), x in ref.items():
        want[(min(u, v), max(u, v)) if undirected else (u, v)] = x
    compare(got, want, 'networkx%s' % (', undirected' if undirected else ''))
EOF
ebc() { "$py" "$tmp/ebc.py" "$@" || fail "$*"; }

# ---------------------------------------------------------------- against networkx
"$tg" gen grid:12x12:1-1 -o "$tmp/grid.gr" || fail "tuccompi-graph gen grid"
"$tg" gen random:400:1-3:1-10 --seed 3 -o "$tmp/rand.gr" || fail "tuccompi-graph gen random"
"$tg" gen rmat:8:8:1-5 --seed 2 -o "$tmp/rmat.gr" || fail "tuccompi-graph gen rmat"
for g in grid rand rmat; do
	"$app" "$tmp/$g.gr" --sources all --edge-betweenness "$tmp/$g.csv" -q || fail "$g: the run failed"
	"$app" "$tmp/$g.gr" --sources all --edge-betweenness "$tmp/$g.npy" --policy eq1 -q || fail "$g: the .npy run failed"
	if [ $nx = 1 ]; then
		ebc nx "$tmp/$g.gr" "$tmp/$g.csv" "$tmp/$g.npy"
		echo "ok: $g: --sources all equals networkx's edge betweenness (directed, 1e-9); the .npy the .csv's values"
	fi
done
if [ $nx = 1 ]; then
	"$app" "$tmp/rand.gr" --undirected --sources all --edge-betweenness "$tmp/ru.csv" -q || fail "--undirected"
	"$app" "$tmp/rand.gr" --undirected --sources all --edge-betweenness "$tmp/ru.npy" -q || fail "--undirected .npy"
	ebc nxundir "$tmp/rand.gr" "$tmp/ru.csv" "$tmp/ru.npy"
	"$app" "$tmp/grid.gr" --undirected --sources all --edge-betweenness "$tmp/gu.csv" -q || fail "--undirected grid"
	ebc nxundir "$tmp/grid.gr" "$tmp/gu.csv"
	echo "ok: --undirected equals networkx's undirected edge betweenness, one line per edge"
	"$app" "$tmp/rand.gr" --sources random:37 --seed 9 --edge-betweenness "$tmp/rs.csv" -o "$tmp/rs-src.csv" -q ||
		fail "random:37"
	ebc nx "$tmp/rand.gr" "$tmp/rs.csv" "$tmp/rs-src.csv"
	"$app" "$tmp/rmat.gr" --undirected --sources random:20 --edge-betweenness "$tmp/us.csv" -o "$tmp/us-src.csv" -q ||
		fail "undirected random:20"
	ebc nxundir "$tmp/rmat.gr" "$tmp/us.csv" "$tmp/us-src.csv"
	echo "ok: --sources random:K equals networkx's edge_betweenness_centrality_subset, directed and undirected"
fi

# ---------------------------------------------------------------- arcs of weight 0
cat >"$tmp/zero.gr" <<'EOF'
c 1 -> 4 directly (2) or through 2 and 3 (1 + 1 + 0); 5 alone
p sp 5 4
a 1 2 1
a 1 4 2
a 2 3 1
a 3 4 0
EOF
"$app" "$tmp/zero.gr" --sources all --edge-betweenness "$tmp/zero.csv" -q || fail "arcs of weight 0: the run failed"
ebc plain "$tmp/zero.gr" "$tmp/zero.csv"
grep -q '^2,3,2.5$' "$tmp/zero.csv" || fail "arcs of weight 0: arc 2 -> 3 should carry 2.5: $(cat "$tmp/zero.csv")"
echo "ok: arcs of weight 0: the plain Brandes' flows"

# ---------------------------------------------------------------- the same bytes everywhere
ref="$tmp/rand.npy"
"$app" "$tmp/rand.gr" --sources all --engine batched --edge-betweenness "$tmp/p.npy" -q || fail "--engine batched"
cmp -s "$tmp/p.npy" "$ref" || fail "the brandes engine gives other bytes than dial-brandes"
"$app" "$tmp/rand.gr" --sources all --units cpu --ncpu 1 --edge-betweenness "$tmp/p.npy" -q || fail "one CPU core"
cmp -s "$tmp/p.npy" "$ref" || fail "one CPU core gives other bytes"
"$app" "$tmp/rand.gr" --sources all --betweenness "$tmp/v1.npy" -q || fail "--betweenness alone"
"$app" "$tmp/rand.gr" --sources all --betweenness "$tmp/v2.npy" --edge-betweenness "$tmp/p.npy" -q || fail "both"
cmp -s "$tmp/v1.npy" "$tmp/v2.npy" && cmp -s "$tmp/p.npy" "$ref" || fail "--betweenness beside --edge-betweenness differs"
if have_mpi; then
	"$s/tests/mpirun.sh" 2 "$app" "$tmp/rand.gr" --sources all --edge-betweenness "$tmp/m.npy" -q >"$tmp/m.out" 2>&1 ||
		{ cat "$tmp/m.out"; fail "2 ranks"; }
	cmp -s "$tmp/m.npy" "$ref" || fail "2 ranks give other bytes"
	echo "ok: the same bytes from both engines, on one core, beside --betweenness and on 2 ranks"
else
	echo "ok: the same bytes from both engines, on one core and beside --betweenness (no MPI: 2 ranks skipped)"
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
expect 2 "edge-betweenness .*name a .npy (float64) or .csv (u,v,betweenness)" "$tmp/grid.gr" --edge-betweenness "$tmp/out.txt"
expect 2 "cannot be resumed from a journal" "$tmp/grid.gr" --edge-betweenness "$tmp/out.npy" --journal "$tmp/out.j"
expect 2 "writes no distance rows" "$tmp/grid.gr" --edge-betweenness "$tmp/out.csv" --rows "$tmp/out.rows"
printf 'p sp 3 3\na 1 2 0\na 2 1 0\na 2 3 1\n' >"$tmp/cyc.gr"
expect 1 "arcs of weight 0 form a cycle (through the arc" "$tmp/cyc.gr" --edge-betweenness "$tmp/out.npy"
expect 1 "folder .* does not exist" "$tmp/grid.gr" --edge-betweenness "$tmp/no/such/dir.npy"
expect 2 "betweenness and --edge-betweenness both name .*give each output its own file" "$tmp/grid.gr" \
	--edge-betweenness "$tmp/out.npy" --betweenness "$tmp/out.npy"
echo "ok: bad uses: one line, non-zero exit, nothing left"
