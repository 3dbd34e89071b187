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

def settle_order(indptr, row, col, w, d, source):
    """The vertices v with d[v] >= 0 in the order networkx settles them from `source`, searching
    the arcs row -> col (indptr: the arcs of each vertex, in the adjacency's order) of weights w
    (the breadth-first search: every weight 1), d the distances (int64, -1: not reached).

    Ties are ordered in batches: a run of consecutive ties none of whose predecessors lies in a
    tie of the same run is sorted at once (every predecessor's rank is then final); a tie reached
    through arcs of weight 0 from its own vertices is replayed alone."""
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
    nt = len(tie)
    if nt == 0:
        return order
    n = len(d)
    rank = np.full(n, -1, dtype=np.int64)
    rank[order] = np.arange(k)
    sizes = ends[tie] - starts[tie]
    cum = np.concatenate(([0], np.cumsum(sizes)))
    tiepos = np.repeat(starts[tie] - cum[:-1], sizes) + np.arange(int(cum[-1]))  # in group order
    group = np.full(n, -1, dtype=np.int64)
    group[order[tiepos]] = np.repeat(np.arange(nt), sizes)
    dr = d[row]
    ok = (group[col] >= 0) & (dr >= 0) & (row != col) & (col != source)
    ok &= dr + w == d[col]
    arcs = np.flatnonzero(ok)
    ar, ac = row[arcs], col[arcs]
    ap = arcs - indptr[ar]
    g = group[ac]
    o = np.argsort(g, kind="stable")
    ar, ac, ap, g = ar[o], ac[o], ap[o], g[o]
    bounds = np.searchsorted(g, np.arange(nt + 1))
    inner = np.zeros(nt, dtype=bool)  # ties reached from themselves through arcs of weight 0
    inner[g[d[ar] == d[ac]]] = True
    if d[source] == 0 and starts[tie[0]] == 0:
        inner[0] = True  # the source's tie
    dep = np.full(nt, -1, dtype=np.int64)  # the last tie that holds a predecessor
    np.maximum.at(dep, g, group[ar])

    def batch(ga, gb):
        a0, a1 = bounds[ga], bounds[gb]
        xr, xc, xp, xg = ar[a0:a1], ac[a0:a1], ap[a0:a1], g[a0:a1]
        rk = rank[xr]
        o = np.lexsort((xp, rk, xc))
        keep = np.concatenate(([True], xc[o][1:] != xc[o][:-1]))
        sel = o[keep]
        new = xc[sel][np.lexsort((xp[sel], rk[sel], xg[sel]))]
        pos = tiepos[cum[ga]:cum[gb]]
        if len(new) != len(pos):
            raise RuntimeError("tuccompi: the distances do not make a shortest-path order")
        order[pos] = new
        rank[new] = pos

    start = 0
    for gi, (own, last) in enumerate(zip(inner.tolist(), dep.tolist())):
        if own or last >= start:
            if gi > start:
                batch(start, gi)
            start = gi
        if own:
            lo, hi = int(starts[tie[gi]]), int(ends[tie[gi]])
            a0, a1 = bounds[gi], bounds[gi + 1]
            new = _replay(order[lo:hi], ar[a0:a1], ac[a0:a1], ap[a0:a1], rank, dd[lo], d, source, lo)
            if len(new) != hi - lo:
                raise RuntimeError("tuccompi: the distances do not make a shortest-path order")
            order[lo:hi] = new
            start = gi + 1
    if nt > start:
        batch(start, nt)
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
