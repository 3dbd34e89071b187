"""Tests of the networkx backend "tuccompi" against networkx itself (networkx 3.2 or later; run by
python/nx_tests.sh in its virtual environment, after networkx's own tests):
 - every dispatched function on Graph, DiGraph, MultiGraph and MultiDiGraph (the lightest parallel
   edge), with string, tuple and mixed labels in a shuffled order, unreachable parts and isolated
   nodes, ties (grids of unit weights), weights missing (1), ints, floats a power of two makes
   integers, decimals (distances), zeros (distances); k sampled with a seed (an int and a
   Random), endpoints, normalized, cutoffs, sources and targets: networkx's keys in networkx's
   order, its value types, its values (exactly for distances, to 1e-12 relative for centralities);
 - networkx's exceptions (graphs in several parts, no path);
 - can_run declines (with a reason) what the program cannot do exactly, and networkx computes it:
   negative, NaN, string, callable, mixed and too large weights, decimals and zeros for betweenness,
   unknown methods, bad k; should_run declines small graphs;
 - the conversion cached on the graph, and dropped when the graph changes;
 - networkx's priority list (NETWORKX_BACKEND_PRIORITY's) dispatches to it;
 - the plain functions tuccompi.betweenness, closeness and harmonic against networkx.
"""

import random
import sys

import networkx as nx
import numpy as np
import scipy.sparse as sp

import tuccompi
from tuccompi import backend as tb

checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        print("FAIL:", what)
        sys.exit(1)


def same_value(a, b, rel, what):
    if isinstance(b, float) and isinstance(a, float):
        check(a == b or abs(a - b) <= rel * max(abs(a), abs(b)) or (np.isnan(a) and np.isnan(b)),
              "%s: %r, networkx %r" % (what, a, b))
    else:
        check(type(a) is type(b) and a == b, "%s: %r (%s), networkx %r (%s)" % (what, a, type(a).__name__, b,
                                                                              type(b).__name__))


def same(a, b, what, rel=1e-12):
    """a (the backend's) is b (networkx's): types, keys and their order, values."""
    if isinstance(b, np.ndarray):
        check(isinstance(a, np.ndarray) and a.shape == b.shape and a.dtype == b.dtype, "%s: array %s" % (what, a))
        check(np.allclose(a, b, rtol=rel, atol=0) and (np.isinf(a) == np.isinf(b)).all(), "%s: values" % what)
    elif isinstance(b, dict):
        check(isinstance(a, dict), "%s: %s, not a dict" % (what, type(a)))
        check(list(a) == list(b), "%s: keys %s, networkx %s" % (what, list(a)[:8], list(b)[:8]))
        for k in b:
            same(a[k], b[k], "%s[%r]" % (what, k), rel)
    elif isinstance(b, list):
        check(isinstance(a, list) and len(a) == len(b), "%s: %r, networkx %r" % (what, a, b))
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, "%s[%d]" % (what, i), rel)
    elif hasattr(b, "__next__"):
        check(hasattr(a, "__next__"), "%s: not an iterator" % what)
        la, lb = list(a), list(b)
        check(len(la) == len(lb), "%s: %d items, networkx %d" % (what, len(la), len(lb)))
        for x, y in zip(la, lb):
            check(x[0] == y[0], "%s: source %r, networkx %r" % (what, x[0], y[0]))
            same(x[1], y[1], "%s[%r]" % (what, x[0]), rel)
    else:
        same_value(a, b, rel, what)


def ran(before):
    """The program ran since `before` (tuccompi.last_command)."""
    return tuccompi.last_command is not None and tuccompi.last_command is not before


def compare(fn, G, *args, rel=1e-12, what=None, **kwargs):
    """fn with backend="tuccompi" (which must run the program) equals fn on networkx."""
    what = what or "%s(%s, %s)" % (fn.__name__, G.__class__.__name__, kwargs)
    seed = kwargs.get("seed")
    before = tuccompi.last_command
    if isinstance(seed, random.Random):
        kwargs["seed"] = random.Random()
        kwargs["seed"].setstate(seed.getstate())
    got = fn(G, *args, backend="tuccompi", **kwargs)
    if isinstance(seed, random.Random):
        kwargs["seed"] = seed
    want = fn(G, *args, **kwargs)
    if hasattr(got, "__next__"):
        got = iter(list(got))
    check(ran(before), "%s: the program did not run" % what)
    same(got, want, what, rel)


def declines(name, *args, why, **kwargs):
    r = tb.can_run(name, args, kwargs)
    check(r is not True and why in str(r), "can_run(%s): %r, not a reason with %r" % (name, r, why))
    fn = getattr(nx, name)
    try:
        fn(*args, backend="tuccompi", **kwargs)
    except (NotImplementedError, RuntimeError):
        pass
    else:
        check(False, "%s(backend='tuccompi') ran where can_run declines" % name)


def raises(exc, text, fn, *args, **kwargs):
    try:
        fn(*args, backend="tuccompi", **kwargs)
    except exc as e:
        check(text in str(e), "%s: %r lacks %r" % (fn.__name__, str(e), text))
        return
    check(False, "%s did not raise %s" % (fn.__name__, exc.__name__))


def labelled(G, rng):
    """G with labels of several types, its nodes in a shuffled order."""
    nodes = list(G)
    kinds = ["n%d" % i if i % 3 == 0 else (i, "t") if i % 3 == 1 else i for i in range(len(nodes))]
    mapping = dict(zip(nodes, kinds))
    H = G.__class__()
    order = list(nodes)
    rng.shuffle(order)
    H.add_nodes_from(mapping[u] for u in order)
    H.add_edges_from((mapping[u], mapping[v], d) for u, v, d in G.edges(data=True))
    return H


def graphs(rng):
    """(name, graph) of every kind, weights in "weight" (ints), "half" (multiples of 1/4), "dec"
    (decimals), "z" (ints with zeros)."""
    out = []
    for cls in (nx.Graph, nx.DiGraph, nx.MultiGraph, nx.MultiDiGraph):
        G = nx.gnp_random_graph(40, 0.08, seed=rng.randrange(1000), directed=cls().is_directed())
        G = cls(G)
        G.add_nodes_from([100, 101])  # isolated
        G.add_edge(102, 103)  # a part of its own
        if G.is_multigraph():
            for u, v in list(G.edges())[:15]:
                G.add_edge(u, v)  # a parallel edge: another weight
        for e in G.edges(keys=True) if G.is_multigraph() else G.edges():
            d = G.edges[e]
            d["weight"] = rng.randint(1, 6)
            d["half"] = rng.randint(1, 12) / 4
            d["dec"] = rng.randint(1, 30) / 10
            d["z"] = rng.choice([0, 1, 2, 3])
        out.append((cls.__name__, labelled(G, rng)))
    grid = nx.grid_2d_graph(6, 7)
    out.append(("grid", grid))
    out.append(("grid-directed", nx.DiGraph(grid)))
    return out


def test_functions(rng):
    exact = (None, "weight", "half")  # what betweenness and the ordered dicts take
    every = exact + ("dec", "z")
    for i, (name, G) in enumerate(graphs(rng)):
        n = len(G)
        some = list(G)[:5]

        def wt(j, among=every):
            return among[(i + j) % len(among)]

        compare(nx.betweenness_centrality, G, weight=wt(0, exact), what="betweenness %s" % name)
        compare(nx.betweenness_centrality, G, weight=wt(1, exact), normalized=False, endpoints=True,
                what="betweenness endpoints %s" % name)
        compare(nx.betweenness_centrality, G, k=7, seed=3, weight=wt(2, exact), what="betweenness k %s" % name)
        compare(nx.betweenness_centrality, G, k=5, seed=random.Random(9), weight=wt(0, exact), endpoints=True,
                what="betweenness k Random endpoints %s" % name)
        compare(nx.betweenness_centrality, G, k=n, seed=4, weight=wt(1, exact), what="betweenness k=n %s" % name)
        compare(nx.edge_betweenness_centrality, G, weight=wt(2, exact), what="edge betweenness %s" % name)
        compare(nx.edge_betweenness_centrality, G, k=6, seed=5, weight=wt(0, exact), normalized=False,
                what="edge betweenness k %s" % name)
        for j in range(2):
            w = wt(j)
            rel = 1e-12 if w != "dec" else 1e-9
            compare(nx.closeness_centrality, G, distance=w, wf_improved=j == 0, rel=rel,
                    what="closeness %s %s" % (name, w))
            compare(nx.harmonic_centrality, G, distance=w, rel=rel, what="harmonic %s %s" % (name, w))
        compare(nx.closeness_centrality, G, some[1], distance=wt(2), rel=1e-9, what="closeness of one %s" % name)
        compare(nx.harmonic_centrality, G, nbunch=some, sources=list(G)[3:20], distance=wt(3), rel=1e-9,
                what="harmonic nbunch sources %s" % name)
        compare(nx.floyd_warshall_numpy, G, weight=wt(4) or "weight", rel=1e-9, what="floyd %s" % name)
        compare(nx.wiener_index, G, weight=wt(0), rel=1e-9, what="wiener %s" % name)
        src = some[2]
        ordered = ("weight", "half", "z")  # the dicts: an exact scale, zeros allowed
        compare(nx.single_source_dijkstra_path_length, G, src, weight=wt(0, ordered), what="dijkstra %s" % name)
        compare(nx.single_source_dijkstra_path_length, G, src, cutoff=5, weight=wt(1, ordered),
                what="dijkstra cutoff %s" % name)
        compare(nx.shortest_path_length, G, src, weight=wt(2, (None,) + ordered), what="lengths from %s" % name)
        compare(nx.shortest_path_length, G, target=src, weight=wt(3, (None,) + ordered), what="lengths to %s" % name)
        compare(nx.shortest_path_length, G, weight=wt(0, (None,) + ordered), what="all lengths %s" % name)
        compare(nx.single_source_shortest_path_length, G, some[2], what="bfs lengths %s" % name)
        compare(nx.single_source_shortest_path_length, G, some[2], cutoff=1.5, what="bfs cutoff 1.5 %s" % name)
        compare(nx.all_pairs_shortest_path_length, G, cutoff=2, what="all bfs %s" % name)
        compare(nx.all_pairs_dijkstra_path_length, G, cutoff=4, weight=wt(1, ordered), what="all dijkstra %s" % name)
        if name.startswith("grid"):  # in one part: eccentricities
            for j, w in enumerate((None, "weight")):
                compare(nx.eccentricity, G, weight=w, what="eccentricity %s %s" % (name, w))
                compare(nx.eccentricity, G, v=some[0], weight=w, what="eccentricity of one %s" % name)
                compare(nx.diameter, G, weight=w, what="diameter %s %s" % (name, w))
                compare(nx.radius, G, weight=w, what="radius %s %s" % (name, w))
                compare(nx.periphery, G, weight=w, what="periphery %s %s" % (name, w))
                compare(nx.average_shortest_path_length, G, weight=w, what="average %s %s" % (name, w))
            compare(nx.center, G, weight="weight", what="center %s" % name)
        else:
            raises(nx.NetworkXError, "infinite path length", nx.eccentricity, G, weight=wt(0, exact))
            raises(nx.NetworkXError, "connected", nx.average_shortest_path_length, G, weight=wt(1))
        a, b = some[0], some[3]
        for w in (None, "weight"):
            try:
                want = nx.shortest_path_length(G, a, b, weight=w)
            except nx.NetworkXNoPath:
                raises(nx.NetworkXNoPath, "", nx.shortest_path_length, G, a, b, weight=w)
            else:
                same(nx.shortest_path_length(G, a, b, weight=w, backend="tuccompi"), want, "pair %s %s" % (name, w))
        alone = [u for u in G if G.degree(u) == 0]
        if len(alone) >= 2:
            raises(nx.NetworkXNoPath, "", nx.shortest_path_length, G, alone[0], alone[1], weight="weight")
        check(nx.shortest_path_length(G, a, a, weight="half", backend="tuccompi") == 0, "a node to itself")
    print("ok: every function on every kind of graph, label and weight, as networkx (%d checks)" % checks)


def test_zero_weights():
    # 0 -> 1 -> 2 at distance 0 from 0, then ties: networkx's order of settling through arcs of 0
    G = nx.DiGraph()
    G.add_weighted_edges_from([(0, 1, 0), (1, 2, 0), (0, 3, 1), (2, 4, 1), (3, 5, 0), (4, 5, 0), (1, 6, 1),
                               (6, 7, 0), (2, 7, 1), (5, 7, 0)])
    for s in G:
        compare(nx.single_source_dijkstra_path_length, G, s, what="zeros from %d" % s)
    compare(nx.closeness_centrality, G, distance="weight", what="closeness with zeros")
    declines("betweenness_centrality", G, weight="weight", why="weights of 0")
    print("ok: weights of 0 (distances in networkx's order; betweenness left to networkx)")


def test_declines():
    G = nx.path_graph(5)
    nx.set_edge_attributes(G, 1, "weight")
    G.add_edge(1, 2, weight=-1)  # add_edge drops the conversion cached on G; G[1][2][...] = would not
    declines("single_source_dijkstra_path_length", G, 0, why="negative")
    G.add_edge(1, 2, weight=float("nan"))
    declines("closeness_centrality", G, distance="weight", why="NaN")
    G.add_edge(1, 2, weight="x")
    declines("closeness_centrality", G, distance="weight", why="weights of type str")
    G.add_edge(1, 2, weight=2.5)
    G.add_edge(2, 3, weight=3)  # an int beside floats
    declines("single_source_dijkstra_path_length", G, 0, why="mixed")
    G.add_edge(1, 2, weight=10 ** 7 + 1)
    declines("closeness_centrality", G, distance="weight", why="no scale")
    G.add_edge(1, 2, weight=0.1)
    declines("betweenness_centrality", G, weight="weight", why="decimal")
    declines("single_source_dijkstra_path_length", G, 0, weight=lambda u, v, d: 1, why="function")
    declines("betweenness_centrality", G, k=9, why="k must be")
    declines("shortest_path_length", G, 0, 3, method="bellman-ford", why="bellman-ford")
    declines("average_shortest_path_length", G, method="nope", why="unknown")
    declines("single_source_shortest_path_length", G, "absent", why="source not in G")
    declines("closeness_centrality", nx.Graph(), why="empty")
    r = tb.can_run("betweenness_centrality", (G,), {"k": 2, "nonsense": 1})
    check(r is not True, "an unknown argument: %r" % r)
    # what can_run declines networkx computes, through the priority list too
    H = nx.path_graph(4)
    nx.set_edge_attributes(H, 0.1, "weight")
    want = nx.betweenness_centrality(H, weight="weight")
    with priority():
        before = tuccompi.last_command
        got = nx.betweenness_centrality(H, weight="weight")
        check(not ran(before), "a declined call ran the program")
        check(got == want, "a declined call's result")
    small = tb.should_run("betweenness_centrality", (H,), {})
    check(small is not True and "too small" in small, "should_run on 4 nodes: %r" % small)
    big = nx.grid_2d_graph(120, 120)
    check(tb.should_run("betweenness_centrality", (big,), {}) is True, "should_run on a 14,400-node grid")
    road = nx.grid_2d_graph(250, 250)  # 310,000 nodes and arcs
    one = tb.should_run("single_source_dijkstra_path_length", (road, (0, 0)), {})
    check(one is not True and "not converted" in one, "should_run of one Dijkstra before a conversion: %r" % one)
    if getattr(road, "__networkx_cache__", None) is not None and tb._nxgraph._cache_allowed():
        nx.single_source_dijkstra_path_length(road, (0, 0), backend="tuccompi")
        check(tb.should_run("single_source_dijkstra_path_length", (road, (0, 0)), {}) is True,
              "should_run of one Dijkstra on a converted graph")
    bfs = tb.should_run("single_source_shortest_path_length", (big, (0, 0)), {})
    check(bfs is not True and "breadth-first" in bfs, "should_run of one breadth-first search: %r" % bfs)
    print("ok: can_run declines what the program cannot do exactly, with reasons; should_run small graphs")


class priority:
    """networkx's priority list set to ["tuccompi"] (NETWORKX_BACKEND_PRIORITY), with should_run
    always true."""

    def __enter__(self):
        self.should = tb.should_run
        tb.BackendInterface.should_run = staticmethod(lambda name, args, kwargs: True)
        cfg = getattr(nx, "config", None)
        if cfg is not None and hasattr(cfg.backend_priority, "algos"):  # networkx 3.4 on
            self.old = list(cfg.backend_priority.algos)
            cfg.backend_priority.algos = ["tuccompi"]
        elif cfg is not None:  # 3.3
            self.old = list(cfg.backend_priority)
            cfg.backend_priority = ["tuccompi"]
        else:  # 3.2
            d = nx.utils.backends._dispatch
            self.old = list(d._automatic_backends)
            d._automatic_backends = ["tuccompi"]
        return self

    def __exit__(self, *exc):
        tb.BackendInterface.should_run = staticmethod(self.should)
        cfg = getattr(nx, "config", None)
        if cfg is not None and hasattr(cfg.backend_priority, "algos"):
            cfg.backend_priority.algos = self.old
        elif cfg is not None:
            cfg.backend_priority = self.old
        else:
            nx.utils.backends._dispatch._automatic_backends = self.old


def test_priority_and_cache():
    G = nx.gnm_random_graph(60, 150, seed=2)
    nx.set_edge_attributes(G, {e: i % 5 + 1 for i, e in enumerate(G.edges())}, "weight")
    want = nx.closeness_centrality(G, distance="weight")
    with priority():
        before = tuccompi.last_command
        got = nx.closeness_centrality(G, distance="weight")
        check(ran(before), "the priority list did not dispatch to tuccompi")
        same(got, want, "closeness through the priority list")
    cache = getattr(G, "__networkx_cache__", None)
    if cache is not None and tb._nxgraph._cache_allowed():  # networkx 3.4 on caches by default
        nx.closeness_centrality(G, distance="weight", backend="tuccompi")
        check("tuccompi" in cache, "no conversion cached on the graph")
        G.add_edge(0, 59, weight=1)
        check("tuccompi" not in G.__networkx_cache__, "the cache outlived a change of the graph")
        same(nx.closeness_centrality(G, distance="weight", backend="tuccompi"),
             nx.closeness_centrality(G, distance="weight"), "closeness after a change")
    print("ok: the priority list dispatches to tuccompi; the conversion is cached and dropped on a change")


def test_plain():
    rng = np.random.default_rng(4)
    n = 80
    M = sp.random(n, n, density=0.05, random_state=5, format="csr")
    M.data = rng.integers(1, 9, size=M.nnz).astype(np.float64)
    M.setdiag(0)
    M.eliminate_zeros()
    D = nx.from_scipy_sparse_array(M, create_using=nx.DiGraph) if hasattr(nx, "from_scipy_sparse_array") else None
    bc = nx.betweenness_centrality(D, normalized=False, weight="weight")
    same(tuccompi.betweenness(M).tolist(), [bc[i] for i in range(n)], "tuccompi.betweenness")
    src = [3, 17, 40]
    sub = nx.betweenness_centrality_subset(D, src, list(D), normalized=False, weight="weight")
    same(tuccompi.betweenness(M, sources=src).tolist(), [sub[i] for i in range(n)], "tuccompi.betweenness(sources)")
    U = nx.Graph(D)  # both arcs weigh the same: symmetric weights
    S = nx.to_scipy_sparse_array(U, nodelist=range(n), format="csr")
    bu = nx.betweenness_centrality(U, normalized=False, weight="weight")
    same(tuccompi.betweenness(S, undirected=True).tolist(), [bu[i] for i in range(n)], "betweenness, undirected")
    cc = nx.closeness_centrality(D.reverse(), distance="weight")  # networkx: distances to each node
    same(tuccompi.closeness(M).tolist(), [cc[i] for i in range(n)], "tuccompi.closeness")
    same(tuccompi.closeness(M, 7), cc[7], "tuccompi.closeness of one")
    hc = nx.harmonic_centrality(D.reverse(), distance="weight")
    same(tuccompi.harmonic(M).tolist(), [float(hc[i]) for i in range(n)], "tuccompi.harmonic", rel=1e-11)
    print("ok: tuccompi.betweenness, closeness and harmonic as networkx")


if __name__ == "__main__":
    print("networkx %s, tuccompi-apsp: %s" % (nx.__version__, tuccompi.tool_path()))
    check("tuccompi" in nx.utils.backends.backends, "networkx does not see the backend (entry points)")
    if hasattr(nx, "config"):
        nx.config.warnings_to_ignore.add("cache") if hasattr(nx.config, "warnings_to_ignore") else None
    test_functions(random.Random(1))
    test_zero_weights()
    test_declines()
    test_priority_and_cache()
    test_plain()
    print("ok: the networkx backend (%d checks)" % checks)
