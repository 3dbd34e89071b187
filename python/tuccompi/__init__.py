"""tuccompi: many-source shortest paths and centralities from Python, computed by tuccompi-apsp.

    import scipy.sparse, tuccompi
    D = tuccompi.shortest_paths(G, sources=[0, 5, 9])   # like scipy.sparse.csgraph.dijkstra(G, indices=...)
    M = tuccompi.shortest_paths(G, sources=S, targets=T)  # dijkstra(G, indices=S)[:, T], no full rows
    D, P = tuccompi.shortest_paths(G, sources=S, predecessors=True)  # ... return_predecessors=True
    b = tuccompi.betweenness(G, sources=S)   # Brandes' sums of every vertex from S (None: all)
    c = tuccompi.closeness(G)                # closeness and harmonic centrality of each source
    h = tuccompi.harmonic(G)

The module drives the tuccompi-apsp program (every CPU core and GPU of the machine) and returns
numpy arrays shaped as scipy.sparse.csgraph.dijkstra returns them. A scipy.sparse matrix goes to
the program as a binary graph file (.tgb, no text); results come back as .npy files: full rows
(--rows), the targets' columns alone (--matrix), the predecessors (--pred), the betweenness
(--betweenness), or the per-source table (-o).

networkx's own functions: tuccompi.backend is networkx's backend "tuccompi"
(nx.betweenness_centrality(G, backend="tuccompi"), or NETWORKX_BACKEND_PRIORITY=tuccompi).

Where the program is: $TUCCOMPI_APSP, else the one `make install` put beside this module's
installation (_install.py), else apps/apsp/tuccompi-apsp of the build tree this module sits in,
else tuccompi-apsp on $PATH.
"""

import os
import shutil
import struct
import subprocess
import tempfile
import warnings

try:
    import numpy as np
except ImportError:  # networkx reads the backend's info (tuccompi._nxinfo) without numpy
    np = None

__all__ = ["shortest_paths", "betweenness", "closeness", "harmonic", "read_table", "tool_path"]

# Limits of the engines (apps/apsp/graph/graph.h): integer weights, 32-bit ids.
MAX_WEIGHT = 1000000
MAX_VERTICES = 2**32 - 2

# The .tgb header (apps/apsp/graph/graph_tgb.h): native byte order, 80 bytes.
_TGB_HEADER = struct.Struct("=8sIIIIQIIdQqqQ")
_TGB_NO_CHECKSUM = 4  # written without the checksum, which Python cannot compute cheaply

# The arguments of the last run of the program (for tests and for reports of problems).
last_command = None


def tool_path():
    """The tuccompi-apsp program this module runs (see the module's docstring), or raise
    FileNotFoundError saying where it looked."""
    env = os.environ.get("TUCCOMPI_APSP")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    looked = []
    try:
        from . import _install

        looked.append(os.path.normpath(os.path.join(here, _install.BINDIR, "tuccompi-apsp")))
    except ImportError:
        pass
    looked.append(os.path.normpath(os.path.join(here, "..", "..", "apps", "apsp", "tuccompi-apsp")))
    for path in looked:
        if os.access(path, os.X_OK):
            return path
    found = shutil.which("tuccompi-apsp")
    if found:
        return found
    raise FileNotFoundError(
        "tuccompi-apsp not found (looked at %s and on PATH); install libtuccompi-starpu "
        "(make install) or set TUCCOMPI_APSP to the program" % ", ".join(looked)
    )


def _csr(graph):
    """scipy.sparse.csgraph's view of `graph`: a CSR matrix of float64, as its validate_graph
    makes it (a dense array's zeros, infinities and NaNs are no arc; a sparse matrix's explicit
    zeros are arcs of weight 0; COO duplicates are summed by the conversion, CSR ones kept)."""
    import scipy.sparse
    from scipy.sparse.csgraph import csgraph_from_dense

    if scipy.sparse.issparse(graph):
        g = scipy.sparse.csr_matrix(graph, dtype=np.float64)
    else:
        dense = np.asarray(graph, dtype=np.float64)
        if dense.ndim != 2:
            raise ValueError("graph: a square matrix or a file path, not an array of %d dimensions" % dense.ndim)
        g = csgraph_from_dense(dense, null_value=0, nan_null=True, infinity_null=True)
    if g.shape[0] != g.shape[1]:
        raise ValueError("graph: %d x %d is not square; the adjacency matrix of a graph is" % g.shape)
    if g.shape[0] == 0:
        raise ValueError("graph: no vertices")
    if g.shape[0] > MAX_VERTICES:
        raise ValueError("graph: %d vertices, at most %d" % (g.shape[0], MAX_VERTICES))
    return g


def _write_tgb(g, path):
    """Write the CSR matrix `g` as a .tgb file (see _write_tgb_arcs)."""
    coo = g.tocoo()
    _write_tgb_arcs(g.shape[0], coo.row, coo.col, coo.data, path)


def _write_tgb_arcs(n, r, c, w, path):
    """Write the arcs r[i] -> c[i] of weight w[i] of a graph of n vertices as a .tgb file: rows
    sorted, self-loops dropped, duplicate arcs merged keeping the lightest (as the engines and
    scipy's dijkstra see them), infinite weights dropped (no path uses them). Refuses weights that
    the engines cannot take. Returns the arcs written (sources, targets, weights), in the file's
    order."""
    r, c, w = np.asarray(r, dtype=np.int64), np.asarray(c, dtype=np.int64), np.asarray(w, dtype=np.float64)
    if np.isnan(w).any():
        raise ValueError("graph: a weight is NaN")
    if (w < 0).any():
        raise ValueError("graph: negative weights; shortest paths here need weights >= 0 (as scipy's dijkstra)")
    keep = (r != c) & np.isfinite(w)
    r, c, w = r[keep], c[keep], w[keep]
    if (w > MAX_WEIGHT).any():
        raise ValueError("graph: weight %g above the maximum %d; scale the weights down and the distances up"
                         % (w.max(), MAX_WEIGHT))
    if (w != np.round(w)).any():
        bad = w[w != np.round(w)][0]
        raise ValueError("graph: weight %r is not an integer; tuccompi's engines take integer weights 0..%d: scale "
                         "them (e.g. shortest_paths(G * 100) / 100 keeps two decimals)" % (float(bad), MAX_WEIGHT))
    order = np.lexsort((c, r))
    r, c, w = r[order], c[order], w[order].astype(np.uint32)
    if len(r):
        first = np.ones(len(r), dtype=bool)
        first[1:] = (r[1:] != r[:-1]) | (c[1:] != c[:-1])
        starts = np.flatnonzero(first)
        w = np.minimum.reduceat(w, starts)
        r, c = r[starts], c[starts]
    m = len(r)
    deg = np.bincount(r, minlength=n).astype(np.uint64)
    rowptr = np.zeros(n + 1, dtype=np.uint64)
    np.cumsum(deg, out=rowptr[1:])
    min_out = np.full(n, 0xFFFFFFFF, dtype=np.uint32)
    has = deg > 0
    if m:
        min_out[has] = np.minimum.reduceat(w, rowptr[:-1][has].astype(np.int64))
    max_w = int(w.max()) if m else 0
    header = _TGB_HEADER.pack(b"TUCGRAPH", 1, 0x01020304, n, max_w, m, _TGB_NO_CHECKSUM, 0, 0.0, 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(header)
        for a, t in ((rowptr, "=u8"), (c, "=u4"), (w, "=u4"), (min_out, "=u4")):
            f.write(np.ascontiguousarray(a, dtype=t).tobytes())
    return r, c, w


def _spec(what, ids, tmp):
    """The sorted distinct ids `ids` (int64, not empty) as a --sources/--targets SPEC: A-B for a
    range, else a list in a file (no limit on the command line)."""
    if ids[-1] - ids[0] + 1 == len(ids):
        return "%d-%d" % (ids[0], ids[-1])
    path = os.path.join(tmp, what + ".txt")
    np.savetxt(path, ids, fmt="%d")
    return "file:" + path


def _ids(what, ids, n):
    """`ids` (an int or a sequence) as an int64 array checked against n vertices (n None: not
    known yet), and whether it was a single int."""
    scalar = np.ndim(ids) == 0
    a = np.atleast_1d(np.asarray(ids))
    if a.ndim != 1 or (a.size and not np.issubdtype(a.dtype, np.integer)):
        raise ValueError("%s: vertex ids (integers from 0) or None" % what)
    a = a.astype(np.int64)
    if a.size and (a.min() < 0 or (n is not None and a.max() >= n)):
        raise ValueError("%s: ids are 0..%s" % (what, n - 1 if n is not None else "n-1"))
    return a, scalar


def _run(args):
    global last_command
    last_command = list(args)
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        raise RuntimeError("tuccompi-apsp failed (exit %d): %s" % (p.returncode, p.stderr.strip()))
    if p.stderr.strip():
        warnings.warn(p.stderr.strip(), RuntimeWarning, stacklevel=3)


def shortest_paths(graph, sources=None, targets=None, undirected=False, predecessors=False, units="all"):
    """Shortest-path distances from `sources`, as scipy.sparse.csgraph.dijkstra(graph,
    directed=not undirected, indices=sources, return_predecessors=predecessors) returns them
    (the distances' columns restricted to `targets`).

    graph       a scipy.sparse matrix (its entries are arcs, explicit zeros included), a dense
                array (zeros are no arc), or the path of a graph file that tuccompi-apsp reads
                (.gr, .mtx, .tgb, an edge list, METIS .graph, the text ones gzipped too:
                road.gr.gz; ids from 0, a .gr's vertex 1 is 0).
                Weights are integers 0..1000000.
    sources     None (every vertex), a vertex id, or a sequence of them (repeats allowed).
    targets     None (every vertex), or a sequence of ids (repeats allowed): the columns returned.
                Only these distances are computed into the result (tuccompi-apsp --matrix): no
                full rows, which a many-source run on a large graph could not hold.
    undirected  every arc also in the other direction (scipy's directed=False).
    predecessors  also return each source's shortest-path tree (tuccompi-apsp --pred): an int32
                array of n columns, the vertex before each on a shortest path, -9999 for the
                source and unreachable vertices, as scipy's (any tie-break: each row is a
                shortest-path tree). Full rows whatever `targets` says (a path needs them).
    units       "all" (CPU cores and GPUs), "cpu" or "gpu".

    Returns a float64 array, inf where unreachable: shape (len(sources), len(targets)), or
    (len(targets),) for a single source; n stands for len(targets) when targets is None. With
    predecessors=True, (distances, predecessors), the second of shape (len(sources), n) or (n,).
    """
    _check_units(units)
    with tempfile.TemporaryDirectory(prefix="tuccompi-") as tmp:
        path, n = _graph_path(graph, tmp)
        spec, inverse, scalar = _sources_spec(sources, n, tmp)
        args = [tool_path(), path, "--sources", spec, "--units", units, "-q"]
        if targets is not None:
            tgt, _ = _ids("targets", targets, n)
            if tgt.size == 0:
                raise ValueError("targets: empty; give None for every vertex")
            tuniq, tinverse = np.unique(tgt, return_inverse=True)
            out = os.path.join(tmp, "matrix.npy")
            args += ["--targets", _spec("targets", tuniq, tmp), "--matrix", out]
        else:
            out = os.path.join(tmp, "rows.npy")
            args += ["--rows", out]
        if predecessors:
            args += ["--pred", os.path.join(tmp, "pred.npy")]
        if undirected:
            args.append("--undirected")
        _run(args)
        d = np.load(out)
        p = np.load(args[args.index("--pred") + 1]) if predecessors else None
    d, p = _in_order(d, inverse, scalar), (_in_order(p, inverse, scalar) if p is not None else None)
    if targets is not None:
        d = d[..., tinverse]
    return (d, p) if predecessors else d


def _check_units(units):
    if np is None:
        raise ImportError("tuccompi needs numpy (apt-get install python3-numpy, or pip install numpy)")
    if units not in ("all", "cpu", "gpu"):
        raise ValueError("units: 'all', 'cpu' or 'gpu', not %r" % (units,))


def _graph_path(graph, tmp):
    """The graph file that the program reads for `graph` (a matrix goes as tmp/graph.tgb) and its
    number of vertices (None for a file of the user's: not known before the run)."""
    if isinstance(graph, (str, bytes, os.PathLike)):
        return os.fsdecode(os.fspath(graph)), None
    g = _csr(graph)
    path = os.path.join(tmp, "graph.tgb")
    _write_tgb(g, path)
    return path, g.shape[0]


def _sources_spec(sources, n, tmp):
    """--sources SPEC for `sources` (None: all), the index that puts the program's rows (sorted,
    distinct ids) back into the order given (None: they are in it), and whether it was one id."""
    if sources is None:
        return "all", None, False
    src, scalar = _ids("sources", sources, n)
    if src.size == 0:
        raise ValueError("sources: empty; give None for every vertex")
    uniq, inverse = np.unique(src, return_inverse=True)
    if len(inverse) == len(uniq) and (inverse == np.arange(len(inverse))).all():
        inverse = None
    return _spec("sources", uniq, tmp), inverse, scalar


def _in_order(a, inverse, scalar):
    """The program's per-source rows `a` in the order of the sources given."""
    if inverse is not None:
        a = a[inverse]
    return a[0] if scalar else a


# The columns of the program's -o table (tuccompi-apsp --help): integers, then two reals.
_TABLE = None if np is None else np.dtype([("source", np.int64), ("reached", np.int64), ("eccentricity", np.int64), ("sum", np.uint64),
                   ("mean", np.float64), ("harmonic", np.float64)])


def read_table(path):
    """The -o table that tuccompi-apsp wrote to `path` (CSV) as a numpy structured array, one
    record per source in the order of --sources: source, reached (the source counts), eccentricity
    and sum (integers: of the finite distances), mean, harmonic."""
    return np.atleast_1d(np.loadtxt(path, delimiter=",", skiprows=1, dtype=_TABLE))


def _tgb_vertices(path):
    with open(path, "rb") as f:
        return _TGB_HEADER.unpack(f.read(_TGB_HEADER.size))[3]


def _per_source(graph, sources, undirected, units, betweenness=False):
    """One run of the program for `sources` of `graph`: (its -o table in the order of the sources
    given, the number of vertices, the betweenness sums or None)."""
    _check_units(units)
    with tempfile.TemporaryDirectory(prefix="tuccompi-") as tmp:
        path, n = _graph_path(graph, tmp)
        spec, inverse, scalar = _sources_spec(sources, n, tmp)
        table = os.path.join(tmp, "table.csv")
        args = [tool_path(), path, "--sources", spec, "--units", units, "-q", "-o", table]
        if n is None and not path.lower().endswith(".tgb"):
            args += ["--cache", os.path.join(tmp, "cache.tgb")]
        if betweenness:
            args += ["--betweenness", os.path.join(tmp, "bc.npy")]
        if undirected:
            args.append("--undirected")
        _run(args)
        if n is None:
            n = _tgb_vertices(args[args.index("--cache") + 1] if "--cache" in args else path)
        t = read_table(table)
        bc = np.load(args[args.index("--betweenness") + 1]) if betweenness else None
    return _in_order(t, inverse, scalar), n, bc


def betweenness(graph, sources=None, undirected=False, units="all"):
    """Betweenness centrality of every vertex from `sources` (Brandes; tuccompi-apsp
    --betweenness): for each vertex v, the sum over the sources s and every target t != s, v of
    sigma_st(v) / sigma_st, the share of the shortest s-t paths through v. Unnormalised: with
    sources=None, networkx's betweenness_centrality(G, normalized=False, weight="weight") of a
    directed graph, and with undirected=True that of the undirected graph (each pair once, as
    networkx and igraph count it; a matrix that holds both arcs of each edge, read without
    undirected=True, counts each pair both ways: twice that).
    Exact: distances are integers, so equal-length paths tie exactly; arcs of weight 0 are
    counted exactly, a cycle of them (an undirected edge of weight 0 is one) is refused.

    graph, undirected, units  as for shortest_paths (weights are integers 0..1000000).
    sources     None (every vertex) or a sequence of distinct vertex ids: the sum over these
                only (multiply by n / len(sources) to estimate the whole).

    Returns a float64 array of n values.
    """
    _, _, bc = _per_source(graph, sources, undirected, units, betweenness=True)
    return bc


def closeness(graph, sources=None, undirected=False, wf_improved=True, units="all"):
    """Closeness centrality of each source from its distances to the others (tuccompi-apsp -o):
    (r - 1) / (the sum of the distances to the r - 1 vertices it reaches), times (r - 1) / (n - 1)
    with wf_improved (Wasserman and Faust's scaling for graphs in several parts), 0 where it
    reaches none. networkx's closeness_centrality uses the distances *to* each vertex on a
    directed graph: give the transposed matrix (graph.T) for its values.

    graph, undirected, units  as for shortest_paths.
    sources     None (every vertex), a vertex id, or a sequence of them.

    Returns a float64 array: one value per source (a float for a single id).
    """
    t, n, _ = _per_source(graph, sources, undirected, units)
    r = t["reached"].astype(np.float64) - 1.0
    tot = t["sum"].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        c = np.where(tot > 0, r / tot, 0.0)
        if wf_improved:
            c = c * (r / (n - 1) if n > 1 else 0.0)
    return c if np.ndim(c) else float(c)


def harmonic(graph, sources=None, undirected=False, units="all"):
    """Harmonic centrality of each source from its distances to the others (tuccompi-apsp -o):
    the sum of 1/d over the vertices it reaches at d > 0. networkx's harmonic_centrality sums the
    distances *to* each vertex: give the transposed matrix (graph.T) for its values of a directed
    graph. The program writes the sums to 12 significant digits.

    graph, undirected, units  as for shortest_paths.
    sources     None (every vertex), a vertex id, or a sequence of them.

    Returns a float64 array: one value per source (a float for a single id).
    """
    t, _, _ = _per_source(graph, sources, undirected, units)
    h = t["harmonic"]
    return h if np.ndim(h) else float(h)
