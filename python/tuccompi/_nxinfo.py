"""networkx.backend_info of the tuccompi backend (what networkx's docs of each function say about
it). networkx calls get_info while it imports itself: nothing here imports networkx or numpy."""

_FUNCTIONS = {
    "betweenness_centrality": "The sums of Brandes' dependencies by tuccompi-apsp --betweenness (exact path "
                              "counts on integer distances), rescaled by networkx; k sources sampled as networkx "
                              "samples them.",
    "edge_betweenness_centrality": "Brandes' sums per arc, rescaled by networkx.",
    "closeness_centrality": "From the sums of the distances to each node (the program's per-source table).",
    "harmonic_centrality": "From the distances to each node.",
    "single_source_dijkstra_path_length": "One source; the dict in networkx's order.",
    "single_source_shortest_path_length": "One source; the dict in networkx's order.",
    "all_pairs_dijkstra_path_length": "Rows of sources at a time.",
    "all_pairs_shortest_path_length": "Rows of sources at a time.",
    "shortest_path_length": "Dijkstra or breadth-first; method='bellman-ford' is left to networkx.",
    "floyd_warshall_numpy": "Every row by the program.",
    "eccentricity": "From the program's per-source table.",
    "diameter": "From the eccentricities.",
    "radius": "From the eccentricities.",
    "periphery": "From the eccentricities.",
    "center": "From the eccentricities.",
    "average_shortest_path_length": "From the sums of the program's per-source table.",
    "wiener_index": "From the sums of the program's per-source table.",
}

_COMMON = ("Integer weights 0..1000000 (or reals that a power of two or ten makes such exactly); anything else "
           "is left to networkx.")


def get_info():
    return {
        "backend_name": "tuccompi",
        "project": "libtuccompi-starpu",
        "package": "tuccompi",
        "short_summary": "Many-source shortest paths and centralities on every CPU core and GPU (tuccompi-apsp).",
        "functions": {name: {"additional_docs": doc + " " + _COMMON} for name, doc in _FUNCTIONS.items()},
    }
