"""A networkx graph as the tuccompi backend hands it to tuccompi-apsp: its nodes mapped to ids
0..n-1 in the graph's order, its arcs in the order of its adjacency (both arcs of each edge of an
undirected graph, one arc per neighbour of a multigraph), and, per weight attribute, the arcs'
weights as networkx reads them (data.get(weight, 1); the lightest parallel edge of a multigraph)
scaled to the program's integers exactly, or the reason why they cannot be.

The arrays of a graph and its weights are kept in G.__networkx_cache__ (networkx clears it when
the graph changes through its methods), unless networkx says not to cache conversions or runs its
own tests (which change graphs behind its back).
"""

import numpy as np

from . import MAX_WEIGHT

_INTS = (int, np.integer)  # bool is an int
_FLOATS = (float, np.floating)


class Adjacency:
    """The nodes and arcs of a networkx graph (one direction: successors, or predecessors)."""

    def __init__(self, G, adj, nodes=None, index=None):
        self.nodes = list(G) if nodes is None else nodes
        self.index = {u: i for i, u in enumerate(self.nodes)} if index is None else index
        self.n = len(self.nodes)
        deg = np.fromiter((len(nbrs) for nbrs in adj.values()), dtype=np.int64, count=self.n)
        self.indptr = np.zeros(self.n + 1, dtype=np.int64)
        np.cumsum(deg, out=self.indptr[1:])
        m = int(self.indptr[-1])
        index = self.index
        self.col = np.fromiter((index[v] for nbrs in adj.values() for v in nbrs), dtype=np.int64, count=m)
        self.row = np.repeat(np.arange(self.n, dtype=np.int64), deg)
        self._adj = adj
        self._weights = {}

    @property
    def m(self):
        return len(self.col)

    def weights(self, attr, multigraph):
        """The Weights of the arcs for the attribute `attr` (None: every arc weighs 1)."""
        w = self._weights.get(attr)
        if w is None:
            if attr is None:
                values = None
            elif multigraph:
                values = [min(e.get(attr, 1) for e in keys.values()) for nbrs in self._adj.values()
                          for keys in nbrs.values()]
            else:
                values = [d.get(attr, 1) for nbrs in self._adj.values() for d in nbrs.values()]
            w = self._weights[attr] = Weights(values, self.row, self.col, self.n)
        return w


class Weights:
    """The arcs' weights for one attribute and how the program can take them.

    kind     "int" (every weight an integer: networkx's distances are ints), "float" (every one a
             float: its distances are floats but the source's 0), "mixed" (both: the type of a
             distance depends on the path), or None (not numbers).
    problem  why the program cannot compute with them (None when it can).
    scaled   int64 weights w * den / num, integers 0..MAX_WEIGHT; a distance d of the program is
             d * num / den of networkx.
    exact    den is a power of two (or 1) and no distance needs more than 53 bits: networkx's
             float sums of these weights are exact, so its ties are the program's (what
             betweenness needs); else the distances agree to a rounding.
    max      the largest scaled weight.
    zero     some arc (self-loops included) weighs 0.
    """

    def __init__(self, values, row, col, n):
        self.problem = None
        self.kind = "int"
        self.num, self.den, self.exact, self.zero = 1, 1, True, False
        if values is None:
            self.scaled = np.ones(len(row), dtype=np.int64)
            self.max = 1 if len(row) else 0
            return
        types = set(map(type, values))
        ints = all(issubclass(t, _INTS) for t in types)
        floats = all(issubclass(t, _FLOATS) for t in types)
        numbers = all(issubclass(t, _INTS + _FLOATS) for t in types)
        self.kind = "int" if ints else "float" if floats else "mixed" if numbers else None
        self.scaled = None
        if self.kind is None:
            self.problem = "weights of type %s" % ", ".join(sorted(t.__name__ for t in types
                                                                   if not issubclass(t, _INTS + _FLOATS)))
            return
        try:
            w = np.array(values, dtype=np.float64)
        except OverflowError:
            self.problem = "a weight too large for a float"
            return
        if np.isnan(w).any() or np.isinf(w).any():
            self.problem = "a weight is NaN or infinite"
            return
        if (w < 0).any():
            self.problem = "negative weights"
            return
        self.zero = bool((w == 0).any())
        scale = _scale(w[row != col])
        if scale is None:
            self.problem = ("weights that no scale makes integers 0..%d (as tuccompi's engines take them) "
                            "exactly" % MAX_WEIGHT)
            return
        self.num, self.den, exact = scale
        self.scaled = np.rint(w * self.den / self.num).astype(np.int64)
        self.scaled[row == col] = 0  # no path takes a self-loop
        self.max = int(self.scaled.max()) if len(self.scaled) else 0
        # networkx's sums are exact where every distance, in steps of 1/den, stays below 2^53
        self.exact = exact and max(n - 1, 0) * self.max * self.num < 2 ** 53

    def distances(self, d):
        """The program's distances d (an int64 array of reached vertices) as networkx writes
        them: Python ints (kind "int") or floats."""
        if self.kind == "int":
            return [x * self.num for x in d.tolist()] if self.num != 1 else d.tolist()
        return self.real(d).tolist()

    def real(self, d):
        """The program's distances d (integers, any shape) in networkx's units, as float64."""
        return np.asarray(d, dtype=np.float64) * self.num / self.den


def _scale(w):
    """(num, den, exact) such that w * den / num are integers 0..MAX_WEIGHT, or None: den the
    smallest power of two (exact) that makes every weight an integer if one does, else the smallest
    power of ten up to 10^6 under which every weight is the float nearest a decimal; num the
    integers' greatest common divisor."""
    pos = w[w > 0]
    if len(pos) == 0:
        return 1, 1, True
    mant, ex = np.frexp(pos)  # pos = mant * 2^ex, mant * 2^53 an integer
    bits = (mant * 2.0 ** 53).astype(np.int64)
    low = np.log2(bits & -bits).astype(np.int64)  # the lowest set bit of each
    e = int(max(0, (53 - ex - low).max()))
    tries = [(1 << e, True)] if e < 62 else []
    tries += [(10 ** k, False) for k in range(1, 7)]
    for den, exact in tries:
        x = pos * den
        if x.max() > 2.0 ** 62:
            continue
        ints = np.rint(x)
        if (ints == x).all() if exact else (ints / den == pos).all():
            ints = ints.astype(np.int64)
            g = int(np.gcd.reduce(ints))
            if ints.max() // g <= MAX_WEIGHT:
                return g, den, exact
    return None


def _cache_allowed():
    import networkx as nx

    cfg = getattr(nx, "config", None)
    if cfg is not None and not getattr(cfg, "cache_converted_graphs", True):
        return False
    backends = getattr(nx.utils, "backends", None)
    disp = getattr(backends, "_dispatchable", None) or getattr(backends, "_dispatch", None)
    return not getattr(disp, "_is_testing", False)


# The graph that can_run looked at last, and its arrays, where there is no cache: the conversion
# of the same call takes them (once: the graph may change before the next call).
_last = [None, None]


def store(G, fresh):
    """The dict that holds the arrays of networkx graph G: its entry of G.__networkx_cache__, else
    can_run's (fresh: new ones) for the conversion that follows it."""
    cache = getattr(G, "__networkx_cache__", None) if _cache_allowed() else None
    if cache is not None:
        return cache.setdefault("tuccompi", {})
    if fresh:
        _last[0], _last[1] = G, {}
        return _last[1]
    data = _last[1] if _last[0] is G else {}
    _last[0] = _last[1] = None
    return data


def adjacency(G, reverse=False, data=None):
    """The Adjacency of networkx graph G (of its predecessors when reverse, for a DiGraph), kept
    in `data` (store(G, ...))."""
    key = "pred" if reverse else "succ"
    a = data.get(key)
    if a is None:
        if reverse:
            succ = adjacency(G, False, data)
            a = Adjacency(G, G._pred, succ.nodes, succ.index)
        else:
            a = Adjacency(G, G._adj)
        data[key] = a
    return a


class TuccompiGraph:
    """What convert_from_nx returns: the networkx graph and its arrays."""

    __networkx_backend__ = "tuccompi"

    def __init__(self, G):
        self.G = G
        self._data = store(G, False)
        self.adj = adjacency(G, False, self._data)

    def reverse_adj(self):
        """The Adjacency of the predecessors (a DiGraph's; an undirected graph's own)."""
        return adjacency(self.G, True, self._data) if self.G.is_directed() else self.adj

    def is_directed(self):
        return self.G.is_directed()

    def is_multigraph(self):
        return self.G.is_multigraph()

    def __len__(self):
        return self.adj.n

    def __contains__(self, u):
        return u in self.G

    def __iter__(self):
        return iter(self.adj.nodes)
