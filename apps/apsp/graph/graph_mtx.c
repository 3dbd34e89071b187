/* Matrix Market coordinate files (.mtx): pattern, integer or real entries, general or
 * symmetric (both arcs of each off-diagonal entry), 1-based ids. Real weights are multiplied
 * by graph_read_options::real_scale and rounded. The line reader and the checks are
 * graph_text.c's. */
#include "graph_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ------------------------------------------------------------------ Matrix Market */

enum mtx_field
{
	MTX_PATTERN,
	MTX_INTEGER,
	MTX_REAL,
};

static int word_is(const char *tok, const char *word)
{
	size_t len = strlen(word);
	return strncasecmp(tok, word, len) == 0 && (tok[len] == '\0' || tok[len] == ' ' || tok[len] == '\t');
}

/* "%%MatrixMarket matrix coordinate FIELD SYMMETRY" */
static int parse_banner(struct reader *r, char *line, enum mtx_field *field, int *symmetric)
{
	static const char usage[] = "'%%MatrixMarket matrix coordinate pattern|integer|real general|symmetric'";
	if (strncasecmp(line, "%%MatrixMarket", 14) != 0 || (line[14] && line[14] != ' ' && line[14] != '\t'))
		return rerr(r, 1, "no Matrix Market banner; the first line must be %s", usage);
	char *w[4];
	char *p = line + 14;
	for (int k = 0; k < 4; k++)
	{
		w[k] = skip_blank(p);
		if (!*w[k])
			return rerr(r, 1, "incomplete banner; write %s", usage);
		p = token_end(w[k]);
	}
	p = skip_blank(p);
	if (*p)
		return rerr(r, 1, "unexpected '%.*s' at the end of the banner; write %s", TOK(p), usage);
	if (!word_is(w[0], "matrix"))
		return rerr(r, 1, "object '%.*s' is not supported, only 'matrix'", TOK(w[0]));
	if (word_is(w[1], "array"))
		return rerr(r, 1, "dense 'array' format is not supported; convert the matrix to sparse 'coordinate' format");
	if (!word_is(w[1], "coordinate"))
		return rerr(r, 1, "format '%.*s' is not supported, only 'coordinate'", TOK(w[1]));
	if (word_is(w[2], "pattern"))
		*field = MTX_PATTERN;
	else if (word_is(w[2], "integer"))
		*field = MTX_INTEGER;
	else if (word_is(w[2], "real") || word_is(w[2], "double"))
		*field = MTX_REAL;
	else if (word_is(w[2], "complex"))
		return rerr(r, 1, "complex values are not supported; arc weights must be pattern, integer or real");
	else
		return rerr(r, 1, "unknown field '%.*s'; use pattern, integer or real", TOK(w[2]));
	if (word_is(w[3], "general"))
		*symmetric = 0;
	else if (word_is(w[3], "symmetric"))
		*symmetric = 1;
	else if (word_is(w[3], "skew-symmetric"))
		return rerr(r, 1, "skew-symmetric matrices are not supported (a_ji = -a_ij: negative weights); use general or symmetric");
	else if (word_is(w[3], "hermitian"))
		return rerr(r, 1, "hermitian matrices are not supported; use general or symmetric");
	else
		return rerr(r, 1, "unknown symmetry '%.*s'; use general or symmetric", TOK(w[3]));
	return 0;
}

static int parse_size(struct reader *r, char *p, uint64_t *n, uint64_t *nnz)
{
	static const char usage[] = "the size line is 'ROWS COLUMNS ENTRIES'";
	uint64_t v[3];
	char *tok[3];
	for (int k = 0; k < 3; k++)
	{
		enum num t = next_uint(&p, &v[k], &tok[k]);
		if (t == NUM_NONE)
			return rerr(r, r->line, "size line has %d number%s, expected 3; %s", k, k == 1 ? "" : "s", usage);
		if (t != NUM_OK)
			return rerr(r, r->line, "'%.*s' is not a non-negative integer; %s", TOK(tok[k]), usage);
	}
	p = skip_blank(p);
	if (*p)
		return rerr(r, r->line, "unexpected '%.*s' after the entry count; %s", TOK(p), usage);
	if (v[0] != v[1])
		return rerr(r, r->line, "matrix is %" PRIu64 " x %" PRIu64 ", not square; a graph's adjacency matrix has as many rows as columns",
			    v[0], v[1]);
	if (v[0] < 1 || v[0] > GRAPH_MAX_VERTICES)
		return rerr(r, r->line, "%" PRIu64 " rows: the number of vertices must be 1..%" PRIu32, v[0], GRAPH_MAX_VERTICES);
	if (v[2] > MAX_ARCS)
		return rerr(r, r->line, "%" PRIu64 " entries: more than %llu cannot be right; check the size line", v[2], MAX_ARCS);
	*n = v[0];
	*nnz = v[2];
	return 0;
}

static const char *const field_names[] = {"pattern", "integer", "real"};

static int parse_entry(struct reader *r, char *p, uint64_t n, enum mtx_field field, const struct graph_read_options *o,
		       uint64_t v[3])
{
	static const char *const names[2] = {"row", "column"};
	const char *form = field == MTX_PATTERN ? "'ROW COLUMN'" : "'ROW COLUMN VALUE'";
	int want = field == MTX_PATTERN ? 2 : 3;
	for (int k = 0; k < want; k++)
	{
		if (!*skip_blank(p))
			return rerr(r, r->line, "entry has %d number%s, expected %d: %s", k, k == 1 ? "" : "s", want, form);
		int rc;
		if (k == 2 && field == MTX_REAL)
		{
			char *tok = skip_blank(p);
			p = token_end(tok);
			rc = graph_parse_real(r, tok, p, o, &v[2]);
		}
		else
		{
			char *tok;
			enum num t = next_uint(&p, &v[k], &tok);
			rc = k < 2 ? check_id(r, t, tok, v[k], n, names[k], "the matrix has") : check_weight(r, t, tok, v[k]);
		}
		if (rc < 0)
			return rc;
	}
	p = skip_blank(p);
	if (*p)
		return rerr(r, r->line, "unexpected '%.*s' after the entry; %s entries are %s", TOK(p), field_names[field], form);
	if (field == MTX_PATTERN)
		v[2] = o->pattern_weight;
	return 0;
}

int graph_read_mtx_text(struct reader *r, const struct graph_read_options *o, struct graph *g)
{
	struct arcs a = {0};
	enum mtx_field field = MTX_PATTERN;
	int symmetric = 0;
	uint64_t n = 0, nnz = 0, entries = 0, size_line = 0;
	char *line;
	r->comment = '%';
	int rc = reader_next(r, &line);
	if (rc == 0)
		return rerr(r, 1, "empty file; a Matrix Market file starts with '%%%%MatrixMarket matrix coordinate ...'");
	if (rc < 0 || (rc = parse_banner(r, line, &field, &symmetric)) < 0)
		return rc;
	while ((rc = reader_next(r, &line)) > 0)
	{
		char *p = skip_blank(line);
		if (*p == '%' || *p == '\0')
			continue;
		if (!size_line)
		{
			size_line = r->line;
			if ((rc = parse_size(r, p, &n, &nnz)) < 0 ||
			    (rc = graph_check_max_bytes(r, o, n, symmetric ? 2 * nnz : nnz, 4, symmetric ? 2 : 1)) < 0 ||
			    (rc = graph_arcs_start(&a, symmetric ? 2 * nnz : nnz, r, 4 /* "1 2\n" */, symmetric ? 2 : 1)) < 0)
				goto out;
			continue;
		}
		uint64_t v[3];
		if (entries == nnz)
			rc = rerr(r, r->line, "more entries than the %" PRIu64 " the size line (line %" PRIu64
				  ") announces; fix the entry count", nnz, size_line);
		else if ((rc = parse_entry(r, p, n, field, o, v)) == 0)
		{
			entries++;
			rc = arcs_push(&a, r, (uint32_t)v[0] - 1, (uint32_t)v[1] - 1, (uint32_t)v[2]);
			if (rc == 0 && symmetric && v[0] != v[1])
				rc = arcs_push(&a, r, (uint32_t)v[1] - 1, (uint32_t)v[0] - 1, (uint32_t)v[2]);
		}
		if (rc < 0)
			goto out;
	}
	if (rc < 0)
		goto out;
	if (!size_line)
		rc = rerr(r, r->line, "end of file without the size line 'ROWS COLUMNS ENTRIES'");
	else if (entries < nnz)
		rc = rerr(r, r->line, "file ends after %" PRIu64 " entr%s but the size line (line %" PRIu64
			  ") announces %" PRIu64 "; the file is truncated or the size line is wrong", entries,
			  entries == 1 ? "y" : "ies", size_line, nnz);
out:
	return arcs_done(&a, rc, n, g, r);
}
