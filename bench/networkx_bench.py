#!/usr/bin/env python3
"""networkx_bench.py [OPTIONS]: networkx, its tuccompi backend, NetworKit and igraph on the same graphs
and sources, in one run, and the ratios of their rates (sources per second).

  betweenness  nx.betweenness_centrality(G, k=K, seed=SEED, weight="weight", backend="tuccompi")
               on --graph (default road:1048576, a DiGraph of the generator's arcs): the K sources
               that networkx samples; networkx itself on NX_K of them (betweenness_centrality_subset,
               extrapolated per source: a whole run takes hours), igraph on IG_K of them
               (Graph.betweenness(sources=...)), NetworKit's EstimateBetweenness on K sources of its
               own sampling (every thread: it takes no list). The backend's values on the NX_K
               sources are checked against networkx's (tuccompi.betweenness, 1e-9 relative).
  closeness    nx.closeness_centrality(G, distance="weight", backend="tuccompi") of every vertex of
               --closeness-graph (default road:100000); networkx on NX_K vertices (closeness_centrality
               (G, u=...)), igraph on IG_K (mode="in"), NetworKit's Closeness of every vertex (every
               thread) where n <= NK_K, else its SPSP from NK_K sources (the same distances: its
               Closeness takes no subset); the backend's values checked against networkx's on NX_K.

The backend's time is the whole call (the conversion of G, writing the graph, the program's start,
the run, the dict), the first call and a second one (the conversion cached on G). Libraries that are
not installed are skipped. Prints one line per library and function: seconds, sources, sources/s
and the backend's rate over it. Environment: TUCCOMPI_APSP (the program), GRAPHTOOL (the
generator, default: tuccompi-graph beside it), TUCCOMPI_UNITS (the backend's units, default all).
"""

import argparse
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

_HEADER = struct.Struct("=8sIIIIQIIdQqqQ")


def read_tgb(path):
    """The arcs (u, v, w) of a .tgb file as int64 arrays, and n."""
    with open(path, "rb") as f:
        h = _HEADER.unpack(f.read(_HEADER.size))
        n, m = h[3], h[5]
        rowptr = np.fromfile(f, dtype="=u8", count=n + 1)
        col = np.fromfile(f, dtype="=u4", count=m)
        w = np.fromfile(f, dtype="=u4", count=m)
    u = np.repeat(np.arange(n, dtype=np.int64), np.diff(rowptr).astype(np.int64))
    return n, u, col.astype(np.int64), w.astype(np.int64)


def graph(spec, tmp):
    """The arcs of a graph file or of a generator spec of tuccompi-graph gen (seed 1)."""
    if os.path.exists(spec) and spec.endswith(".tgb"):
        return read_tgb(spec)
    import tuccompi

    gen = os.environ.get("GRAPHTOOL") or os.path.join(os.path.dirname(tuccompi.tool_path()), "tuccompi-graph")
    out = os.path.join(tmp, "g.tgb")
    if os.path.exists(spec):
        subprocess.run([gen, "convert", spec, out], check=True, stdout=subprocess.DEVNULL)
    else:
        subprocess.run([gen, "gen", spec, "--seed", "1", "-o", out], check=True, stdout=subprocess.DEVNULL)
    return read_tgb(out)


def timed(f, *a, **kw):
    t = time.perf_counter()
    r = f(*a, **kw)
    return r, time.perf_counter() - t


class Table:
    def __init__(self):
        self.rows = []

    def add(self, fn, lib, seconds, sources, note=""):
        self.rows.append((fn, lib, seconds, sources, note))
        print("%-12s %-22s %10.3f s %9d sources %12.2f sources/s  %s" % (fn, lib, seconds, sources,
              sources / seconds if seconds > 0 else float("inf"), note), flush=True)

    def ratios(self):
        print("\nratios (the backend's sources/s over each; first call, then with the conversion cached):")
        for fn in dict.fromkeys(r[0] for r in self.rows):
            rows = [r for r in self.rows if r[0] == fn]
            ours = [r for r in rows if r[1].startswith("tuccompi")]
            for o in ours:
                rate = o[3] / o[2]
                for r in rows:
                    if not r[1].startswith("tuccompi") and r[2] > 0:
                        print("  %-12s %-22s over %-18s %8.1fx" % (fn, o[1], r[1], rate / (r[3] / r[2])))


def nx_graph(n, u, v, w):
    import networkx as nx

    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(u.tolist(), v.tolist(), w.tolist()))
    return G


def networkit_graph(n, u, v, w):
    import networkit as nk

    try:
        return nk.graph.GraphFromCoo((w.astype(np.float64), (u.astype(np.uint64), v.astype(np.uint64))), n=n,
                                     directed=True, weighted=True)
    except (AttributeError, TypeError):
        g = nk.Graph(n, weighted=True, directed=True)
        for a, b, x in zip(u.tolist(), v.tolist(), w.tolist()):
            g.addEdge(a, b, x)
        return g


def igraph_graph(n, u, v, w):
    import igraph as ig

    g = ig.Graph(n=n, edges=np.column_stack((u, v)).tolist(), directed=True)
    g.es["weight"] = w.tolist()
    return g


def have(mod):
    try:
        __import__(mod)
        return True
    except ImportError:
        print("(%s is not installed: skipped)" % mod)
        return False


def close(a, b, what):
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    bad = np.abs(a - b) > 1e-9 * np.maximum(np.abs(b), 1.0)
    print("check: %s: %s" % (what, "equal to 1e-9 relative" if not bad.any() else
                             "%d of %d values differ, e.g. %r against %r" % (bad.sum(), len(a), a[bad][0], b[bad][0])))
    return not bad.any()


def bench_betweenness(args, tab, tmp):
    import networkx as nx

    import tuccompi

    n, u, v, w = graph(args.graph, tmp)
    print("\n== betweenness on %s: %d vertices, %d arcs, k=%d" % (args.graph, n, len(u), args.k), flush=True)
    G, t = timed(nx_graph, n, u, v, w)
    print("(networkx graph built in %.1f s)" % t)
    sources = random.Random(args.seed).sample(list(G.nodes()), args.k)  # what networkx samples with seed=SEED
    ok = True
    for call in ("first call", "cached"):
        bc, t = timed(nx.betweenness_centrality, G, k=args.k, seed=args.seed, weight="weight", backend="tuccompi")
        tab.add("betweenness", "tuccompi (%s)" % call, t, args.k)
    if have("scipy"):
        import scipy.sparse as sp

        M = sp.csr_matrix((w.astype(np.float64), (u, v)), shape=(n, n))
        mine, t = timed(tuccompi.betweenness, M, sources=sorted(sources))
        tab.add("betweenness", "tuccompi.betweenness", t, args.k, "(the plain function, a scipy matrix)")
    few = sources[:args.nx_k]
    ref, t = timed(nx.betweenness_centrality_subset, G, few, list(G), normalized=False, weight="weight")
    tab.add("betweenness", "networkx", t, len(few), "(%d of the sources, extrapolated)" % len(few))
    if have("scipy"):
        part = tuccompi.betweenness(M, sources=few)
        ok &= close(part, [ref[x] for x in range(n)], "the backend's sums from %d sources against networkx's" % len(few))
    if have("networkit"):
        import networkit as nk

        g = networkit_graph(n, u, v, w)
        est = nk.centrality.EstimateBetweenness(g, args.k, False, True)
        _, t = timed(est.run)
        tab.add("betweenness", "networkit", t, args.k, "(EstimateBetweenness, %d threads, its own sample)"
                % nk.getMaxNumberOfThreads())
    if have("igraph"):
        g = igraph_graph(n, u, v, w)
        try:
            got, t = timed(g.betweenness, directed=True, weights="weight", sources=sources[:args.ig_k])
            tab.add("betweenness", "igraph", t, args.ig_k, "(%d of the sources, one core)" % args.ig_k)
        except TypeError:
            print("(igraph without sources=: skipped)")
    return ok


def bench_closeness(args, tab, tmp):
    import networkx as nx

    n, u, v, w = graph(args.closeness_graph, tmp)
    print("\n== closeness of every vertex of %s: %d vertices, %d arcs" % (args.closeness_graph, n, len(u)), flush=True)
    G = nx_graph(n, u, v, w)
    ok = True
    for call in ("first call", "cached"):
        cc, t = timed(nx.closeness_centrality, G, distance="weight", backend="tuccompi")
        tab.add("closeness", "tuccompi (%s)" % call, t, n)
    few = random.Random(args.seed).sample(range(n), args.nx_k)
    ref = {}
    t0 = time.perf_counter()
    for x in few:
        ref[x] = nx.closeness_centrality(G, u=x, distance="weight")
    tab.add("closeness", "networkx", time.perf_counter() - t0, len(few), "(%d vertices, extrapolated)" % len(few))
    ok &= close([cc[x] for x in few], [ref[x] for x in few], "the backend's closeness against networkx's on %d"
                % len(few))
    if have("networkit"):
        import networkit as nk

        g = networkit_graph(n, u, v, w)
        if n <= args.nk_k:
            c = nk.centrality.Closeness(g, True, nk.centrality.ClosenessVariant.Generalized)
            _, t = timed(c.run)
            tab.add("closeness", "networkit", t, n, "(Closeness, generalized, %d threads; outgoing distances)"
                    % nk.getMaxNumberOfThreads())
        else:  # its Closeness takes every vertex: the distances of NK_K sources (SPSP), closeness's work
            some = random.Random(args.seed + 2).sample(range(n), args.nk_k)
            c = nk.distance.SPSP(g, some)
            _, t = timed(c.run)
            tab.add("closeness", "networkit", t, len(some), "(SPSP: the distances of %d sources, %d threads)"
                    % (len(some), nk.getMaxNumberOfThreads()))
    if have("igraph"):
        g = igraph_graph(n, u, v, w)
        some = random.Random(args.seed + 1).sample(range(n), min(args.ig_k, n))
        _, t = timed(g.closeness, vertices=some, mode="in", weights="weight")
        tab.add("closeness", "igraph", t, len(some), "(%d vertices, one core)" % len(some))
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--graph", default="road:1048576", help="betweenness: a generator spec or a graph file")
    p.add_argument("--closeness-graph", default="road:100000")
    p.add_argument("--k", type=int, default=1024, help="sources of betweenness")
    p.add_argument("--nx-k", type=int, default=4, help="sources networkx runs (extrapolated)")
    p.add_argument("--ig-k", type=int, default=16, help="sources igraph runs")
    p.add_argument("--nk-k", type=int, default=1024, help="closeness: NetworKit's sources (SPSP) when fewer than n")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", choices=("betweenness", "closeness"))
    args = p.parse_args()
    import networkx as nx

    import tuccompi

    print("networkx %s, tuccompi-apsp %s, %d cores, units %s" % (nx.__version__, tuccompi.tool_path(),
          os.cpu_count(), os.environ.get("TUCCOMPI_UNITS", "all")))
    if "tuccompi" not in nx.utils.backends.backends:
        sys.exit("networkx does not see the tuccompi backend: put python/ (with tuccompi.dist-info) on PYTHONPATH")
    nx.config.warnings_to_ignore.add("cache")
    tab = Table()
    tmp = tempfile.mkdtemp(prefix="bench-networkx-")
    ok = True
    try:
        if args.only in (None, "betweenness"):
            ok &= bench_betweenness(args, tab, tmp)
        if args.only in (None, "closeness"):
            ok &= bench_closeness(args, tab, tmp)
    finally:
        shutil.rmtree(tmp)
    tab.ratios()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
