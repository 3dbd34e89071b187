/* The graph inputs of the tools: generator specs (--gen, tuccompi-graph gen) and the warning of a
 * read that rounded real weights. Errors as in numbers.h. */
#ifndef TUCCOMPI_APSP_CLI_GRAPHS_H
#define TUCCOMPI_APSP_CLI_GRAPHS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"

/** Text for --help: the generator specs both tools take. */
extern const char cli_gen_help[];

enum cli_gen_kind
{
	CLI_GEN_RANDOM, /**< random:N[:D1-D2[:W1-W2]]  the paper's random graphs */
	CLI_GEN_RMAT,   /**< rmat:SCALE[:EF[:W1-W2]]   Graph500 R-MAT / Kronecker */
	CLI_GEN_GRID,   /**< grid:RxC[:W1-W2]          2-D grid */
	CLI_GEN_ROAD,   /**< road:N                    road-network-like (graph_gen_road) */
};

/** A parsed generator spec, with the defaults filled in. */
struct cli_gen
{
	enum cli_gen_kind kind;
	uint32_t n;                /**< random, road: vertices */
	uint32_t deg_min, deg_max; /**< random: out-degrees (1-9) */
	unsigned scale, edgefactor; /**< rmat (edge factor 16) */
	double a, b, c;            /**< rmat quadrant probabilities (Graph500: .57 .19 .19) */
	uint32_t rows, cols;       /**< grid */
	uint32_t w_min, w_max;     /**< weights (1-10) */
};

/** Parse "KIND:ARGS" (see cli_gen_help). -EINVAL with a message naming @p opt otherwise. */
int cli_gen_parse(const char *opt, const char *spec, struct cli_gen *gen, struct graph_error *err);
/** The spec that gives @p gen, e.g. "random:1000:2-4:0-99" (for notes and logs). */
void cli_gen_spec(const struct cli_gen *gen, char *buf, size_t len);
/** Peak bytes generating it takes (graph_build_bytes of the arcs drawn, an estimate for road). */
uint64_t cli_gen_bytes(const struct cli_gen *gen);
/** Generate it, deterministically for @p seed. */
int cli_gen_run(const struct cli_gen *gen, uint64_t seed, struct graph *g, struct graph_error *err);

/** The warning of a read that rounded real weights (graph_read_info), one line on @p f:
 *  "PROG: warning: PATH: N real weights rounded to integers (by up to D, ...)" naming @p option
 *  (the tool's real_scale option) and @p scale; nothing when none were rounded. */
void cli_warn_rounding(FILE *f, const char *prog, const char *path, const struct graph_read_info *info, double scale,
		       const char *option);

#endif
