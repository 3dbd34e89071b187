"""Tests of the tuccompi Python module against scipy.sparse.csgraph.dijkstra, through the
tuccompi-apsp of the build tree (python/test.sh sets PYTHONPATH and TUCCOMPI_APSP):
 - random graphs (sizes, densities, zero weights, every source, lists with repeats in any order,
   one source, numpy ints), directed and undirected, with targets (lists with repeats, ranges, one
   target; run with --matrix, no full rows): equal to scipy's arrays;
 - predecessors=True: (dist, pred) as scipy's return_predecessors=True: the same distances, pred
   int32 of scipy's shape, -9999 exactly where scipy has it, and each row a shortest-path tree
   (following pred from any reached vertex ends at the source, d(pred(v)) + w(pred(v), v) = d(v)),
   on random graphs and hand-made ones with zero-weight cycles, ties and unreachable parts;
 - hand-made graphs: one vertex, no arcs, unreachable parts, explicit zeros (arcs of weight 0),
   CSR duplicates (the lightest) and COO duplicates (summed, as scipy), self-loops, a dense array
   (zeros are no arc), opposite arcs of different weights made undirected, the largest weight;
 - graph files (.gr counting from 1, an edge list) give the matrix's distances;
 - the graph reaches the program as a binary .tgb (no text);
 - bad input: negative, NaN, fractional and too large weights, non-square matrices, ids out of
   range, empty targets, bad units, a missing file: clear errors;
 - tuccompi.closeness and harmonic against scipy's distances (every source, lists, one source,
   undirected, a file), betweenness on hand-made graphs and against networkx where it is installed
   (Debian's 2.8 has no backends: the plain functions work without them).
"""

import os
import sys
import tempfile

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra

import tuccompi


def check(cond, what):
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def same(got, want, what):
    check(got.shape == want.shape, "%s: shape %s, scipy %s" % (what, got.shape, want.shape))
    check(got.dtype == np.float64, "%s: dtype %s" % (what, got.dtype))
    check(np.array_equal(got, want), "%s: distances differ from scipy's (%d of %d)"
          % (what, int((got != want).sum()), got.size))


def raises(exc, text, fn, *args, **kw):
    try:
        fn(*args, **kw)
    except exc as e:
        check(text in str(e), "%s: message %r lacks %r" % (fn.__name__, str(e), text))
        return
    check(False, "%s(%s) did not raise %s" % (fn.__name__, args, exc.__name__))


def weights(g, undirected=False):
    """The weight of each arc as the engines see the matrix g: the lightest of CSR duplicates (COO
    ones summed by the conversion, as scipy), no self-loops, both directions when undirected."""
    coo = sp.csr_matrix(g, dtype=np.float64).tocoo()
    w = {}
    for u, v, x in zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()):
        for a, b in ((u, v), (v, u)) if undirected else ((u, v),):
            if a != b and np.isfinite(x):
                w[(a, b)] = min(x, w.get((a, b), x))
    return w


def check_trees(d, p, sp_pred, sources, w, what):
    """p (tuccompi) holds a shortest-path tree per row for the distances d, with -9999 where
    scipy's sp_pred has it."""
    check(p.dtype == np.int32, "%s: pred dtype %s" % (what, p.dtype))
    check(p.shape == sp_pred.shape, "%s: pred shape %s, scipy %s" % (what, p.shape, sp_pred.shape))
    check(np.array_equal(p == -9999, sp_pred == -9999), "%s: -9999 where scipy has none" % what)
    n = p.shape[1]
    for i, s in enumerate(sources):
        for v in np.flatnonzero(p[i] != -9999):
            u = int(p[i, v])
            check((u, v) in w and d[i, u] + w[(u, v)] == d[i, v],
                  "%s: source %d: pred %d of %d is no tight arc" % (what, s, u, v))
            x, steps = int(v), 0
            while x != s and steps <= n:
                x, steps = int(p[i, x]), steps + 1
            check(x == s, "%s: source %d: the predecessors of %d do not lead to it" % (what, s, v))


def random_graph(n, density, seed, wmax=20, zeros=True):
    rng = np.random.default_rng(seed)
    g = sp.random(n, n, density=density, random_state=seed, format="csr")
    g.data = rng.integers(0 if zeros else 1, wmax + 1, size=g.nnz).astype(np.float64)
    return g


def test_random():
    for n, density, seed in ((50, 0.1, 1), (400, 0.01, 2), (1500, 0.002, 3), (800, 0.02, 4)):
        g = random_graph(n, density, seed)
        full = dijkstra(g)
        same(tuccompi.shortest_paths(g), full, "n=%d all sources" % n)
        rng = np.random.default_rng(seed)
        src = rng.integers(0, n, size=25)
        src[3] = src[7]  # a repeat
        same(tuccompi.shortest_paths(g, src), dijkstra(g, indices=src), "n=%d a list with a repeat" % n)
        same(tuccompi.shortest_paths(g, list(range(10, 20))), full[10:20], "n=%d a range" % n)
        same(tuccompi.shortest_paths(g, np.int64(n - 1)), dijkstra(g, indices=n - 1), "n=%d one source" % n)
        tgt = rng.integers(0, n, size=30)
        tgt[4] = tgt[9]  # a repeat
        same(tuccompi.shortest_paths(g, src, targets=tgt), dijkstra(g, indices=src)[:, tgt], "n=%d targets" % n)
        check("--matrix" in tuccompi.last_command and "--rows" not in tuccompi.last_command,
              "targets did not run with --matrix alone: %s" % tuccompi.last_command)
        same(tuccompi.shortest_paths(g, None, targets=range(5, 15)), full[:, 5:15], "n=%d all sources, a range of targets" % n)
        same(tuccompi.shortest_paths(g, 3, targets=[n - 1]), full[3, [n - 1]], "n=%d one source, one target" % n)
        same(tuccompi.shortest_paths(g, src, targets=tgt, undirected=True),
             dijkstra(g, directed=False, indices=src)[:, tgt], "n=%d undirected targets" % n)
        for undirected in (False, True):
            dd, pp = tuccompi.shortest_paths(g, src, undirected=undirected, predecessors=True)
            sd, spp = dijkstra(g, directed=not undirected, indices=src, return_predecessors=True)
            same(dd, sd, "n=%d predecessors' distances%s" % (n, " (undirected)" if undirected else ""))
            check_trees(dd, pp, spp, src, weights(g, undirected), "n=%d predecessors" % n)
        dd, pp = tuccompi.shortest_paths(g, src, targets=tgt, predecessors=True)
        sd, spp = dijkstra(g, indices=src, return_predecessors=True)
        same(dd, sd[:, tgt], "n=%d targets with predecessors" % n)
        check_trees(sd, pp, spp, src, weights(g), "n=%d targets with predecessors" % n)
        same(tuccompi.shortest_paths(g, src, undirected=True), dijkstra(g, directed=False, indices=src),
             "n=%d undirected" % n)
        same(tuccompi.shortest_paths(g, src[:5], units="cpu"), dijkstra(g, indices=src[:5]), "n=%d units=cpu" % n)
    print("ok: random graphs equal scipy's dijkstra (all sources, lists, one source, targets, undirected); "
          "predecessors: shortest-path trees, -9999 where scipy's")


def test_hand_made():
    one = sp.csr_matrix((1, 1))
    same(tuccompi.shortest_paths(one), np.zeros((1, 1)), "one vertex")
    empty = sp.csr_matrix((4, 4))
    same(tuccompi.shortest_paths(empty, [2]), dijkstra(empty, indices=[2]), "no arcs")
    # explicit zeros are arcs of weight 0; vertex 3 unreachable
    z = sp.csr_matrix((np.array([0.0, 2.0, 0.0]), np.array([1, 2, 0]), np.array([0, 1, 2, 3, 3])), shape=(4, 4))
    same(tuccompi.shortest_paths(z), dijkstra(z), "explicit zeros")
    check(tuccompi.shortest_paths(z, 0)[1] == 0 and np.isinf(tuccompi.shortest_paths(z, 0)[3]), "zero arcs, unreachable")
    # CSR duplicates: the lightest; COO duplicates: summed by the conversion, as scipy
    dup = sp.csr_matrix((np.array([5.0, 3.0]), np.array([1, 1]), np.array([0, 2, 2])), shape=(2, 2))
    same(tuccompi.shortest_paths(dup), dijkstra(dup), "CSR duplicates")
    check(tuccompi.shortest_paths(dup, 0)[1] == 3, "CSR duplicates: the lightest")
    coo = sp.coo_matrix((np.array([5.0, 3.0]), (np.array([0, 0]), np.array([1, 1]))), shape=(2, 2))
    same(tuccompi.shortest_paths(coo), dijkstra(coo), "COO duplicates")
    # self-loops
    loop = sp.csr_matrix(np.array([[7.0, 1.0], [0.0, 4.0]]))
    same(tuccompi.shortest_paths(loop), dijkstra(loop), "self-loops")
    # a dense array: zeros are no arc
    dense = np.array([[0, 0, 1, 0], [0, 0, 0, 0], [0, 2, 0, 9], [0, 0, 0, 0]], dtype=float)
    same(tuccompi.shortest_paths(dense), dijkstra(dense), "dense array")
    # opposite arcs of different weights, undirected: the lighter both ways
    opp = sp.csr_matrix(np.array([[0, 9.0], [4.0, 0]]))
    same(tuccompi.shortest_paths(opp, undirected=True), dijkstra(opp, directed=False), "opposite arcs, undirected")
    # the largest weight, along a path of 1000 arcs (distances up to 10^9)
    n = 1001
    path = sp.diags([np.full(n - 1, float(tuccompi.MAX_WEIGHT))], [1], shape=(n, n), format="csr")
    same(tuccompi.shortest_paths(path, [0, 500]), dijkstra(path, indices=[0, 500]), "the largest weight")
    # integer matrices
    ints = sp.csr_matrix(np.array([[0, 3], [1, 0]], dtype=np.int32))
    same(tuccompi.shortest_paths(ints), dijkstra(ints), "an integer matrix")
    # trees: zero-weight cycles (0 -> 1 -> 2 -> 0, 2 -> 3 -> 1), ties (two paths of 4 to 5), an
    # unreachable vertex (6), a single source
    rows, cols, ws = zip((0, 1, 0), (1, 2, 0), (2, 0, 0), (2, 3, 0), (3, 1, 0), (0, 4, 2), (4, 5, 2), (3, 5, 4), (1, 5, 4))
    tie = sp.csr_matrix((np.array(ws, dtype=float), (np.array(rows), np.array(cols))), shape=(7, 7))
    for srcs in (None, [0, 3, 6], 2):
        dd, pp = tuccompi.shortest_paths(tie, srcs, predecessors=True)
        sd, spp = dijkstra(tie, indices=srcs if srcs is not None else np.arange(7), return_predecessors=True)
        same(dd, sd, "zero-weight cycles: distances (sources %s)" % (srcs,))
        if np.ndim(srcs) == 0 and srcs is not None:
            check(pp.shape == (7,) and pp[srcs] == -9999, "one source: pred %s" % pp)
            dd, pp, sd, spp = dd[None], pp[None], sd[None], spp[None]
        check_trees(dd, pp, spp, [srcs] if np.ndim(srcs) == 0 and srcs is not None else
                    (srcs if srcs is not None else range(7)), weights(tie), "zero-weight cycles")
    d1, p1 = tuccompi.shortest_paths(one, predecessors=True)
    check(p1.tolist() == [[-9999]] and d1.tolist() == [[0.0]], "one vertex: %s %s" % (d1, p1))
    print("ok: hand-made graphs (one vertex, no arcs, zeros, duplicates, self-loops, dense, undirected, big weights, "
          "trees through zero-weight cycles and ties)")


def test_files():
    g = random_graph(200, 0.03, 7, zeros=False)
    want = dijkstra(g, indices=[0, 17, 199])
    coo = g.tocoo()
    with tempfile.TemporaryDirectory() as tmp:
        gr = os.path.join(tmp, "g.gr")
        with open(gr, "w") as f:
            f.write("p sp %d %d\n" % (g.shape[0], coo.nnz))
            for u, v, w in zip(coo.row, coo.col, coo.data):
                f.write("a %d %d %d\n" % (u + 1, v + 1, w))
        same(tuccompi.shortest_paths(gr, [0, 17, 199]), want, "a .gr file (vertex 1 is 0)")
        dd, pp = tuccompi.shortest_paths(gr, [0, 17, 199], predecessors=True)
        same(dd, want, "a .gr file with predecessors")
        check_trees(dd, pp, dijkstra(g, indices=[0, 17, 199], return_predecessors=True)[1], [0, 17, 199], weights(g),
                    "a .gr file's trees")
        csv = os.path.join(tmp, "g.csv")
        np.savetxt(csv, np.column_stack([coo.row, coo.col, coo.data]).astype(np.int64), fmt="%d", delimiter=",")
        same(tuccompi.shortest_paths(csv, [0, 17, 199]), want, "an edge list")
        same(tuccompi.shortest_paths(csv, [0, 17, 199], targets=[5, 0, 5]), want[:, [5, 0, 5]], "an edge list, targets")
        raises(RuntimeError, "--targets '250-250': want A-B with 0 <= A <= B < 200", tuccompi.shortest_paths, csv, [0], targets=[250])
        raises(RuntimeError, "cannot open", tuccompi.shortest_paths, os.path.join(tmp, "missing.gr"))
    print("ok: graph files (.gr shifted from 1, an edge list) give the matrix's distances")


def test_binary():
    g = random_graph(100, 0.05, 9)
    tuccompi.shortest_paths(g, [1, 2])
    cmd = tuccompi.last_command
    check(cmd[1].endswith(".tgb"), "the graph did not go as a .tgb: %s" % cmd)
    check(cmd[cmd.index("--rows") + 1].endswith(".npy"), "the distances did not come as a .npy: %s" % cmd)
    print("ok: the graph goes as a binary .tgb, the distances come back as .npy")


def test_errors():
    g = random_graph(20, 0.2, 5)
    rows = np.repeat(np.arange(20), np.diff(g.indptr))
    k = int(np.flatnonzero(rows != g.indices)[0])  # an entry that is not a self-loop
    for value, exc, text in ((-1, ValueError, "negative weights"), (np.nan, ValueError, "NaN"),
                             (1.5, ValueError, "weight 1.5 is not an integer; tuccompi's engines take integer "
                              "weights 0..1000000: scale them"),
                             (2e6, ValueError, "above the maximum 1000000")):
        bad = g.copy()
        bad.data[k] = value
        raises(exc, text, tuccompi.shortest_paths, bad)
    loop = sp.csr_matrix(np.array([[1.5, 1.0], [0.0, 0.0]]))  # a self-loop's weight matters to no path
    same(tuccompi.shortest_paths(loop), dijkstra(loop), "a fractional self-loop")
    raises(ValueError, "not square", tuccompi.shortest_paths, sp.csr_matrix((3, 4)))
    raises(ValueError, "sources: ids are 0..19", tuccompi.shortest_paths, g, [0, 20])
    raises(ValueError, "sources: ids are 0..19", tuccompi.shortest_paths, g, -1)
    raises(ValueError, "targets: ids are 0..19", tuccompi.shortest_paths, g, [0], targets=[25])
    raises(ValueError, "sources: empty", tuccompi.shortest_paths, g, [])
    raises(ValueError, "targets: empty", tuccompi.shortest_paths, g, [0], targets=[])
    raises(ValueError, "units", tuccompi.shortest_paths, g, units="fpga")
    print("ok: bad input gives clear errors")


def close(got, want, what, rel=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    check(got.shape == want.shape, "%s: shape %s, want %s" % (what, got.shape, want.shape))
    bad = np.abs(got - want) > rel * np.maximum(np.abs(want), 1e-300)
    check(not bad.any(), "%s: %d values differ, e.g. %r against %r" % (what, bad.sum(), got[bad][:1], want[bad][:1]))


def scipy_centralities(d, n):
    fin = np.isfinite(d)
    r = fin.sum(axis=-1) - 1.0
    tot = np.where(fin, d, 0).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(tot > 0, r / tot, 0.0) * (r / (n - 1))
        h = np.where(fin & (d > 0), 1.0 / d, 0.0).sum(axis=-1)
    return c, h


def test_centralities():
    n = 300
    g = random_graph(n, 0.015, 11, zeros=False)
    for undirected in (False, True):
        d = dijkstra(g, directed=not undirected)
        c, h = scipy_centralities(d, n)
        close(tuccompi.closeness(g, undirected=undirected), c, "closeness (undirected=%s)" % undirected)
        close(tuccompi.harmonic(g, undirected=undirected), h, "harmonic (undirected=%s)" % undirected, 1e-11)
    d = dijkstra(g)
    c, h = scipy_centralities(d, n)
    src = [9, 2, 250, 2]
    close(tuccompi.closeness(g, src), c[src], "closeness of a list with a repeat")
    check(isinstance(tuccompi.closeness(g, 7), float) and abs(tuccompi.closeness(g, 7) - c[7]) <= 1e-12 * c[7],
          "closeness of one source: a float")
    close(tuccompi.closeness(g, wf_improved=False), np.where(np.isfinite(d).sum(1) > 1, c * (n - 1) / (
        np.isfinite(d).sum(1) - 1.0).clip(1), 0.0), "closeness without Wasserman and Faust's scaling")
    coo = g.tocoo()
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "g.csv")
        np.savetxt(csv, np.column_stack([coo.row, coo.col, coo.data]).astype(np.int64), fmt="%d", delimiter=",")
        close(tuccompi.closeness(csv, [0, 1]), c[[0, 1]], "closeness of an edge list (n read from the graph)")
    # betweenness: a directed path 0 -> 1 -> 2 -> 3 (1 and 2 lie on two pairs' paths each), two ties
    path = sp.csr_matrix((np.ones(3), (np.array([0, 1, 2]), np.array([1, 2, 3]))), shape=(4, 4))
    close(tuccompi.betweenness(path), [0.0, 2.0, 2.0, 0.0], "betweenness of a path")
    close(tuccompi.betweenness(path, sources=[0]), [0.0, 2.0, 1.0, 0.0], "betweenness from one source")
    diamond = sp.csr_matrix((np.ones(4), (np.array([0, 0, 1, 2]), np.array([1, 2, 3, 3]))), shape=(4, 4))
    close(tuccompi.betweenness(diamond), [0.0, 0.5, 0.5, 0.0], "betweenness of two tied paths")
    close(tuccompi.betweenness(path, undirected=True), [0.0, 2.0, 2.0, 0.0], "betweenness, undirected (pairs once)")
    try:
        import networkx as nx
    except ImportError:
        print("ok: closeness, harmonic and betweenness (networkx not installed: not compared with it)")
        return
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(coo.row.tolist(), coo.col.tolist(), coo.data.tolist()))
    bc = nx.betweenness_centrality(G, normalized=False, weight="weight")
    close(tuccompi.betweenness(g), [bc[v] for v in range(n)], "betweenness against networkx %s" % nx.__version__, 1e-9)
    sub = nx.betweenness_centrality_subset(G, [4, 80, 200], list(range(n)), normalized=False, weight="weight")
    close(tuccompi.betweenness(g, sources=[4, 80, 200]), [sub[v] for v in range(n)], "betweenness from 3 sources", 1e-9)
    print("ok: closeness and harmonic as scipy's distances give them, betweenness as networkx %s" % nx.__version__)


if __name__ == "__main__":
    print("tuccompi-apsp:", tuccompi.tool_path())
    test_random()
    test_hand_made()
    test_files()
    test_binary()
    test_errors()
    test_centralities()
    print("ok: tuccompi.shortest_paths, closeness, harmonic, betweenness")
