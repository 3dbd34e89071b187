"""One run of tuccompi-apsp for the networkx backend: the arcs of an Adjacency with scaled weights
go as a .tgb, the sources as a list in their order, the outputs come back as arrays."""

import os
import shutil
import subprocess
import tempfile
import weakref

import numpy as np

from . import _run, _write_tgb_arcs, read_table, tool_path

_help = {}


def tool_has(option):
    """Whether tuccompi-apsp --help lists `option`."""
    path = tool_path()
    if path not in _help:
        p = subprocess.run([path, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        _help[path] = p.stdout
    return (" " + option + " ") in _help[path] or (" " + option + "\n") in _help[path]


class Overflow(NotImplementedError):
    """The weights make distances of 2^31 or more: networkx computes them itself."""


def units():
    """The units the backend runs on: $TUCCOMPI_UNITS (all, cpu or gpu), default all."""
    u = os.environ.get("TUCCOMPI_UNITS", "all")
    if u not in ("all", "cpu", "gpu"):
        raise ValueError("TUCCOMPI_UNITS: 'all', 'cpu' or 'gpu', not %r" % (u,))
    return u


def run(adj, w, sources, reverse=False, table=False, rows=False, betweenness=False, edge_betweenness=False,
        targets=None):
    """Run the program on the arcs of `adj` (reversed: the distances *to* each source) weighing
    w.scaled, from `sources` (ids, in order, each once; None: every vertex). Returns a dict of
    what was asked: "table" (read_table's records), "rows" (|S| x n int64 distances, -1 where
    unreachable), "matrix" (the same to `targets`), "betweenness" (n sums), "edge_betweenness"
    (a sum per arc of the file), "arcs" (the file's arcs: sources, targets, in its order)."""
    out = {}
    with tempfile.TemporaryDirectory(prefix="tuccompi-nx-") as tmp:
        path, out["arcs"] = graph_file(adj, w, reverse)
        args = [tool_path(), path, "--sources", _sources(sources, tmp), "--units", units(), "-q"]
        files = {}
        for key, want, name in (("table", table, "table.csv"), ("rows", rows, "rows.npy"),
                                ("betweenness", betweenness, "bc.npy"),
                                ("edge_betweenness", edge_betweenness, "ebc.npy"),
                                ("matrix", targets is not None, "matrix.npy")):
            if want:
                files[key] = os.path.join(tmp, name)
                args += [{"table": "-o", "rows": "--rows", "betweenness": "--betweenness",
                          "edge_betweenness": "--edge-betweenness", "matrix": "--matrix"}[key], files[key]]
        if targets is not None:
            args += ["--targets", _sources(targets, tmp, "targets")]
        try:
            _run(args)
        except RuntimeError as e:
            if "reach 2^31" in str(e):
                raise Overflow(str(e)) from None
            raise
        for key, f in files.items():
            if key == "table":
                out[key] = read_table(f)
            else:
                a = np.load(f)
                if key in ("rows", "matrix"):
                    a = np.where(np.isinf(a), -1, a).astype(np.int64)
                out[key] = a
    return out


def graph_file(adj, w, reverse):
    """The .tgb of the arcs of `adj` (reversed) weighing w.scaled, and its arcs (sources, targets,
    weights in the file's order): written once per Weights (which the conversion's cache keeps), in
    a folder removed with them."""
    files = w.__dict__.setdefault("files", {})
    f = files.get(reverse)
    if f is None or not os.path.exists(f[0]):
        r, c = (adj.col, adj.row) if reverse else (adj.row, adj.col)
        d = tempfile.mkdtemp(prefix="tuccompi-nx-")
        weakref.finalize(w, shutil.rmtree, d, True)
        path = os.path.join(d, "graph.tgb")
        f = files[reverse] = (path, _write_tgb_arcs(adj.n, r, c, w.scaled, path))
    return f


def _sources(ids, tmp, what="sources"):
    if ids is None:
        return "all"
    ids = np.asarray(ids, dtype=np.int64)
    if len(ids) == 1:
        return "%d-%d" % (ids[0], ids[0])
    if len(ids) and (np.diff(ids) == 1).all():
        return "%d-%d" % (ids[0], ids[-1])
    path = os.path.join(tmp, what + ".txt")
    np.savetxt(path, ids, fmt="%d")
    return "file:" + path
