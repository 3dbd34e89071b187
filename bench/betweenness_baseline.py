#!/usr/bin/python3
"""betweenness_baseline.py LIB GRAPH.gr SOURCES OUT.npy: betweenness from the sources listed in
SOURCES (a file: one vertex id per line, from 0; or the word all) to every target, unnormalised, directed,
with the graph's weights, by LIB = networkx (betweenness_centrality, or _subset) or igraph
(Graph.betweenness; from a subset only where it takes sources=, python-igraph 0.11 on: exit 3
otherwise); writes the n values to OUT.npy and prints one line: LIB, sources, seconds to load the
DIMACS file, seconds to compute, sources per second. For bench/betweenness.sh (a baseline in the
same run as tuccompi's)."""
import sys
import time

import numpy


def read_gr(path):
    n, src, dst, w = 0, [], [], []
    with open(path) as f:
        for line in f:
            if line.startswith('a '):
                _, u, v, x = line.split()
                src.append(int(u) - 1)
                dst.append(int(v) - 1)
                w.append(int(x))
            elif line.startswith('p '):
                n = int(line.split()[2])
    return n, src, dst, w


def main():
    lib, gr, sources, out = sys.argv[1:5]
    t0 = time.time()
    n, s, d, w = read_gr(gr)
    words = open(sources).read().split()
    srcs = None if words == ['all'] else [int(x) for x in words]
    if lib == 'networkx':
        import networkx as nx
        g = nx.DiGraph()
        g.add_nodes_from(range(n))
        g.add_weighted_edges_from(zip(s, d, w))
        t1 = time.time()
        if srcs is None:
            bc = nx.betweenness_centrality(g, normalized=False, weight='weight')
        else:
            bc = nx.betweenness_centrality_subset(g, srcs, list(range(n)), normalized=False, weight='weight')
        vals = numpy.array([bc[v] for v in range(n)], dtype=numpy.float64)
    elif lib == 'igraph':
        import igraph
        g = igraph.Graph(n=n, edges=list(zip(s, d)), directed=True)
        g.es['weight'] = w
        t1 = time.time()
        try:
            got = g.betweenness(directed=True, weights='weight', **({} if srcs is None else {'sources': srcs}))
        except TypeError:
            print('igraph %s: no betweenness from a subset of sources (sources=)' % igraph.__version__)
            sys.exit(3)
        vals = numpy.array(got, dtype=numpy.float64)
    else:
        sys.exit('LIB: networkx or igraph')
    t2 = time.time()
    numpy.save(out, vals)
    k = n if srcs is None else len(srcs)
    print('%s: %d sources, load %.1f s, betweenness %.2f s: %.3f sources/s' % (lib, k, t1 - t0, t2 - t1, k / (t2 - t1)))


main()
