"""The order in which networkx's searches settle vertices, rebuilt from the program's distances, so
that the backend's dicts have networkx's keys in networkx's order.

networkx's Dijkstra (_dijkstra_multisource) pops (distance, push counter, vertex) from a heap, and
a vertex's last push is made by the first of its tight predecessors (d(p) + w(p, v) = d(v)) to be
popped, when it scans its adjacency; its breadth-first search (_single_shortest_path_length)
appends a vertex when the first vertex of the level before that has it as a neighbour scans it.
Both settle the vertices by (distance, rank of that predecessor, position of the vertex in its
adjacency). Vertices at distinct distances are in distance order; only ties need the ranks of the
predecessors, which are settled before (at a smaller distance), or, through arcs of weight 0, in
the same tie: there a small heap replays networkx's pops.
"""

import heapq

import numpy as np

_SMALL = 16  # ties of at most this many vertices are ordered in Python, larger ones with numpy


def settle_order(indptr, row, col, w, d, source):
    """The vertices v with d[v] >= 0 in the order networkx settles them from `source`, searching
    the arcs row -> col (indptr: the arcs of each vertex, in the adjacency's order) of weights w
    (the breadth-first search: every weight 1), d the distances (int64, -1: not reached)."""
    reached = np.flatnonzero(d >= 0)
    order = reached[np.argsort(d[reached], kind="stable")]
    k = len(order)
    if k <= 1:
        return order
    dd = d[order]
    cut = np.flatnonzero(dd[1:] != dd[:-1]) + 1
    starts = np.concatenate(([0], cut))
    ends = np.concatenate((cut, [k]))
    tie = np.flatnonzero(ends - starts > 1)
    if len(tie) == 0:
        return order
    n = len(d)
    rank = np.full(n, -1, dtype=np.int64)
    rank[order] = np.arange(k)
    sizes = ends[tie] - starts[tie]
    first = np.repeat(starts[tie] - np.concatenate(([0], np.cumsum(sizes)[:-1])), sizes)
    group = np.full(n, -1, dtype=np.int64)
    group[order[first + np.arange(int(sizes.sum()))]] = np.repeat(np.arange(len(tie)), sizes)
    dr = d[row]
    ok = (group[col] >= 0) & (dr >= 0) & (row != col) & (col != source)
    ok &= dr + w == d[col]
    arcs = np.flatnonzero(ok)
    ar, ac = row[arcs], col[arcs]
    ap = arcs - indptr[ar]
    g = group[ac]
    o = np.argsort(g, kind="stable")
    ar, ac, ap, g = ar[o], ac[o], ap[o], g[o]
    bounds = np.searchsorted(g, np.arange(len(tie) + 1))
    for gi in range(len(tie)):
        lo, hi = int(starts[tie[gi]]), int(ends[tie[gi]])
        a0, a1 = bounds[gi], bounds[gi + 1]
        xr, xc, xp = ar[a0:a1], ac[a0:a1], ap[a0:a1]
        if (d[xr] == dd[lo]).any() or (lo == 0 and d[source] == 0):
            new = _replay(order[lo:hi], xr, xc, xp, rank, dd[lo], d, source, lo)
        elif hi - lo <= _SMALL:
            best = {}
            for r, c, p in zip(rank[xr].tolist(), xc.tolist(), xp.tolist()):
                if c not in best or (r, p) < best[c]:
                    best[c] = (r, p)
            new = sorted(best, key=best.__getitem__)
        else:
            rk = rank[xr]
            o = np.lexsort((xp, rk, xc))
            keep = np.concatenate(([True], xc[o][1:] != xc[o][:-1]))
            sel = o[keep]
            new = xc[sel][np.lexsort((xp[sel], rk[sel]))]
        if len(new) != hi - lo:
            raise RuntimeError("tuccompi: the distances do not make a shortest-path order (%d of %d vertices "
                               "at distance %d)" % (len(new), hi - lo, dd[lo]))
        order[lo:hi] = new
        rank[order[lo:hi]] = np.arange(lo, hi)
    return order


def _replay(members, xr, xc, xp, rank, dist, d, source, lo):
    """networkx's pops among `members` (all at distance dist), some reached from others through
    arcs of weight 0: a vertex's key is (rank of the vertex that pushed it, its position in that
    one's adjacency); a push from a vertex of this tie comes after every push before it."""
    best, inner = {}, {}
    for r, c, p, rd in zip(xr.tolist(), xc.tolist(), xp.tolist(), d[xr].tolist()):
        if rd == dist:
            inner.setdefault(r, []).append((c, p))
        else:
            key = (int(rank[r]), p)
            if c not in best or key < best[c]:
                best[c] = key
    if d[source] == dist:
        best[int(source)] = (-1, -1)
    heap = [(key, v) for v, key in best.items()]
    heapq.heapify(heap)
    done, new, pos = set(), [], lo
    while heap:
        key, v = heapq.heappop(heap)
        if v in done or best[v] != key:
            continue
        done.add(v)
        new.append(v)
        rank[v] = pos
        for c, p in inner.get(v, ()):
            if c not in done and (c not in best or (pos, p) < best[c]):
                best[c] = (pos, p)
                heapq.heappush(heap, ((pos, p), c))
        pos += 1
    if len(new) != len(members) or set(new) != set(members.tolist()):
        return []
    return new
