/* tuccompi-graph: the graphs of the APSP application. Directed graphs in CSR form with
 * non-negative integer weights, read from DIMACS (.gr), Matrix Market (.mtx) and edge-list
 * (.edges, .el, .txt, .csv, .tsv) files, cached in a binary form, or generated (the paper's random graphs, R-MAT/Kronecker
 * with Graph500 parameters, 2-D grids).
 *
 * Errors: every function returns 0 or a negative errno and fills a struct graph_error
 * with one line: what went wrong, where (file:line for text inputs) and how to fix it.
 * A failed call leaves nothing behind: no half-built graph, no partial output file. */
#ifndef TUCCOMPI_GRAPH_H
#define TUCCOMPI_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Largest weight accepted: sums of weights along a path must fit in 32 bits
 *  (distances are uint32, GRAPH_INF is UINT32_MAX). */
#define GRAPH_MAX_WEIGHT 1000000u
/** Distance of an unreachable vertex. */
#define GRAPH_INF UINT32_MAX
/** Most vertices a graph can have: ids stay below GRAPH_INF, and n fits in a uint32. */
#define GRAPH_MAX_VERTICES (UINT32_MAX - 1)

/** A directed graph in CSR form: the arcs leaving u are
 *  col[rowptr[u] .. rowptr[u+1]-1] with weights w[...]. No self-loops; parallel arcs
 *  merged into one with the smallest weight; arcs of a vertex sorted by target. */
struct graph
{
	uint32_t n;        /**< vertices, ids 0..n-1 */
	uint64_t m;        /**< arcs */
	uint64_t *rowptr;  /**< n+1 entries */
	uint32_t *col;     /**< m entries */
	uint32_t *w;       /**< m entries, 1..GRAPH_MAX_WEIGHT (0 allowed) */
	uint32_t *min_out; /**< n entries: lightest arc leaving u, GRAPH_INF if none (Crauser's OUT criterion) */
	uint32_t max_w;    /**< largest weight */
};

/** What went wrong, for the user. */
struct graph_error
{
	char msg[512];
};

/** Fill @p err (may be NULL) with the message and return @p rc: the one carrier of a message in the
 *  graph library and the tools' helpers. The arguments may quote err->msg itself (to say where a
 *  failed call's message comes from). */
int graph_set_error(struct graph_error *err, int rc, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/** What a file holds. */
enum graph_format
{
	GRAPH_FORMAT_AUTO = 0, /**< from the file name: .gr, .mtx, .tgb (binary cache), .edges .el .txt .csv .tsv,
				    .graph .metis (and the text ones with .gz after) */
	GRAPH_FORMAT_DIMACS,   /**< 9th DIMACS challenge: "p sp n m", "a u v w", 1-based */
	GRAPH_FORMAT_MTX,      /**< Matrix Market coordinate: pattern/integer/real, general/symmetric */
	GRAPH_FORMAT_BINARY,   /**< this library's cache (.tgb) */
	GRAPH_FORMAT_EDGELIST, /**< one arc a line, "u v" or "u v w" (blanks, tabs or one comma), 0-based,
				    n = largest id + 1, missing weight 1, '#' and '%' comment lines */
	GRAPH_FORMAT_METIS,    /**< METIS (.graph, .metis): "n m [fmt [ncon]]", then a line of neighbours per
				    vertex (1-based, edge weights when fmt says); written for undirected graphs */
};

/** Whether @p f is a text format (read from standard input too). */
static inline int graph_format_is_text(enum graph_format f)
{
	return f == GRAPH_FORMAT_DIMACS || f == GRAPH_FORMAT_MTX || f == GRAPH_FORMAT_EDGELIST || f == GRAPH_FORMAT_METIS;
}

/** What a read did that its user should hear of (graph_read_options::info). */
struct graph_read_info
{
	uint64_t rounded;     /**< real weights rounded to an integer (after real_scale) */
	double max_rounding;  /**< the most one of them changed, 0..0.5 (in weight units after real_scale) */
	uint64_t first_line;  /**< the line of the first one */
	int rounded_cache;    /**< graph_read_cached: the cache used holds weights rounded when it was
				   made (their count is not kept) */
};

/** Options of graph_read. */
struct graph_read_options
{
	enum graph_format format;
	/** Real weights (Matrix Market "real", decimal edge-list weights): multiplied by this (0:
	 *  1). Negative results are an error. */
	double real_scale;
	/** A real weight that is not an integer once multiplied: 0 refuses it at its line (saying
	 *  how to scale it, naming real_scale_what); 1 rounds it to the nearest integer and counts
	 *  it in *info. Never silent. */
	int real_round;
	/** The option that sets real_scale, for messages, e.g. "--mtx-real-scale" (NULL: "real_scale"). */
	const char *real_scale_what;
	/** Filled when not NULL (zeroed first). */
	struct graph_read_info *info;
	/** Pattern matrices (no weights): weight given to every arc (0: 1). */
	uint32_t pattern_weight;
	/** Refuse inputs whose reading would need more than this many bytes at its peak
	 *  (graph_build_bytes() of the header's counts for text, graph_bytes_for the CSR of a
	 *  binary file), before allocating anything (0: no limit besides what malloc gives). */
	uint64_t max_bytes;
	/** Where max_bytes comes from, for messages, e.g. "available memory; --max-memory
	 *  changes it" (NULL: "max_bytes"). Kept by reference. */
	const char *max_bytes_what;
};

/** Read a graph. Symmetric .mtx files give both arcs of each edge. A @p path of "-" reads
 *  standard input (DIMACS, Matrix Market or edge list, whose format must be set; it is not closed).
 *  Text holding a NUL or another control byte (other than tab, and CR before LF) is
 *  refused at its line; so is a header announcing more arcs than the rest of a regular
 *  file can hold. */
int graph_read(const char *path, const struct graph_read_options *opt, struct graph *g, struct graph_error *err);

/** Peak bytes of building an n-vertex graph from m arcs (the arc list, 12 m, and the CSR,
 *  graph_bytes_for): what graph_read and the generators need, for checks before allocating. */
uint64_t graph_build_bytes(uint64_t n, uint64_t m);

/** Vertex coordinates of the 9th DIMACS challenge (.co files: "p aux sp co VERTICES", then
 *  "v ID X Y" once per vertex, 1-based ids, integer coordinates). Not needed by the SSSP
 *  engines; for tools and for checking that a coordinate file matches its graph. */
struct graph_coords
{
	uint32_t n;
	int32_t *x, *y;               /**< n entries each, index = vertex id - 1 */
	int32_t min_x, max_x, min_y, max_y; /**< bounding box */
};

/** Read a .co file (or standard input with "-"): every vertex exactly once, errors with
 *  file:line. Uses max_bytes / max_bytes_what of @p opt (may be NULL). */
int graph_read_coords(const char *path, const struct graph_read_options *opt, struct graph_coords *c,
		      struct graph_error *err);
/** Free the arrays (safe on a zeroed struct); leaves *c zeroed. */
void graph_coords_free(struct graph_coords *c);

/** Write the binary cache (.tgb): atomically (temporary file + rename), checksummed. */
int graph_write_binary(const struct graph *g, const char *path, struct graph_error *err);

/** Write DIMACS text (for interchange and tests), atomically. */
int graph_write_dimacs(const struct graph *g, const char *path, struct graph_error *err);

/** Write an edge list, "u v w" a line, 0-based, atomically: commas for a .csv @p path, tabs for
 *  .tsv, else blanks. When the last vertex has no arc, a self-loop "n-1 n-1 0" (which readers
 *  drop) keeps n. */
int graph_write_edgelist(const struct graph *g, const char *path, struct graph_error *err);

/** Write METIS (.graph, .metis), atomically: undirected graphs only (every arc with its reverse
 *  of the same weight; -EINVAL naming the first arc without one), edge weights left out when
 *  all are 1. */
int graph_write_metis(const struct graph *g, const char *path, struct graph_error *err);

/* The text writers (DIMACS, edge list, METIS) gzip their output when @p path ends in ".gz"
 * (road.gr.gz, g.csv.gz): the format is told by the name before it. */

/** The format a graph written to @p path takes, told by its name as graph_read tells it (the name
 *  before a final .gz); -EINVAL with "cannot write ..." for a name of no writable format (.mtx is
 *  read only; .tgb is not gzipped). */
int graph_output_format(const char *path, enum graph_format *f, struct graph_error *err);

/** Write @p g in the format graph_output_format() tells from @p path, atomically. */
int graph_write(const struct graph *g, const char *path, struct graph_error *err);

/** Read @p path through a cache: if @p cache_path holds a valid cache newer than the input
 *  and made from it (size + mtime recorded), load it; otherwise parse and write the cache. */
int graph_read_cached(const char *path, const char *cache_path, const struct graph_read_options *opt,
		      struct graph *g, struct graph_error *err);

/** Build from an arc list (0-based); drops self-loops, merges parallel arcs (min weight),
 *  sorts, computes min_out. Arrays are not kept. */
int graph_from_arcs(uint32_t n, uint64_t m, const uint32_t *src, const uint32_t *dst, const uint32_t *w,
		    struct graph *g, struct graph_error *err);

/** Make @p g undirected: every arc u -> v also v -> u with the same weight (parallel arcs then
 *  merged, the lightest kept, as everywhere). On failure @p g is left as it was. */
int graph_make_undirected(struct graph *g, struct graph_error *err);

/** About the bytes graph_make_undirected() allocates beside @p g at its peak (the new CSR of up
 *  to 2 m arcs), for checks before calling it. */
uint64_t graph_undirected_bytes(const struct graph *g);

/** The paper's random graphs: every vertex gets an out-degree uniform in
 *  [deg_min, deg_max] with uniformly random targets, weights uniform in [w_min, w_max].
 *  Deterministic for a seed. */
int graph_gen_random(uint32_t n, uint32_t deg_min, uint32_t deg_max, uint32_t w_min, uint32_t w_max,
		     uint64_t seed, struct graph *g, struct graph_error *err);

/** R-MAT / Kronecker (Graph500): 2^scale vertices, edgefactor * 2^scale edges with
 *  probabilities a, b, c (d = 1-a-b-c; Graph500: 0.57, 0.19, 0.19), vertex ids permuted,
 *  undirected (both arcs), weights uniform in [w_min, w_max]. */
int graph_gen_rmat(unsigned scale, unsigned edgefactor, double a, double b, double c, uint32_t w_min,
		   uint32_t w_max, uint64_t seed, struct graph *g, struct graph_error *err);

/** 2-D grid, road-like: rows x cols vertices, arcs both ways between 4-neighbours,
 *  weights uniform in [w_min, w_max]. */
int graph_gen_grid(uint32_t rows, uint32_t cols, uint32_t w_min, uint32_t w_max, uint64_t seed, struct graph *g,
		   struct graph_error *err);

/** Road-like graph (graph_road.c): n random points in the plane (60% around towns) joined
 *  to their 2-3 nearest neighbours with integer Euclidean lengths (about 1,000 per hop),
 *  made connected, plus two sparse faster levels (arterials: cost = length / 2, motorways:
 *  length / 4) between junctions about 17 and 70 hops apart. Symmetric (both arcs of every
 *  road, same weight), about 3 arcs per vertex, ids in spatial order; deterministic for a
 *  seed. n: 1..2^30. */
int graph_gen_road(uint32_t n, uint64_t seed, struct graph *g, struct graph_error *err);

/** SplitMix64 (Steele, Lea & Flood 2014; Vigna's constants): the next number of the
 *  sequence at @p state. Seeds the generators' xoshiro streams and draws random sources:
 *  the one copy, so that a seed means the same everywhere. */
static inline uint64_t graph_splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/** Free the arrays (safe on a zeroed struct); leaves *g zeroed. */
void graph_free(struct graph *g);

/** Check the CSR invariants (for tests and after loading untrusted caches). */
int graph_validate(const struct graph *g, struct graph_error *err);

/** Bytes the CSR arrays take. */
uint64_t graph_bytes(const struct graph *g);

/** Bytes the CSR arrays of an n-vertex, m-arc graph take. */
uint64_t graph_bytes_for(uint32_t n, uint64_t m);

#ifdef __cplusplus
}
#endif

#endif
