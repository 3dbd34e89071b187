/* METIS graph files (.graph, .metis: the format of METIS, KaHIP and the 10th DIMACS challenge's
 * graphs): a header "N M [FMT [NCON]]", then one line per vertex, in order, listing its neighbours
 * (1-based), each followed by the edge's weight when FMT's last digit is 1; FMT's middle digit says
 * each line starts with NCON vertex weights, its first digit with a vertex size (both read and left
 * out: shortest paths have no use for them). M counts undirected edges, each listed at both ends, so
 * the lines hold 2 M neighbours, and every neighbour listed becomes an arc (weight 1 without edge
 * weights). A vertex without neighbours is an empty line; '%' lines are comments. The line reader and
 * the checks are graph_text.c's. Written for undirected graphs (every arc u -> v with its v -> u of
 * the same weight), edge weights left out when all are 1. */
#include "graph_text.h"
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct metis_header
{
	uint64_t n, m;
	unsigned ncon; /* vertex weights per line */
	int sizes;     /* a vertex size first */
	int weights;   /* an edge weight after each neighbour */
};

#define METIS_USAGE "the header is 'VERTICES EDGES [FMT [NCON]]'"

static int parse_header(struct reader *r, char *p, struct metis_header *h)
{
	char *tok;
	enum num t = next_uint(&p, &h->n, &tok);
	if (t != NUM_OK || h->n < 1 || h->n > GRAPH_MAX_VERTICES)
		return rerr(r, r->line, "vertex count '%.*s' is not an integer 1..%" PRIu32 "; " METIS_USAGE, TOK(tok),
			    GRAPH_MAX_VERTICES);
	t = next_uint(&p, &h->m, &tok);
	if (t == NUM_NONE)
		return rerr(r, r->line, "header without an edge count; " METIS_USAGE);
	if (t != NUM_OK || h->m > MAX_ARCS / 2)
		return rerr(r, r->line, "edge count '%.*s' is not an integer 0..%llu; " METIS_USAGE, TOK(tok), MAX_ARCS / 2);
	/* FMT: up to three digits 0 or 1, read from the right (edge weights, vertex weights, vertex sizes) */
	tok = skip_blank(p);
	p = token_end(tok);
	size_t len = (size_t)(p - tok);
	h->ncon = 0;
	h->sizes = h->weights = 0;
	if (len)
	{
		if (len > 3 || strspn(tok, "01") < len)
			return rerr(r, r->line, "FMT '%.*s' is not up to three digits 0 or 1 (1: edge weights, 10: vertex weights, "
				    "100: vertex sizes, or their sum such as 11); " METIS_USAGE, TOK(tok));
		h->weights = tok[len - 1] == '1';
		int vw = len >= 2 && tok[len - 2] == '1';
		h->sizes = len == 3 && tok[0] == '1';
		uint64_t ncon = vw;
		t = next_uint(&p, &ncon, &tok);
		if (t == NUM_OK && !vw)
			return rerr(r, r->line, "NCON %.*s without vertex weights (FMT's middle digit is 0); " METIS_USAGE,
				    TOK(tok));
		if (t == NUM_NONE)
			ncon = vw;
		else if (t != NUM_OK || ncon < 1 || ncon > 1000)
			return rerr(r, r->line, "NCON '%.*s' is not an integer 1..1000; " METIS_USAGE, TOK(tok));
		h->ncon = (unsigned)ncon;
	}
	p = skip_blank(p);
	if (*p)
		return rerr(r, r->line, "unexpected '%.*s' at the end of the header; " METIS_USAGE, TOK(p));
	return 0;
}

/* The line of vertex @p u (0-based): its neighbours as arcs. */
static int parse_vertex(struct reader *r, char *p, uint32_t u, const struct metis_header *h, struct arcs *a,
			uint64_t *listed)
{
	char *tok;
	uint64_t x;
	for (unsigned k = 0; k < h->sizes + h->ncon; k++)
	{
		enum num t = next_uint(&p, &x, &tok);
		const char *what = h->sizes && k == 0 ? "vertex size" : "vertex weight";
		if (t == NUM_NONE)
			return rerr(r, r->line, "vertex %" PRIu32 "'s line ends before its %s (FMT says each line starts with %s%u "
				    "vertex weight%s); a vertex without neighbours still has them", u + 1, what,
				    h->sizes ? "a size and " : "", h->ncon, h->ncon == 1 ? "" : "s");
		if (t != NUM_OK)
			return rerr(r, r->line, "%s '%.*s' of vertex %" PRIu32 " is not a non-negative integer", what, TOK(tok),
				    u + 1);
	}
	for (;;)
	{
		uint64_t v = 0, w = 1;
		enum num t = next_uint(&p, &v, &tok);
		if (t == NUM_NONE)
			return 0;
		int rc = check_id(r, t, tok, v, h->n, "neighbour", "the header says");
		if (rc < 0)
			return rc;
		if (h->weights)
		{
			char *wt;
			t = next_uint(&p, &w, &wt);
			if (t == NUM_NONE)
				return rerr(r, r->line, "neighbour %" PRIu64 " of vertex %" PRIu32 " has no edge weight (FMT says "
					    "each neighbour is followed by its edge's weight)", v, u + 1);
			if ((rc = check_weight(r, t, wt, w)) < 0)
				return rc;
		}
		if (*listed == 2 * h->m)
			return rerr(r, r->line, "more neighbours than the 2 x %" PRIu64 " the header's edge count allows (each "
				    "edge is listed at both of its ends); fix the edge count", h->m);
		(*listed)++;
		if ((rc = arcs_push(a, r, u, (uint32_t)v - 1, (uint32_t)w)) < 0)
			return rc;
	}
}

int graph_read_metis_text(struct reader *r, const struct graph_read_options *o, struct graph *g)
{
	struct arcs a = {0};
	struct metis_header h = {0};
	uint64_t header = 0, vertices = 0, listed = 0;
	char *line = NULL;
	int rc;
	r->comment = '%';
	while ((rc = reader_next(r, &line)) > 0)
	{
		char *p = skip_blank(line);
		if (*p == '%')
			continue;
		if (!header)
		{
			if (!*p)
				continue; /* blank lines before the header */
			header = r->line;
			if ((rc = parse_header(r, p, &h)) < 0 || (rc = graph_check_fits(r, h.n, 1, "vertex lines", "header")) < 0 ||
			    (rc = graph_check_max_bytes(r, o, h.n, 2 * h.m, 2, 1)) < 0 ||
			    (rc = graph_arcs_start(&a, 2 * h.m, r, 2 /* "1 " */, 1)) < 0)
				goto out;
			continue;
		}
		if (vertices == h.n)
		{
			if (!*p)
				continue; /* blank lines after the last vertex */
			rc = rerr(r, r->line, "a line after the %" PRIu64 " vertex lines the header (line %" PRIu64
				  ") announces; fix the vertex count", h.n, header);
			goto out;
		}
		if ((rc = parse_vertex(r, p, (uint32_t)vertices, &h, &a, &listed)) < 0)
			goto out;
		vertices++;
	}
	if (rc < 0)
		goto out;
	if (!header)
		rc = rerr(r, r->line ? r->line : 1, "no header; a METIS file starts with 'VERTICES EDGES [FMT [NCON]]'");
	else if (vertices < h.n)
		rc = rerr(r, r->line, "file ends after %" PRIu64 " vertex line%s but the header (line %" PRIu64 ") announces %" PRIu64
			  "; the file is truncated or the header is wrong (a vertex without neighbours is an empty line)",
			  vertices, vertices == 1 ? "" : "s", header, h.n);
	else if (listed != 2 * h.m)
		rc = rerr(r, r->line, "the vertex lines list %" PRIu64 " neighbours, but the header's %" PRIu64 " edge%s (line %" PRIu64
			  ") are listed at both ends: %" PRIu64 "; fix the edge count or the lists", listed, h.m,
			  h.m == 1 ? "" : "s", header, 2 * h.m);
out:
	return arcs_done(&a, rc, h.n, g, r);
}

/* The arc v -> u in v's row (sorted by head, no parallel arcs): its index, or -1. */
static int64_t find_arc(const struct graph *g, uint32_t v, uint32_t u)
{
	uint64_t lo = g->rowptr[v], hi = g->rowptr[v + 1];
	while (lo < hi)
	{
		uint64_t mid = lo + (hi - lo) / 2;
		if (g->col[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->rowptr[v + 1] && g->col[lo] == u ? (int64_t)lo : -1;
}

int graph_write_metis(const struct graph *g, const char *path, struct graph_error *err)
{
	int rc = graph_validate(g, err);
	if (rc < 0)
		return rc;
	int weighted = 0;
	for (uint32_t u = 0; u < g->n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			int64_t back = find_arc(g, g->col[e], u);
			if (back < 0 || g->w[back] != g->w[e])
				return graph_set_error(err, -EINVAL,
						       "%s: METIS files hold undirected graphs, but the arc %" PRIu32 " -> %" PRIu32
						       " (weight %" PRIu32 ") has %s (ids from 1); convert with --undirected (every "
						       "arc both ways, the lighter weight of opposite arcs) or write .gr or an edge list",
						       path, u + 1, g->col[e] + 1, g->w[e],
						       back < 0 ? "no arc back" : "an arc back of another weight");
			weighted |= g->w[e] != 1;
		}
	struct outfile_buf b;
	if ((rc = outfile_buf_open(&b, path, WRITE_BUF, err)) < 0)
		return rc;
	char *p = b.buf + snprintf(b.buf, b.size, "%% written by tuccompi-graph: %" PRIu32 " vertices, %" PRIu64 " edges%s\n%" PRIu32
				 " %" PRIu64 "%s\n", g->n, g->m / 2, weighted ? ", edge weights" : " of weight 1", g->n,
				 g->m / 2, weighted ? " 1" : "");
	for (uint32_t u = 0; u < g->n && rc == 0; u++)
	{
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1] && rc == 0; e++)
		{
			if ((rc = outfile_buf_room(&b, &p, 32, err)) < 0)
				break;
			if (e > g->rowptr[u])
				*p++ = ' ';
			p = numtext_u64(p, (uint64_t)g->col[e] + 1);
			if (weighted)
			{
				*p++ = ' ';
				p = numtext_u64(p, g->w[e]);
			}
		}
		*p++ = '\n';
	}
	return outfile_buf_commit(&b, p, rc, err);
}
