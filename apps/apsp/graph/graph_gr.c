/* DIMACS text files of the 9th challenge: shortest-path graphs (.gr: "p sp N M", then
 * "a U V W", 1-based ids) read and written, and vertex coordinates (.co: "p aux sp co N", then
 * "v ID X Y") read. The line reader and the checks are graph_text.c's. */
#include "graph_text.h"
#include "outfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ DIMACS */

static int parse_p_line(struct reader *r, char *p, uint64_t *n, uint64_t *m)
{
	char *tok = skip_blank(p), *e = token_end(tok);
	if (e == tok)
		return rerr(r, r->line, "incomplete p line; write 'p sp VERTICES ARCS'");
	if (e - tok != 2 || memcmp(tok, "sp", 2) != 0)
		return rerr(r, r->line, "problem type '%.*s' is not 'sp'; this reader takes shortest-path files ('p sp VERTICES ARCS')",
			    TOK(tok));
	p = e;
	enum num t = next_uint(&p, n, &tok);
	if (t == NUM_NONE)
		return rerr(r, r->line, "p line without a vertex count; write 'p sp VERTICES ARCS'");
	if (t != NUM_OK || *n < 1 || *n > GRAPH_MAX_VERTICES)
		return rerr(r, r->line, "vertex count '%.*s' is not an integer 1..%" PRIu32 "; write 'p sp VERTICES ARCS'",
			    TOK(tok), GRAPH_MAX_VERTICES);
	t = next_uint(&p, m, &tok);
	if (t == NUM_NONE)
		return rerr(r, r->line, "p line without an arc count; write 'p sp VERTICES ARCS'");
	if (t != NUM_OK || *m > MAX_ARCS)
		return rerr(r, r->line, "arc count '%.*s' is not an integer 0..%llu; write 'p sp VERTICES ARCS'", TOK(tok),
			    MAX_ARCS);
	p = skip_blank(p);
	if (*p)
		return rerr(r, r->line, "unexpected '%.*s' after the arc count; write 'p sp VERTICES ARCS'", TOK(p));
	return 0;
}

static int parse_arc(struct reader *r, char *p, uint64_t n, uint64_t v[3])
{
	static const char *const names[2] = {"arc source", "arc target"};
	for (int k = 0; k < 3; k++)
	{
		char *tok;
		enum num t = next_uint(&p, &v[k], &tok);
		if (t == NUM_NONE)
			return rerr(r, r->line, "arc line has %d number%s, expected 3: 'a SOURCE TARGET WEIGHT'", k,
				    k == 1 ? "" : "s");
		int rc = k < 2 ? check_id(r, t, tok, v[k], n, names[k], "the p line says") : check_weight(r, t, tok, v[k]);
		if (rc < 0)
			return rc;
	}
	p = skip_blank(p);
	if (*p)
		return rerr(r, r->line, "unexpected '%.*s' after the weight; arc lines are 'a SOURCE TARGET WEIGHT'", TOK(p));
	return 0;
}

/* Whether @p p is a 'p' line (the header of both DIMACS files): 1, with *p_line its line; -EINVAL for
 * a second one; 0 for another line. */
static int p_line_at(struct reader *r, const char *p, uint64_t *p_line)
{
	if (p[0] != 'p' || (p[1] != ' ' && p[1] != '\t' && p[1] != '\0'))
		return 0;
	if (*p_line)
		return rerr(r, r->line, "second p line (the first is line %" PRIu64 "); keep only one", *p_line);
	*p_line = r->line;
	return 1;
}

int graph_read_dimacs_text(struct reader *r, const struct graph_read_options *o, struct graph *g)
{
	struct arcs a = {0};
	r->comment = 'c';
	uint64_t n = 0, m = 0, p_line = 0;
	char *line;
	int rc;
	while ((rc = reader_next(r, &line)) > 0)
	{
		char *p = skip_blank(line);
		if (p[0] == 'a' && (p[1] == ' ' || p[1] == '\t'))
		{
			uint64_t v[3];
			if (!p_line)
				rc = rerr(r, r->line, "arc line before the 'p sp VERTICES ARCS' line; put the p line first");
			else if (a.len == m)
				rc = rerr(r, r->line, "more arc lines than the %" PRIu64 " the p line (line %" PRIu64
					  ") announces; fix the arc count in the p line", m, p_line);
			else if ((rc = parse_arc(r, p + 1, n, v)) == 0)
				rc = arcs_push(&a, r, (uint32_t)v[0] - 1, (uint32_t)v[1] - 1, (uint32_t)v[2]);
			if (rc < 0)
				goto out;
		}
		else if (p[0] == 'c' || p[0] == '\0')
			continue;
		else if ((rc = p_line_at(r, p, &p_line)) != 0)
		{
			if (rc < 0 || (rc = parse_p_line(r, p + 1, &n, &m)) < 0 || (rc = graph_check_max_bytes(r, o, n, m, 8, 1)) < 0 ||
			    (rc = graph_arcs_start(&a, m, r, 8 /* "a 1 2 0\n" */, 1)) < 0)
				goto out;
		}
		else
		{
			rc = rerr(r, r->line, "unknown line type '%.*s'; DIMACS lines start with 'c' (comment), 'p' (header) or 'a' (arc)",
				  TOK(p));
			goto out;
		}
	}
	if (rc < 0)
		goto out;
	if (r->line == 0)
		rc = rerr(r, 1, "empty file; a DIMACS file needs a 'p sp VERTICES ARCS' line and its arcs");
	else if (!p_line)
		rc = rerr(r, r->line, "end of file without a 'p sp VERTICES ARCS' line; add one before the arcs");
	else if (a.len < m)
		rc = rerr(r, r->line, "file ends after %" PRIu64 " arc line%s but the p line (line %" PRIu64
			  ") announces %" PRIu64 "; the file is truncated or the p line is wrong", a.len, a.len == 1 ? "" : "s",
			  p_line, m);
out:
	return arcs_done(&a, rc, n, g, r);
}
/* ------------------------------------------------------------------ DIMACS coordinates */

/* A signed decimal integer that fits in 32 bits. */
static enum num next_int32(char **pp, int32_t *v, char **tok)
{
	char *p = skip_blank(*pp);
	int neg = *p == '-';
	char *digits = p + neg;
	uint64_t x;
	enum num t = next_uint(&digits, &x, tok);
	*tok = p;
	*pp = digits;
	if (t == NUM_NONE && neg)
		return NUM_BAD;
	if (t != NUM_OK)
		return t == NUM_NEG ? NUM_BAD : t; /* "--5" */
	if (x > (neg ? 0x80000000ull : 0x7fffffffull))
		return NUM_BIG;
	*v = neg ? (int32_t)(0 - x) : (int32_t)x;
	return NUM_OK;
}

/* "p aux sp co VERTICES" */
static int parse_co_p_line(struct reader *r, char *p, uint64_t *n)
{
	static const char usage[] = "write 'p aux sp co VERTICES'";
	static const char *const words[3] = {"aux", "sp", "co"};
	for (int k = 0; k < 3; k++)
	{
		char *tok = skip_blank(p), *e = token_end(tok);
		if (e == tok)
			return rerr(r, r->line, "incomplete p line; %s", usage);
		if ((size_t)(e - tok) != strlen(words[k]) || memcmp(tok, words[k], (size_t)(e - tok)) != 0)
			return rerr(r, r->line, "'%.*s' where a coordinate file's p line has '%s'; %s", TOK(tok), words[k], usage);
		p = e;
	}
	char *tok;
	enum num t = next_uint(&p, n, &tok);
	if (t == NUM_NONE)
		return rerr(r, r->line, "p line without a vertex count; %s", usage);
	if (t != NUM_OK || *n < 1 || *n > GRAPH_MAX_VERTICES)
		return rerr(r, r->line, "vertex count '%.*s' is not an integer 1..%" PRIu32 "; %s", TOK(tok), GRAPH_MAX_VERTICES,
			    usage);
	p = skip_blank(p);
	if (*p)
		return rerr(r, r->line, "unexpected '%.*s' after the vertex count; %s", TOK(p), usage);
	return 0;
}

static int parse_v_line(struct reader *r, char *p, uint64_t n, uint64_t *id, int32_t xy[2])
{
	static const char form[] = "'v ID X Y'";
	char *tok;
	enum num t = next_uint(&p, id, &tok);
	if (t == NUM_NONE)
		return rerr(r, r->line, "v line without a vertex id; coordinate lines are %s", form);
	int rc = check_id(r, t, tok, *id, n, "vertex", "the p line says");
	if (rc < 0)
		return rc;
	for (int k = 0; k < 2; k++)
	{
		t = next_int32(&p, &xy[k], &tok);
		if (t == NUM_NONE)
			return rerr(r, r->line, "v line has %d number%s, expected 3: %s", k + 1, k ? "s" : "", form);
		if (t == NUM_BIG)
			return rerr(r, r->line, "coordinate %.*s does not fit in 32 bits (-2147483648..2147483647)", TOK(tok));
		if (t != NUM_OK)
			return rerr(r, r->line, "coordinate '%.*s' is not an integer; coordinate lines are %s", TOK(tok), form);
	}
	p = skip_blank(p);
	if (*p)
		return rerr(r, r->line, "unexpected '%.*s' after the coordinates; coordinate lines are %s", TOK(p), form);
	return 0;
}

static int read_coords(struct reader *r, const struct graph_read_options *o, struct graph_coords *c)
{
	uint64_t n = 0, p_line = 0, given = 0;
	uint8_t *seen = NULL;
	char *line;
	int rc;
	r->comment = 'c';
	while ((rc = reader_next(r, &line)) > 0)
	{
		char *p = skip_blank(line);
		if (p[0] == 'v' && (p[1] == ' ' || p[1] == '\t'))
		{
			uint64_t id = 0;
			int32_t xy[2];
			if (!p_line)
				rc = rerr(r, r->line, "v line before the 'p aux sp co VERTICES' line; put the p line first");
			else if ((rc = parse_v_line(r, p + 1, n, &id, xy)) == 0)
			{
				uint32_t v = (uint32_t)(id - 1);
				if (seen[v / 8] & (1u << (v % 8)))
					rc = rerr(r, r->line, "vertex %" PRIu64 " has a second v line; give each vertex once", id);
				else
				{
					seen[v / 8] |= (uint8_t)(1u << (v % 8));
					c->x[v] = xy[0];
					c->y[v] = xy[1];
					given++;
				}
			}
			if (rc < 0)
				goto out;
		}
		else if (p[0] == 'c' || p[0] == '\0')
			continue;
		else if ((rc = p_line_at(r, p, &p_line)) != 0)
		{
			/* 9 bytes per vertex (x, y and a bit), and one v line of at least "v 1 0 0\n" each. */
			if (rc < 0 || (rc = parse_co_p_line(r, p + 1, &n)) < 0 || (rc = graph_check_fits(r, n, 8, "vertices", "p line")) < 0)
				goto out;
			if (o->max_bytes && n * 9 > o->max_bytes)
			{
				rc = graph_set_error(r->err, -ENOMEM, "%s:%" PRIu64 ": %" PRIu64 " coordinates need %" PRIu64
						     " bytes, more than the limit of %" PRIu64 " (%s); check the p line", r->path,
						     r->line, n, n * 9, o->max_bytes, limit_what(o));
				goto out;
			}
			c->x = malloc(n * sizeof *c->x);
			c->y = malloc(n * sizeof *c->y);
			seen = calloc(n / 8 + 1, 1);
			if (!c->x || !c->y || !seen)
			{
				rc = graph_set_error(r->err, -ENOMEM, "%s: out of memory for %" PRIu64 " coordinates", r->path, n);
				goto out;
			}
			c->n = (uint32_t)n;
		}
		else
		{
			rc = rerr(r, r->line, "unknown line type '%.*s'; coordinate lines start with 'c' (comment), 'p' (header) "
				  "or 'v' (vertex)", TOK(p));
			goto out;
		}
	}
	if (rc < 0)
		goto out;
	if (r->line == 0)
		rc = rerr(r, 1, "empty file; a coordinate file needs a 'p aux sp co VERTICES' line and one 'v ID X Y' line per vertex");
	else if (!p_line)
		rc = rerr(r, r->line, "end of file without a 'p aux sp co VERTICES' line; add one before the v lines");
	else if (given < n)
	{
		uint32_t v = 0;
		while (seen[v / 8] & (1u << (v % 8)))
			v++;
		rc = rerr(r, r->line, "file ends after %" PRIu64 " of the %" PRIu64 " vertices the p line (line %" PRIu64
			  ") announces (vertex %" PRIu32 " has no v line); the file is truncated or the p line is wrong",
			  given, n, p_line, v + 1);
	}
	else
	{
		c->min_x = c->max_x = c->x[0];
		c->min_y = c->max_y = c->y[0];
		for (uint32_t v = 1; v < c->n; v++)
		{
			c->min_x = c->x[v] < c->min_x ? c->x[v] : c->min_x;
			c->max_x = c->x[v] > c->max_x ? c->x[v] : c->max_x;
			c->min_y = c->y[v] < c->min_y ? c->y[v] : c->min_y;
			c->max_y = c->y[v] > c->max_y ? c->y[v] : c->max_y;
		}
	}
out:
	free(seen);
	if (rc < 0)
		graph_coords_free(c);
	return rc;
}

int graph_read_coords(const char *path, const struct graph_read_options *opt, struct graph_coords *c,
		      struct graph_error *err)
{
	memset(c, 0, sizeof *c);
	struct graph_read_options o = opt ? *opt : (struct graph_read_options){0};
	struct reader r;
	int rc = graph_reader_open(&r, path, err);
	if (rc < 0)
		return rc;
	rc = read_coords(&r, &o, c);
	graph_reader_close(&r);
	return rc;
}

void graph_coords_free(struct graph_coords *c)
{
	free(c->x);
	free(c->y);
	memset(c, 0, sizeof *c);
}

/* ------------------------------------------------------------------ writer */

int graph_write_dimacs(const struct graph *g, const char *path, struct graph_error *err)
{
	int rc = graph_validate(g, err);
	if (rc < 0)
		return rc;
	struct outfile_buf b;
	if ((rc = outfile_buf_open(&b, path, WRITE_BUF, err)) < 0)
		return rc;
	char *p = b.buf + snprintf(b.buf, b.size, "c written by tuccompi-graph\np sp %" PRIu32 " %" PRIu64 "\n", g->n, g->m);
	for (uint32_t u = 0; u < g->n && rc == 0; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			if ((rc = outfile_buf_room(&b, &p, 64, err)) < 0)
				break;
			*p++ = 'a';
			*p++ = ' ';
			p = numtext_u64(p, (uint64_t)u + 1);
			*p++ = ' ';
			p = numtext_u64(p, (uint64_t)g->col[e] + 1);
			*p++ = ' ';
			p = numtext_u64(p, g->w[e]);
			*p++ = '\n';
		}
	return outfile_buf_commit(&b, p, rc, err);
}
