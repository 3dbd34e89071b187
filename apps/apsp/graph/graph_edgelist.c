/* Edge lists (.edges, .el, .txt, .csv, .tsv): one arc per line, "U V" or "U V W", the fields
 * separated by blanks, tabs or one comma (SNAP's "u v", networkx's write_weighted_edgelist
 * "u v w", CSV "u,v,w"); lines whose first non-blank character is '#' or '%' are comments, blank
 * lines are skipped. Ids are non-negative integers used as given: n = largest id + 1. A missing
 * weight is 1; a weight is an integer 0..GRAPH_MAX_WEIGHT or a decimal number, which is a real
 * weight (graph_read_options::real_scale, as Matrix Market's).
 *
 * There is no header to check counts against, so memory is checked as the lines come: a new
 * largest id and every growth of the arc list are checked against graph_read_options::max_bytes
 * (graph_build_bytes() of the vertices and arcs so far) before anything is allocated for them,
 * so a 10-byte line naming vertex 4,000,000,000 is refused at its line.
 *
 * The writer keeps the vertex count: when the last vertex has no arc, a last line "N-1 N-1 0"
 * (a self-loop, which readers drop) names it. */
#include "graph_text.h"
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The first arc list: grown by doubling from there (a file holds no count to size it by). */
#define FIRST_CAP (1u << 16)

static inline int is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ',';
}

static inline char *field_end(char *p)
{
	while (*p && !is_sep(*p))
		p++;
	return p;
}

/* A field's text for messages, cut to a sane length. */
#define FIELD(t) (int)(field_end(t) - (t) > 40 ? 40 : field_end(t) - (t)), (t)

/* The next field of the line: *pp at its start (after the blanks and the one comma before it).
 * 1 and the field in [*tok, *pp), 0 at the end of the line, < 0 for an empty field. */
static int next_field(struct reader *r, char **pp, char **tok, int first)
{
	char *p = skip_blank(*pp);
	if (!first && *p == ',')
	{
		p = skip_blank(p + 1);
		if (!*p || *p == ',')
			return rerr(r, r->line, "%s; fields are separated by blanks, tabs or one comma",
				    *p ? "two commas in a row" : "a comma ends the line");
	}
	else if (first && *p == ',')
		return rerr(r, r->line, "the line starts with a comma; write 'U V' or 'U V W'");
	*tok = p;
	if (!*p)
		return 0;
	*pp = field_end(p);
	return 1;
}

/* A vertex id: an integer 0..GRAPH_MAX_VERTICES-1. @p first: no arc read yet (a header line?). */
static int parse_id(struct reader *r, char *tok, char *end, const char *what, int first, uint64_t *v)
{
	uint64_t x = 0;
	char *p = tok;
	while (p < end && (unsigned)(*p - '0') < 10 && x <= GRAPH_MAX_VERTICES)
		x = x * 10 + (unsigned)(*p++ - '0');
	if (p == end && x < GRAPH_MAX_VERTICES)
	{
		*v = x;
		return 0;
	}
	if (p == end || (unsigned)(*p - '0') < 10)
		return rerr(r, r->line, "%s %.*s is too large: ids are 0..%" PRIu32 " (n = largest id + 1); renumber the "
			    "vertices from 0", what, FIELD(tok), GRAPH_MAX_VERTICES - 1);
	if (*tok == '-' && end > tok + 1 && strspn(tok + 1, "0123456789") == (size_t)(end - tok - 1))
		return rerr(r, r->line, "%s %.*s is negative; vertex ids are integers from 0", what, FIELD(tok));
	int header = first && !strchr("0123456789+-.", *tok);
	return rerr(r, r->line, "%s '%.*s' is not a vertex id (an integer from 0)%s", what, FIELD(tok),
		    header ? "; a header line? make it a comment: '# ...'" : "");
}

/* A weight: an integer 0..GRAPH_MAX_WEIGHT, or a decimal number (a real weight). */
static int parse_weight(struct reader *r, char *tok, char *end, const struct graph_read_options *o, uint64_t *w)
{
	uint64_t x = 0;
	char *p = tok;
	while (p < end && (unsigned)(*p - '0') < 10 && x <= GRAPH_MAX_WEIGHT)
		x = x * 10 + (unsigned)(*p++ - '0');
	if (p == end && x <= GRAPH_MAX_WEIGHT)
	{
		*w = x;
		return 0;
	}
	if (p == end || (unsigned)(*p - '0') < 10)
		return rerr(r, r->line, "weight %.*s above the maximum %u; scale the weights down", FIELD(tok), GRAPH_MAX_WEIGHT);
	/* decimal numbers only: no "inf", "nan" or hexadecimal */
	for (p = tok; p < end; p++)
		if (!strchr("0123456789.eE+-", *p))
			return rerr(r, r->line, "weight '%.*s' is not a number; weights are integers 0..%u or decimal numbers",
				    FIELD(tok), GRAPH_MAX_WEIGHT);
	return graph_parse_real(r, tok, end, o, w);
}

struct edgelist
{
	struct arcs a;
	uint64_t n;       /* largest id + 1 so far */
	uint64_t n_line;  /* the line of the largest id */
};

/* Before the memory for n vertices and m arcs is taken: against max_bytes. @p id: the new largest
 * id that makes n, or UINT64_MAX when the arcs grow. */
static int check_room(struct reader *r, const struct graph_read_options *o, uint64_t n, uint64_t m, uint64_t id)
{
	uint64_t need = graph_build_bytes(n, m);
	if (!o->max_bytes || need <= o->max_bytes)
		return 0;
	if (id != UINT64_MAX)
		return graph_set_error(r->err, -ENOMEM,
				       "%s:%" PRIu64 ": vertex id %" PRIu64 " makes the graph %" PRIu64 " vertices (ids are used "
				       "as given: n = largest id + 1), which with %" PRIu64 " arc%s need %" PRIu64
				       " bytes, more than the limit of %" PRIu64 " (%s); renumber the vertices from 0, or use a "
				       "smaller graph",
				       r->path, r->line, id, n, m, m == 1 ? "" : "s", need, o->max_bytes, limit_what(o));
	return graph_set_error(r->err, -ENOMEM,
			       "%s:%" PRIu64 ": the graph (%" PRIu64 " vertices, %" PRIu64 " arc%s up to this line) needs %" PRIu64
			       " bytes, more than the limit of %" PRIu64 " (%s); use a smaller graph",
			       r->path, r->line, n, m, m == 1 ? "" : "s", need, o->max_bytes, limit_what(o));
}

static int push(struct reader *r, const struct graph_read_options *o, struct edgelist *el, uint64_t u, uint64_t v,
		uint64_t w)
{
	struct arcs *a = &el->a;
	uint64_t top = (u > v ? u : v) + 1;
	if (top > el->n)
	{
		int rc = check_room(r, o, top, a->len + 1, top - 1);
		if (rc < 0)
			return rc;
		el->n = top;
		el->n_line = r->line;
	}
	if (a->len == a->cap)
	{
		uint64_t cap = a->cap ? a->cap * 2 : FIRST_CAP;
		/* the list grows no further than the limit allows: arcs of 12 bytes beside the vertices */
		if (o->max_bytes && graph_build_bytes(el->n, cap) > o->max_bytes)
		{
			uint64_t room = o->max_bytes > graph_build_bytes(el->n, 0) ? o->max_bytes - graph_build_bytes(el->n, 0) : 0;
			cap = room / 20 > a->len ? room / 20 : a->len + 1;
		}
		int rc = check_room(r, o, el->n, a->len + 1, UINT64_MAX);
		if (rc < 0 || (rc = graph_arcs_resize(a, r, cap)) < 0)
			return rc;
	}
	a->src[a->len] = (uint32_t)u;
	a->dst[a->len] = (uint32_t)v;
	a->w[a->len] = (uint32_t)w;
	a->len++;
	return 0;
}

static int parse_line(struct reader *r, char *p, const struct graph_read_options *o, struct edgelist *el)
{
	static const char *const what[2] = {"source", "target"};
	uint64_t v[3] = {0, 0, 1};
	int k = 0, rc;
	char *tok = p;
	while ((rc = next_field(r, &p, &tok, k == 0)) > 0)
	{
		if (k == 3)
			return rerr(r, r->line, "more than 3 fields ('%.*s' after the weight); arc lines are 'U V' or 'U V W'",
				    FIELD(tok));
		rc = k < 2 ? parse_id(r, tok, p, what[k], el->a.len == 0, &v[k]) : parse_weight(r, tok, p, o, &v[2]);
		if (rc < 0)
			return rc;
		k++;
	}
	if (rc < 0)
		return rc;
	if (k < 2)
		return rerr(r, r->line, "one field only; arc lines are 'U V' or 'U V W'");
	return push(r, o, el, v[0], v[1], v[2]);
}

int graph_read_edgelist_text(struct reader *r, const struct graph_read_options *o, struct graph *g)
{
	struct edgelist el;
	memset(&el, 0, sizeof el);
	el.a.limit = MAX_ARCS;
	r->comment = '#';
	r->comment2 = '%';
	char *line = NULL;
	int rc;
	while ((rc = reader_next(r, &line)) > 0)
	{
		char *p = skip_blank(line);
		if (*p == '\0' || *p == '#' || *p == '%')
			continue;
		if ((rc = parse_line(r, p, o, &el)) < 0)
			goto out;
	}
	if (rc < 0)
		goto out;
	if (el.a.len == 0)
		rc = rerr(r, r->line ? r->line : 1, "%s; an edge list holds one 'U V' or 'U V W' line per arc (ids from 0)",
			  r->line ? "no arc lines" : "empty file");
	else
		rc = check_room(r, o, el.n, el.a.len, UINT64_MAX);
out:
	return arcs_done(&el.a, rc, el.n, g, r);
}

/* ------------------------------------------------------------------ writer */

static int has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

int graph_write_edgelist(const struct graph *g, const char *path, struct graph_error *err)
{
	int rc = graph_validate(g, err);
	if (rc < 0)
		return rc;
	char stem_buf[4096];
	const char *stem = outfile_stem(path, stem_buf, sizeof stem_buf);
	char sep = has_suffix(stem, ".csv") ? ',' : has_suffix(stem, ".tsv") ? '\t' : ' ';
	struct outfile_buf b;
	if ((rc = outfile_buf_open(&b, path, WRITE_BUF, err)) < 0)
		return rc;
	/* Does the last vertex appear in an arc? Else a self-loop names it, so that n survives. */
	int last_named = g->n > 0 && g->rowptr[g->n] > g->rowptr[g->n - 1];
	for (uint64_t e = 0; e < g->m && !last_named; e++)
		last_named = g->col[e] == g->n - 1;
	char *p = b.buf + snprintf(b.buf, b.size, "# written by tuccompi-graph: %" PRIu32 " vertices, %" PRIu64
				 " arcs; SOURCE TARGET WEIGHT, ids from 0\n", g->n, g->m);
	for (uint32_t u = 0; u < g->n && rc == 0; u++)
		for (uint64_t e = g->rowptr[u]; e <= g->rowptr[u + 1]; e++)
		{
			int loop = e == g->rowptr[u + 1];
			if (loop && (u != g->n - 1 || last_named))
				break;
			if ((rc = outfile_buf_room(&b, &p, 64, err)) < 0)
				break;
			p = numtext_u64(p, u);
			*p++ = sep;
			p = numtext_u64(p, loop ? u : g->col[e]);
			*p++ = sep;
			p = numtext_u64(p, loop ? 0 : g->w[e]);
			*p++ = '\n';
		}
	return outfile_buf_commit(&b, p, rc, err);
}
