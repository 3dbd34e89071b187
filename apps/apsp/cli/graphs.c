/* The graph inputs of the tools (graphs.h): generator specs, the rounding warning of a read. */
#include "graphs.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "numbers.h"

const char cli_gen_help[] =
	"    random:N[:D1-D2[:W1-W2]]  the paper's random graphs: N vertices, out-degree uniform in\n"
	"                              D1..D2 (default 1-9), random targets, weights W1..W2 (default 1-10)\n"
	"    rmat:SCALE[:EF[:W1-W2]]   Kronecker/R-MAT (Graph500: a=.57 b=.19 c=.19), 2^SCALE vertices,\n"
	"                              EF*2^SCALE undirected edges (default EF 16), weights (default 1-10)\n"
	"    grid:RxC[:W1-W2]          road-like R x C grid, arcs both ways, weights (default 1-10)\n"
	"    road:N                    road-network-like graph of about N vertices\n";

static const char *const gen_forms[] = { "random:N[:D1-D2[:W1-W2]]", "rmat:SCALE[:EF[:W1-W2]]", "grid:RxC[:W1-W2]",
					 "road:N" };

int cli_gen_parse(const char *opt, const char *spec, struct cli_gen *gen, struct graph_error *err)
{
	static const char *const kinds[] = { "random", "rmat", "grid", "road" };
	memset(gen, 0, sizeof *gen);
	gen->deg_min = 1, gen->deg_max = 9, gen->w_min = 1, gen->w_max = 10, gen->edgefactor = 16;
	gen->a = 0.57, gen->b = 0.19, gen->c = 0.19;
	const char *colon = strchr(spec, ':');
	size_t klen = colon ? (size_t)(colon - spec) : strlen(spec);
	int kind = -1;
	for (int k = 0; k < 4; k++)
		if (strlen(kinds[k]) == klen && !strncmp(spec, kinds[k], klen))
			kind = k;
	if (kind < 0)
		return cli_bad_arg(err, "%s '%s': unknown generator '%.*s'; use random:N, rmat:SCALE, grid:RxC or road:N", opt, spec,
			     (int)klen, spec);
	gen->kind = (enum cli_gen_kind)kind;

	/* The fields after KIND: */
	char buf[256], *field[4] = { 0 };
	int nf = 0;
	if (strlen(spec) >= sizeof buf)
		return cli_bad_arg(err, "%s: spec too long", opt);
	strcpy(buf, spec);
	for (char *p = colon ? buf + klen : NULL; p && nf < 4; nf++)
	{
		*p++ = '\0';
		field[nf] = p;
		p = strchr(p, ':');
	}
	static const int most[] = { 3, 3, 2, 1 };
	if (nf == 0 || nf > most[kind] || (nf == 4))
		return cli_bad_arg(err, "%s '%s': expected %s", opt, spec, gen_forms[kind]);

	struct graph_error why;
	uint64_t lo, hi, v;
	char what[64];
	int rc = 0, wfield = -1;
	switch (gen->kind)
	{
	case CLI_GEN_RANDOM:
	case CLI_GEN_ROAD:
		snprintf(what, sizeof what, "N");
		rc = cli_parse_u64(what, field[0], 1, GRAPH_MAX_VERTICES, &v, &why);
		gen->n = (uint32_t)v;
		if (rc == 0 && nf > 1 && (rc = cli_parse_range("D1-D2", field[1], '-', 0, UINT32_MAX - 1, &lo, &hi, &why)) == 0)
			gen->deg_min = (uint32_t)lo, gen->deg_max = (uint32_t)hi;
		wfield = 2;
		break;
	case CLI_GEN_RMAT:
		if ((rc = cli_parse_u64("SCALE", field[0], 1, 31, &v, &why)) == 0)
			gen->scale = (unsigned)v;
		if (rc == 0 && nf > 1 && (rc = cli_parse_u64("EF", field[1], 1, UINT32_MAX, &v, &why)) == 0)
			gen->edgefactor = (unsigned)v;
		wfield = 2;
		break;
	case CLI_GEN_GRID:
	{
		const char *x = strchr(field[0], 'x');
		char r[32];
		if (!x || (size_t)(x - field[0]) >= sizeof r)
			return cli_bad_arg(err, "%s '%s': expected %s, e.g. grid:1024x1024", opt, spec, gen_forms[kind]);
		memcpy(r, field[0], (size_t)(x - field[0]));
		r[x - field[0]] = '\0';
		if ((rc = cli_parse_u32("R", r, 1, GRAPH_MAX_VERTICES, &gen->rows, &why)) == 0 &&
		    (rc = cli_parse_u32("C", x + 1, 1, GRAPH_MAX_VERTICES, &gen->cols, &why)) == 0 &&
		    (uint64_t)gen->rows * gen->cols > GRAPH_MAX_VERTICES)
			return cli_bad_arg(err, "%s '%s': %" PRIu32 " x %" PRIu32 " vertices, at most %" PRIu32 " in all", opt, spec,
				     gen->rows, gen->cols, GRAPH_MAX_VERTICES);
		wfield = 1;
		break;
	}
	}
	if (rc == 0 && nf > wfield && (rc = cli_parse_range("W1-W2", field[wfield], '-', 0, GRAPH_MAX_WEIGHT, &lo, &hi, &why)) == 0)
		gen->w_min = (uint32_t)lo, gen->w_max = (uint32_t)hi;
	if (rc < 0)
		return cli_bad_arg(err, "%s '%s': %s; the spec is %s", opt, spec, why.msg, gen_forms[kind]);
	return 0;
}

void cli_gen_spec(const struct cli_gen *g, char *buf, size_t len)
{
	switch (g->kind)
	{
	case CLI_GEN_RANDOM:
		snprintf(buf, len, "random:%" PRIu32 ":%" PRIu32 "-%" PRIu32 ":%" PRIu32 "-%" PRIu32, g->n, g->deg_min, g->deg_max,
			 g->w_min, g->w_max);
		break;
	case CLI_GEN_RMAT:
		snprintf(buf, len, "rmat:%u:%u:%" PRIu32 "-%" PRIu32, g->scale, g->edgefactor, g->w_min, g->w_max);
		break;
	case CLI_GEN_GRID:
		snprintf(buf, len, "grid:%" PRIu32 "x%" PRIu32 ":%" PRIu32 "-%" PRIu32, g->rows, g->cols, g->w_min, g->w_max);
		break;
	case CLI_GEN_ROAD:
		snprintf(buf, len, "road:%" PRIu32, g->n);
		break;
	}
}

uint64_t cli_gen_bytes(const struct cli_gen *g)
{
	uint64_t n;
	switch (g->kind)
	{
	case CLI_GEN_RANDOM:
		return graph_build_bytes(g->n, (uint64_t)g->n * g->deg_max);
	case CLI_GEN_RMAT:
		n = 1ull << g->scale;
		return graph_build_bytes(n, 2 * (uint64_t)g->edgefactor * n) + 4 * n; /* + the permutation */
	case CLI_GEN_GRID:
		n = (uint64_t)g->rows * g->cols;
		return graph_build_bytes(n, 4 * n);
	case CLI_GEN_ROAD: /* about 3 arcs a vertex; points, cells and components on the side */
		return graph_build_bytes(g->n, 4 * (uint64_t)g->n) + 48 * (uint64_t)g->n;
	}
	return 0;
}

int cli_gen_run(const struct cli_gen *g, uint64_t seed, struct graph *out, struct graph_error *err)
{
	switch (g->kind)
	{
	case CLI_GEN_RANDOM:
		return graph_gen_random(g->n, g->deg_min, g->deg_max, g->w_min, g->w_max, seed, out, err);
	case CLI_GEN_RMAT:
		return graph_gen_rmat(g->scale, g->edgefactor, g->a, g->b, g->c, g->w_min, g->w_max, seed, out, err);
	case CLI_GEN_GRID:
		return graph_gen_grid(g->rows, g->cols, g->w_min, g->w_max, seed, out, err);
	case CLI_GEN_ROAD:
		return graph_gen_road(g->n, seed, out, err);
	}
	return cli_bad_arg(err, "unknown generator %d", (int)g->kind);
}

void cli_warn_rounding(FILE *f, const char *prog, const char *path, const struct graph_read_info *info, double scale,
		       const char *option)
{
	if (info->rounded)
		fprintf(f, "%s: warning: %s: %" PRIu64 " real weight%s rounded to %s (by up to %.3g after %s %g; the "
			   "first at line %" PRIu64 "): the graph holds the rounded weights; a larger %s keeps more "
			   "decimals (weights and distances then come multiplied by it)\n",
			prog, path, info->rounded, info->rounded == 1 ? "" : "s", info->rounded == 1 ? "an integer" : "integers",
			info->max_rounding, option, scale, info->first_line, option);
	else if (info->rounded_cache)
		fprintf(f, "%s: warning: %s: its cache holds real weights rounded to integers (%s %g) when it was made: the "
			   "graph holds the rounded weights; a larger %s keeps more decimals\n",
			prog, path, option, scale, option);
}
