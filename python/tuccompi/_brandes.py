"""Brandes' dependencies in numpy, from the program's distance rows: the edge betweenness of the
networkx backend where tuccompi-apsp has no --edge-betweenness, and the counts of sources that
reach each vertex (betweenness with endpoints)."""

import numpy as np


def edge_sums(r, c, w, n, sources, rows):
    """For each arc r[i] -> c[i] (weights w > 0), the sum over the sources s (rows: their
    distances, int64, -1 unreachable) of sigma_s(r) / sigma_s(c) * (1 + delta_s(c)), its share of
    the shortest paths from s (networkx's _accumulate_edges)."""
    acc = np.zeros(len(r))
    for s, d in zip(sources, rows):
        tight = np.flatnonzero((d[r] >= 0) & (d[r] + w == d[c]))
        tr, tc = r[tight], c[tight]
        key = d[tc]
        o = np.argsort(key, kind="stable")
        tight, tr, tc, key = tight[o], tr[o], tc[o], key[o]
        cuts = np.concatenate(([0], np.flatnonzero(np.diff(key)) + 1, [len(key)]))
        sigma = np.zeros(n)
        sigma[s] = 1.0
        for lo, hi in zip(cuts[:-1], cuts[1:]):  # the arcs into one distance, in increasing order
            np.add.at(sigma, tc[lo:hi], sigma[tr[lo:hi]])
        delta = np.zeros(n)
        for lo, hi in zip(cuts[-2::-1], cuts[:0:-1]):
            x = sigma[tr[lo:hi]] / sigma[tc[lo:hi]] * (1.0 + delta[tc[lo:hi]])
            np.add.at(delta, tr[lo:hi], x)
            acc[tight[lo:hi]] += x
    return acc


def reach_counts(indptr, col, n, sources, directed):
    """How many of `sources` reach each vertex (itself excluded), from the arcs col of each
    vertex (indptr)."""
    import scipy.sparse as sp
    from scipy.sparse.csgraph import breadth_first_order, connected_components

    g = sp.csr_matrix((np.ones(len(col)), col, indptr), shape=(n, n))
    src = np.asarray(sources, dtype=np.int64)
    is_src = np.zeros(n, dtype=np.int64)
    is_src[src] = 1
    ncomp, label = connected_components(g, directed=directed, connection="strong")
    if not directed or ncomp == 1:
        per = np.bincount(label[src], minlength=ncomp)
        return per[label] - is_src
    counts = np.zeros(n, dtype=np.int64)
    for s in src.tolist():
        counts[breadth_first_order(g, s, directed=True, return_predecessors=False)] += 1
    return counts - is_src
