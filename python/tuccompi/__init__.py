"""tuccompi: many-source shortest paths from Python, computed by tuccompi-apsp.

    import scipy.sparse, tuccompi
    D = tuccompi.shortest_paths(G, sources=[0, 5, 9])   # like scipy.sparse.csgraph.dijkstra(G, indices=...)
    M = tuccompi.shortest_paths(G, sources=S, targets=T)  # dijkstra(G, indices=S)[:, T], no full rows
    D, P = tuccompi.shortest_paths(G, sources=S, predecessors=True)  # ... return_predecessors=True

The module drives the tuccompi-apsp program (every CPU core and GPU of the machine) and returns
numpy arrays shaped as scipy.sparse.csgraph.dijkstra returns them. A scipy.sparse matrix goes to
the program as a binary graph file (.tgb, no text); results come back as .npy files: full rows
(--rows), the targets' columns alone (--matrix), the predecessors (--pred).

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

import numpy as np

__all__ = ["shortest_paths", "tool_path"]

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
    """Write the CSR matrix `g` as a .tgb file: rows sorted, self-loops dropped, duplicate arcs
    merged keeping the lightest (as the engines and scipy's dijkstra see them), infinite weights
    dropped (no path uses them). Refuses weights that the engines cannot take."""
    n = g.shape[0]
    coo = g.tocoo()
    r, c, w = coo.row.astype(np.int64), coo.col.astype(np.int64), coo.data
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
    if units not in ("all", "cpu", "gpu"):
        raise ValueError("units: 'all', 'cpu' or 'gpu', not %r" % (units,))
    with tempfile.TemporaryDirectory(prefix="tuccompi-") as tmp:
        if isinstance(graph, (str, bytes, os.PathLike)):
            path, n = os.fspath(graph), None
            if isinstance(path, bytes):
                path = os.fsdecode(path)
        else:
            g = _csr(graph)
            n = g.shape[0]
            path = os.path.join(tmp, "graph.tgb")
            _write_tgb(g, path)
        scalar = False
        if sources is None:
            spec, inverse = "all", None
        else:
            src, scalar = _ids("sources", sources, n)
            if src.size == 0:
                raise ValueError("sources: empty; give None for every vertex")
            uniq, inverse = np.unique(src, return_inverse=True)
            spec = _spec("sources", uniq, tmp)
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
    if inverse is not None and not (len(inverse) == d.shape[0] and (inverse == np.arange(len(inverse))).all()):
        d = d[inverse]
        p = p[inverse] if p is not None else None
    if targets is not None:
        d = d[:, tinverse]
    if scalar:
        d = d[0]
        p = p[0] if p is not None else None
    return (d, p) if predecessors else d
