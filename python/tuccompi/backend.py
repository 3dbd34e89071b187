"""The networkx backend "tuccompi": networkx's shortest-path and centrality functions computed by
tuccompi-apsp (every CPU core and GPU of the machine), with networkx's signatures and results.

    nx.betweenness_centrality(G, k=1024, weight="weight", backend="tuccompi")
    NETWORKX_BACKEND_PRIORITY=tuccompi python3 script.py    # every call it can take, no change

networkx finds it through the entry points "networkx.backends" and "networkx.backend_info" of the
installed package (tuccompi-VERSION.dist-info, which `make install` writes; python/ of the source
tree holds one for PYTHONPATH=python). The graph goes to the program as a .tgb of its arcs (nodes
numbered in the graph's order, both arcs of an undirected edge, the lightest of parallel edges),
the results come back as arrays and are written into networkx's types, keys and order.

can_run declines, so that networkx computes it itself: weights that are negative, NaN, infinite,
not numbers or given by a function; weights that no scale makes integers 0..1000000 exactly (their
common divisor, times a power of two: then networkx's float sums are exact, its ties and orders are
ours; closeness, harmonic, floyd_warshall_numpy, average_shortest_path_length and wiener_index also
take a power of ten up to 10^6, their values then agreeing to a float's rounding); betweenness on
arcs of 0 (networkx's path counts then depend on its heap); ints and floats mixed where networkx's
distances would mix the types; method="bellman-ford"; arguments it does not know, or that networkx
refuses (networkx raises its own error); empty graphs.

should_run declines work too small to pay for starting the program and writing the graph
(BREAK_EVEN: sources x (vertices + arcs)). Measured on the development machine (2 cores, networkx
3.6.1, weighted grids of 100 to 3,600 vertices and a road-like graph of 200,000): the program's
start costs 0.13 to 0.15 s; networkx's betweenness 0.6 to 0.8 us per arc and source (break-even near
200,000), its closeness 0.24 us (near 600,000); the conversion costs about 0.7 us per arc, the .tgb
0.6 us (both cached on the graph), so that one source's Dijkstra (networkx 1.1 to 1.6 s on the
road-like graph, about 1.4 us per arc) took 1.6 s through the backend the first time, 0.6 to 0.8 s
once converted; one source's breadth-first search (networkx 0.4 to 0.7 s) 0.8 to 0.9 s.
"""

import inspect
import numbers

import networkx as nx
import numpy as np

from . import _brandes, _nxgraph, _order, _tool
from ._nxgraph import TuccompiGraph, adjacency, store

__all__ = ["BackendInterface", "can_run", "should_run"]

# sources x (n + m) from which the program beats networkx (see the module's docstring): Brandes'
# sums (networkx's cost most per arc), the other functions of every source, one source with
# Dijkstra on a graph whose conversion is cached (the conversion alone costs more than networkx's
# search); one source's breadth-first search never pays (networkx's costs less per arc than the
# program's run and the dict together).
BREAK_EVEN = {"brandes": 200000, "all": 600000, "single": 200000, "bfs": None}

# Rows of distances held at once (all-pairs generators, floyd_warshall_numpy, edge betweenness
# without --edge-betweenness): 2^24 doubles, 128 MiB.
_ROWS_AT_ONCE = 1 << 24


def _tg(G):
    return G if isinstance(G, TuccompiGraph) else TuccompiGraph(G)


def _nxg(G):
    return G.G if isinstance(G, TuccompiGraph) else G


_signatures = {}


def _signature(name):
    """networkx's signature of `name` (of the installed version)."""
    sig = _signatures.get(name)
    if sig is None:
        f = getattr(nx.utils.backends, "_registered_algorithms", {}).get(name)
        sig = _signatures[name] = inspect.signature(getattr(f, "orig_func", None) or f or getattr(nx, name))
    return sig


def _bind(name, args, kwargs):
    kwargs = {k: v for k, v in kwargs.items() if k not in ("backend", "backend_kwargs")}
    b = _signature(name).bind(*args, **kwargs)
    b.apply_defaults()
    return dict(b.arguments)


# name: (the argument naming the weight attribute, or None: every arc 1; what the results need of
# the weights: "exact" networkx's float sums exact (a power-of-two scale: its ties and orders are
# ours), "nozero" no arc of 0 (networkx's path counts then depend on its heap), "types" one type of
# number (networkx's distances keep the type of the weights); the arguments known).
_SPEC = {
    "betweenness_centrality": ("weight", "exact nozero", "G k normalized weight endpoints seed"),
    "edge_betweenness_centrality": ("weight", "exact nozero", "G k normalized weight seed"),
    "closeness_centrality": ("distance", "", "G u distance wf_improved"),
    "harmonic_centrality": ("distance", "", "G nbunch distance sources"),
    "single_source_dijkstra_path_length": ("weight", "exact types", "G source cutoff weight"),
    "single_source_shortest_path_length": (None, "", "G source cutoff"),
    "all_pairs_dijkstra_path_length": ("weight", "exact types", "G cutoff weight"),
    "all_pairs_shortest_path_length": (None, "", "G cutoff"),
    "shortest_path_length": ("weight", "exact types", "G source target weight method"),
    "floyd_warshall_numpy": ("weight", "", "G nodelist weight"),
    "eccentricity": ("weight", "exact types", "G v sp weight"),
    "diameter": ("weight", "exact types", "G e usebounds weight"),
    "radius": ("weight", "exact types", "G e usebounds weight"),
    "periphery": ("weight", "exact types", "G e usebounds weight"),
    "center": ("weight", "exact types", "G e usebounds weight"),
    "average_shortest_path_length": ("weight", "", "G weight method"),
    "wiener_index": ("weight", "types", "G weight"),
}


def _k_ok(G, k):
    return k is None or (isinstance(k, numbers.Integral) and not isinstance(k, bool) and 0 < k <= len(G))


def _in(G, u):
    try:
        return u in G
    except TypeError:
        return False


def _cutoff_ok(c):
    return c is None or (isinstance(c, numbers.Real) and not isinstance(c, bool))


# Checks of the arguments, beyond the weights: a reason to decline, or None.
_CHECKS = {
    "betweenness_centrality": lambda G, a: None if _k_ok(G, a["k"]) else "k must be None or 1..n",
    "edge_betweenness_centrality": lambda G, a: None if _k_ok(G, a["k"]) else "k must be None or 1..n",
    "closeness_centrality": lambda G, a: None if a["u"] is None or _in(G, a["u"]) else "u is not a node",
    "harmonic_centrality": lambda G, a: None,
    "single_source_dijkstra_path_length": lambda G, a: (None if _in(G, a["source"]) and _cutoff_ok(a["cutoff"])
                                                       else "source not in G, or a cutoff not a number"),
    "single_source_shortest_path_length": lambda G, a: (None if _in(G, a["source"]) and _cutoff_ok(a["cutoff"])
                                                       else "source not in G, or a cutoff not a number"),
    "all_pairs_dijkstra_path_length": lambda G, a: None if _cutoff_ok(a["cutoff"]) else "a cutoff not a number",
    "all_pairs_shortest_path_length": lambda G, a: None if _cutoff_ok(a["cutoff"]) else "a cutoff not a number",
    "shortest_path_length": lambda G, a: (
        "method %r (bellman-ford's dicts have another order)" % (a["method"],) if a["method"] != "dijkstra" else
        "source not in G" if a["source"] is not None and not _in(G, a["source"]) else
        "target not in G" if a["target"] is not None and not _in(G, a["target"]) else None),
    "floyd_warshall_numpy": lambda G, a: (None if a["nodelist"] is None or _nodelist_ok(G, a["nodelist"])
                                          else "nodelist is not every node once"),
    "eccentricity": lambda G, a: None if a["sp"] is None else "sp given: nothing to compute",
    "diameter": lambda G, a: _extrema_ok(G, a),
    "radius": lambda G, a: _extrema_ok(G, a),
    "periphery": lambda G, a: _extrema_ok(G, a),
    "center": lambda G, a: _extrema_ok(G, a) or (
        "an undirected graph without weights (networkx's tree centers come in another order)"
        if a["weight"] is None and not G.is_directed() else None),
    "average_shortest_path_length": lambda G, a: (
        None if a["method"] in (None, "unweighted", "dijkstra", "bellman-ford", "floyd-warshall",
                                "floyd-warshall-numpy") else "method %r unknown" % (a["method"],)),
    "wiener_index": lambda G, a: None,
}


def _extrema_ok(G, a):
    if a["e"] is not None:
        return "e given: nothing to compute"
    if a["usebounds"] is True and not G.is_directed():
        return "usebounds: networkx's bounding algorithm"
    return None


def _nodelist_ok(G, nodelist):
    try:
        return len(nodelist) == len(G) == len(set(nodelist)) and all(u in G for u in nodelist)
    except TypeError:
        return False


def can_run(name, args, kwargs):
    """True if the backend computes `name` with these arguments exactly as networkx does, else
    the reason why not (networkx then runs it itself)."""
    if name not in _SPEC:
        return "not a function of the tuccompi backend"
    try:
        a = _bind(name, args, kwargs)
    except TypeError as e:
        return "arguments networkx refuses (%s)" % e
    G = _nxg(a["G"])
    if not isinstance(G, nx.Graph):
        return "not a networkx graph"
    attr, need, known = _SPEC[name]
    sig = _signature(name)
    for p, v in a.items():
        if p not in known.split() and v is not sig.parameters[p].default:
            try:
                same = bool(v == sig.parameters[p].default)
            except (TypeError, ValueError):
                same = False
            if not same:
                return "argument %s unknown to the tuccompi backend" % p
    if len(G) == 0:
        return "an empty graph"
    why = _CHECKS[name](G, a)
    if why:
        return why
    if name == "betweenness_centrality" and a["endpoints"]:
        try:
            import scipy.sparse.csgraph  # noqa: F401  (the vertices each source reaches)
        except ImportError:
            return "endpoints=True needs scipy"
    attr = a[attr] if attr else None
    if name == "average_shortest_path_length" and a["method"] == "unweighted":
        attr = None
    if callable(attr):
        return "weights given by a function"
    data = store(G, True)  # (without a cache: fresh arrays for the conversion that follows)
    if attr is None:  # every arc 1: nothing to look at, nothing to convert yet
        return True
    reverse = name == "shortest_path_length" and a["source"] is None and a["target"] is not None and G.is_directed()
    w = adjacency(G, reverse, data).weights(attr, G.is_multigraph())
    if w.problem:
        return w.problem
    need = need.split()
    if "nozero" in need and w.zero:
        return "weights of 0 (networkx's path counts then depend on its heap)"
    if "exact" in need and not w.exact:
        return "weights that only a decimal scale makes integers (networkx's float sums break ties and orders)"
    if "types" in need and w.kind == "mixed":
        return "int and float weights mixed (networkx's distances then mix the types)"
    return True


def _work(name, a, G):
    """sources x (n + m) of a call, and its kind (a key of BREAK_EVEN)."""
    n, m = len(G), G.number_of_edges() * (1 if G.is_directed() else 2)
    if name in ("betweenness_centrality", "edge_betweenness_centrality"):
        return (a["k"] or n) * (n + m), "brandes"
    one = ((name == "closeness_centrality" and a["u"] is not None) or
           (name == "eccentricity" and _in(G, a["v"])) or
           name in ("single_source_dijkstra_path_length", "single_source_shortest_path_length") or
           (name == "shortest_path_length" and (a["source"] is not None or a["target"] is not None)))
    if not one:
        return n * (n + m), "all"
    bfs = name == "single_source_shortest_path_length" or (name == "shortest_path_length" and a["weight"] is None)
    return n + m, "bfs" if bfs else "single"


def should_run(name, args, kwargs):
    """True where the work pays for starting the program (BREAK_EVEN), else the reason."""
    try:
        a = _bind(name, args, kwargs)
    except TypeError:
        return "arguments networkx refuses"
    G = _nxg(a["G"])
    work, kind = _work(name, a, G)
    need = BREAK_EVEN[kind]
    if need is None:
        return "networkx's breadth-first search from one source is faster than starting tuccompi-apsp"
    if kind == "single" and not _converted(G, a.get(_SPEC[name][0]) if _SPEC[name][0] else None):
        return "one source on a graph not converted yet (the conversion costs more than networkx's search)"
    return True if work >= need else "too small to pay for starting tuccompi-apsp (%d < %d)" % (work, need)


def _converted(G, attr):
    """Whether G's arrays and weights for `attr` are in its cache (G.__networkx_cache__)."""
    cache = getattr(G, "__networkx_cache__", None)
    succ = (cache or {}).get("tuccompi", {}).get("succ")
    return succ is not None and attr in succ._weights


# ---------------------------------------------------------------- betweenness

def _nxb():
    from networkx.algorithms.centrality import betweenness

    return betweenness


def _sample(G, k, seed, vertices):
    """networkx's sources: None (every node) or seed.sample(list(G.nodes()), k); networkx 3.5 on
    takes every node without sampling when k == len(G) (vertex betweenness only)."""
    if k is None or (vertices and k == len(G) and "sampled_nodes" in inspect.signature(_nxb()._rescale).parameters):
        return None
    return seed.sample(list(G.nodes()), k)


def _betweenness_centrality(G, k, normalized, weight, endpoints, seed):
    tg = _tg(G)
    g, adj = tg.G, tg.adj
    w = adj.weights(weight, g.is_multigraph())
    nodes = _sample(g, k, seed, True)
    ids = None if nodes is None else [adj.index[u] for u in nodes]
    out = _tool.run(adj, w, ids, table=endpoints, betweenness=True)
    raw = out["betweenness"]
    if endpoints:
        src = np.arange(adj.n) if ids is None else np.asarray(ids, dtype=np.int64)
        raw = raw + _brandes.reach_counts(adj.indptr, adj.col, adj.n, src, g.is_directed())
        raw[src] += out["table"]["reached"] - 1
    b = dict(zip(adj.nodes, raw.tolist()))
    rescale = _nxb()._rescale
    params = inspect.signature(rescale).parameters
    kw = dict(normalized=normalized, directed=g.is_directed(), endpoints=endpoints)
    if "sampled_nodes" not in params:  # networkx up to 3.4
        return rescale(b, len(g), k=None if nodes is None else k, **kw)
    if "k" in params:  # 3.5
        return rescale(b, len(g), k=None if nodes is None else k, sampled_nodes=g if nodes is None else nodes, **kw)
    return rescale(b, len(g), sampled_nodes=nodes, **kw)


def _edge_betweenness_centrality(G, k, normalized, weight, seed):
    tg = _tg(G)
    g, adj = tg.G, tg.adj
    w = adj.weights(weight, g.is_multigraph())
    nodes = _sample(g, k, seed, False)
    ids = None if nodes is None else [adj.index[u] for u in nodes]
    if _tool.tool_has("--edge-betweenness"):
        out = _tool.run(adj, w, ids, edge_betweenness=True)
        acc = out["edge_betweenness"]
        fr, fc, _ = out["arcs"]
    else:
        src = list(range(adj.n)) if ids is None else ids
        step = max(1, _ROWS_AT_ONCE // adj.n)
        acc = None
        for lo in range(0, len(src), step):
            out = _tool.run(adj, w, src[lo:lo + step], rows=True)
            fr, fc, fw = out["arcs"]
            part = _brandes.edge_sums(fr, fc, fw.astype(np.int64), adj.n, src[lo:lo + step], out["rows"])
            acc = part if acc is None else acc + part
    b = dict.fromkeys(g.edges(), 0.0)
    index = adj.index
    eu = np.fromiter((index[e[0]] for e in b), dtype=np.int64, count=len(b))
    ev = np.fromiter((index[e[1]] for e in b), dtype=np.int64, count=len(b))
    keys = fr.astype(np.int64) * adj.n + fc.astype(np.int64)  # the file's arcs are sorted

    def arc(u, v):
        if len(keys) == 0:
            return np.zeros(len(u))
        want = u * adj.n + v
        pos = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
        return np.where(keys[pos] == want, acc[pos], 0.0)

    vals = arc(eu, ev) if g.is_directed() else arc(eu, ev) + arc(ev, eu)
    b = dict(zip(b, vals.tolist()))
    nxb = _nxb()
    if hasattr(nxb, "_rescale_e"):  # networkx up to 3.5
        b = nxb._rescale_e(b, len(g), normalized=normalized, directed=g.is_directed())
    else:
        b = nxb._rescale(b, len(g), normalized=normalized, directed=g.is_directed(), sampled_nodes=nodes)
    if g.is_multigraph():
        b = nxb._add_edge_keys(g, b, weight=weight)
    return b


# ---------------------------------------------------------------- closeness, harmonic

def _closeness_centrality(G, u, distance, wf_improved):
    tg = _tg(G)
    g, adj = tg.G, tg.adj
    w = adj.weights(distance, g.is_multigraph())
    ids = None if u is None else [adj.index[u]]
    t = _tool.run(adj, w, ids, reverse=g.is_directed(), table=True)["table"]
    n = len(g)
    r = t["reached"].astype(np.float64) - 1.0
    tot = w.real(t["sum"])
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where((tot > 0) & (n > 1), r / tot, 0.0)
        if wf_improved and n > 1:
            c = np.where(tot > 0, c * (r / (n - 1)), 0.0)
    if u is not None:
        return float(c[0])
    return dict(zip(adj.nodes, c.tolist()))


def _harmonic_centrality(G, nbunch, distance, sources):
    tg = _tg(G)
    g, adj = tg.G, tg.adj
    w = adj.weights(distance, g.is_multigraph())
    nb = set(g.nbunch_iter(nbunch) if nbunch is not None else g.nodes)
    srcs = set(g.nbunch_iter(sources)) if sources is not None else None
    centrality = {u: 0 for u in nb}
    if not nb or srcs is not None and not srcs:
        return centrality
    tids = [adj.index[u] for u in centrality]
    sids = None if srcs is None else [adj.index[v] for v in srcs]
    if srcs is None and adj.n * len(tids) > _ROWS_AT_ONCE:
        # the program's sums of 1/d, to each vertex (the arcs reversed): 12 significant digits
        h = _tool.run(adj, w, tids, reverse=g.is_directed(), table=True)["table"]["harmonic"] * w.den / w.num
    else:
        d = _tool.run(adj, w, sids, targets=tids)["matrix"]
        real = w.real(d)
        with np.errstate(divide="ignore"):
            h = np.where(d > 0, 1.0 / real, 0.0).sum(axis=0)
    for u, x in zip(centrality, h.tolist()):
        if x > 0:
            centrality[u] = x
    return centrality


# ---------------------------------------------------------------- distances

def _lengths(adj, w, d, s, cutoff, bfs):
    """{node: distance} from source id s, in networkx's order, from the program's row d: up to
    cutoff (the breadth-first search takes every level whose previous one is below it)."""
    d = d.copy()
    if cutoff is not None:
        d[(d > 0) & ((d >= cutoff + 1) if bfs else (w.real(d) > cutoff))] = -1
    order = _order.settle_order(adj.indptr, adj.row, adj.col, w.scaled, d, s)
    vals = w.distances(d[order])
    vals[0] = 0  # networkx's source: the int 0 whatever the weights
    nodes = adj.nodes
    return dict(zip([nodes[i] for i in order.tolist()], vals))


def _single_source(adj, w, s, cutoff, bfs=False):
    return _lengths(adj, w, _tool.run(adj, w, [s], rows=True)["rows"][0], s, cutoff, bfs)


def _all_pairs(adj, w, cutoff, bfs=False):
    step = max(1, _ROWS_AT_ONCE // adj.n)
    for lo in range(0, adj.n, step):
        ids = list(range(lo, min(adj.n, lo + step)))
        rows = _tool.run(adj, w, ids, rows=True)["rows"]
        for s, d in zip(ids, rows):
            yield adj.nodes[s], _lengths(adj, w, d, s, cutoff, bfs)


def _single_source_dijkstra_path_length(G, source, cutoff, weight):
    tg = _tg(G)
    return _single_source(tg.adj, tg.adj.weights(weight, tg.G.is_multigraph()), tg.adj.index[source], cutoff)


def _single_source_shortest_path_length(G, source, cutoff):
    tg = _tg(G)
    return _single_source(tg.adj, tg.adj.weights(None, False), tg.adj.index[source], cutoff, True)


def _all_pairs_dijkstra_path_length(G, cutoff, weight):
    tg = _tg(G)
    return _all_pairs(tg.adj, tg.adj.weights(weight, tg.G.is_multigraph()), cutoff)


def _all_pairs_shortest_path_length(G, cutoff):
    tg = _tg(G)
    return _all_pairs(tg.adj, tg.adj.weights(None, False), cutoff, True)


def _shortest_path_length(G, source, target, weight, method):
    tg = _tg(G)
    g = tg.G
    if source is None and target is None:
        return _all_pairs(tg.adj, tg.adj.weights(weight, g.is_multigraph()), None)
    if source is None:
        adj = tg.reverse_adj()
        return _single_source(adj, adj.weights(weight, g.is_multigraph()), adj.index[target], None)
    adj = tg.adj
    w = adj.weights(weight, g.is_multigraph())
    if target is None:
        return _single_source(adj, w, adj.index[source], None)
    if source == target:
        return 0
    d = _tool.run(adj, w, [adj.index[source]], targets=[adj.index[target]])["matrix"][0]
    if d[0] < 0:
        raise nx.NetworkXNoPath("No path between %s and %s." % (source, target) if weight is None else
                                "Node %s not reachable from %s" % (target, source))
    return w.distances(d)[0]


def _floyd_warshall_numpy(G, nodelist, weight):
    tg = _tg(G)
    g, adj = tg.G, tg.adj
    w = adj.weights(weight, g.is_multigraph())
    d = _tool.run(adj, w, None, rows=True)["rows"]
    A = np.where(d < 0, np.inf, w.real(d))
    if nodelist is not None:
        perm = np.array([adj.index[u] for u in nodelist], dtype=np.int64)
        A = A[np.ix_(perm, perm)]
    return A


# ---------------------------------------------------------------- eccentricities and sums

def _table(tg, weight, ids):
    """The program's per-source table of ids (None: all) and the weights."""
    w = tg.adj.weights(weight, tg.G.is_multigraph())
    return _tool.run(tg.adj, w, ids, table=True)["table"], w


def _ecc(tg, nodes, weight):
    g, adj = tg.G, tg.adj
    if not nodes:
        return {}
    nodes = list(dict.fromkeys(nodes))  # nbunch_iter repeats a node given twice
    t, w = _table(tg, weight, [adj.index[u] for u in nodes])
    if (t["reached"] != len(g)).any():
        raise nx.NetworkXError("Found infinite path length because the digraph is not strongly connected"
                               if g.is_directed() else
                               "Found infinite path length because the graph is not connected")
    ecc = t["eccentricity"]
    vals = w.distances(ecc)
    return dict(zip(nodes, [0 if e == 0 else x for e, x in zip(ecc.tolist(), vals)]))


def _eccentricity(G, v, sp, weight):
    tg = _tg(G)
    e = _ecc(tg, list(tg.G.nbunch_iter(v)), weight)
    if _in(tg.G, v):
        return e[v]
    return e


def _diameter(G, e, usebounds, weight):
    tg = _tg(G)
    return max(_ecc(tg, tg.adj.nodes, weight).values())


def _radius(G, e, usebounds, weight):
    tg = _tg(G)
    return min(_ecc(tg, tg.adj.nodes, weight).values())


def _periphery(G, e, usebounds, weight):
    tg = _tg(G)
    ecc = _ecc(tg, tg.adj.nodes, weight)
    top = max(ecc.values())
    return [v for v in ecc if ecc[v] == top]


def _center(G, e, usebounds, weight):
    tg = _tg(G)
    ecc = _ecc(tg, tg.adj.nodes, weight)
    low = min(ecc.values())
    return [v for v in ecc if ecc[v] == low]


def _total(t, w):
    """The sum of every distance of the table, in networkx's type."""
    s = sum(t["sum"].tolist()) * w.num
    return s if w.kind == "int" else s / w.den


def _average_shortest_path_length(G, weight, method):
    tg = _tg(G)
    g = tg.G
    n = len(g)
    if n == 1:
        return 0
    t, w = _table(tg, None if method == "unweighted" else weight, None)
    if (t["reached"] != n).any():
        raise nx.NetworkXError("Graph is not strongly connected." if g.is_directed() else "Graph is not connected.")
    return _total(t, w) / (n * (n - 1))


def _wiener_index(G, weight):
    tg = _tg(G)
    g = tg.G
    t, w = _table(tg, weight, None)
    if (t["reached"] != len(g)).any():
        return float("inf")
    total = _total(t, w)
    return total if g.is_directed() else total / 2


# ---------------------------------------------------------------- the interface

def _dispatched(name, impl):
    known = _SPEC[name][2].split()

    def f(*args, **kwargs):
        a = _bind(name, args, kwargs)
        return impl(**{p: a[p] for p in known})

    f.__name__ = name
    f.__doc__ = "networkx's %s computed by tuccompi-apsp (see tuccompi.backend)." % name
    return f


class BackendInterface:
    """What networkx loads for backend="tuccompi"."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False, preserve_node_attrs=False,
                        preserve_graph_attrs=False, name=None, graph_name=None, **kwargs):
        return TuccompiGraph(G)

    @staticmethod
    def convert_to_nx(obj, *, name=None, **kwargs):
        return obj.G if isinstance(obj, TuccompiGraph) else obj

    # networkx 3.3 on takes a string as "no, because"; 3.2 takes any true value as yes
    if hasattr(nx.utils.backends, "_dispatchable"):
        can_run = staticmethod(can_run)
        should_run = staticmethod(should_run)
    else:
        can_run = staticmethod(lambda name, args, kwargs: can_run(name, args, kwargs) is True)
        should_run = staticmethod(lambda name, args, kwargs: should_run(name, args, kwargs) is True)


for _name in _SPEC:
    setattr(BackendInterface, _name, staticmethod(_dispatched(_name, globals()["_" + _name])))
