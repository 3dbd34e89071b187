/* Graph files: DIMACS (.gr) and Matrix Market (.mtx) readers, the binary cache (.tgb), and
 * the writers.
 *
 * Text inputs are read in large blocks and parsed by hand (no stdio scanning): files of 10^8
 * arcs are common. Arcs are collected into a list that grows as lines arrive, so a header
 * announcing absurd counts costs nothing until the arcs are really there; the list then
 * becomes the CSR, in place when the arcs come sorted by source.
 *
 * The binary file (.tgb, native byte order) is a header followed by the CSR arrays:
 *   struct tgb_header (80 bytes) | rowptr[n+1] u64 | col[m] u32 | w[m] u32 | min_out[n] u32
 * with a checksum over the header and the arrays. A cache written by graph_read_cached also
 * records the size and mtime of its source and the read options that shaped the weights.
 * Loading checks the size, the checksum and every CSR invariant, so a damaged file is an
 * error, never a crash.
 *
 * Writers go through "PATH.tmp.PID", then fsync and rename: a reader of PATH sees the old
 * file or the complete new one, and a failure removes the temporary file. */
#include "graph_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ line reader */

#define READ_CHUNK (8u << 20) /* bytes per read() */
#define MAX_LINE (1u << 20)   /* longest line accepted */
#define MAX_ARCS (1ull << 56) /* larger announced counts are nonsense, and byte sizes stay in 64 bits */

struct reader
{
	const char *path;
	struct graph_error *err;
	int fd;
	char *buf;          /* READ_CHUNK + MAX_LINE + 1 bytes */
	size_t pos, len;    /* unread bytes: buf[pos..len) */
	int eof;
	uint64_t line;      /* number of the line last returned */
	uint64_t size;      /* file size for a regular file, else 0 */
	uint64_t consumed;  /* bytes of the file before buf[0] */
};

static int io_error(struct graph_error *err, const char *path, const char *what, int e)
{
	return graph_set_error(err, -e, "%s: %s: %s", path, what, strerror(e));
}

/* "path:line: message"; returns -EINVAL. */
static int __attribute__((format(printf, 3, 4))) rerr(struct reader *r, uint64_t line, const char *fmt, ...)
{
	if (r->err)
	{
		int k = snprintf(r->err->msg, sizeof r->err->msg, "%s:%" PRIu64 ": ", r->path, line ? line : 1);
		if (k < 0 || (size_t)k >= sizeof r->err->msg)
			k = 0;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->err->msg + k, sizeof r->err->msg - k, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int reader_open(struct reader *r, const char *path, struct graph_error *err)
{
	memset(r, 0, sizeof *r);
	r->path = path;
	r->err = err;
	r->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->fd < 0)
		return io_error(err, path, "cannot open", errno);
	struct stat st;
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode))
		r->size = (uint64_t)st.st_size;
	posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (!(r->buf = malloc(READ_CHUNK + MAX_LINE + 1)))
	{
		close(r->fd);
		return graph_set_error(err, -ENOMEM, "%s: out of memory for a %u-byte read buffer", path,
				       READ_CHUNK + MAX_LINE + 1);
	}
	return 0;
}

static void reader_close(struct reader *r)
{
	close(r->fd);
	free(r->buf);
}

/* Bytes of the file not returned yet, or 0 when unknown. */
static uint64_t reader_left(const struct reader *r)
{
	uint64_t at = r->consumed + r->pos;
	return r->size > at ? r->size - at : 0;
}

/* Next line, NUL-terminated, without its "\n" or "\r\n": 1, or 0 at the end, or < 0. */
static int reader_next(struct reader *r, char **out)
{
	for (;;)
	{
		char *start = r->buf + r->pos;
		char *nl = memchr(start, '\n', r->len - r->pos);
		if (nl || (r->eof && r->pos < r->len))
		{
			char *end = nl ? nl : r->buf + r->len; /* buf has room for this NUL */
			if (end - start >= MAX_LINE)
				break;
			r->pos = (size_t)(nl ? nl + 1 - r->buf : end - r->buf);
			if (end > start && end[-1] == '\r')
				end--;
			*end = '\0';
			r->line++;
			*out = start;
			return 1;
		}
		if (r->eof)
			return 0;
		size_t rest = r->len - r->pos;
		if (rest >= MAX_LINE)
			break;
		memmove(r->buf, start, rest);
		r->consumed += r->pos;
		r->pos = 0;
		r->len = rest;
		ssize_t k = read(r->fd, r->buf + rest, READ_CHUNK);
		if (k < 0 && errno != EINTR)
			return io_error(r->err, r->path, "read error", errno);
		if (k == 0)
			r->eof = 1;
		else if (k > 0)
			r->len += (size_t)k;
	}
	return rerr(r, r->line + 1, "line longer than %u bytes; is this really a text graph file?", MAX_LINE);
}

/* ------------------------------------------------------------------ tokens */

static inline char *skip_blank(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static inline char *token_end(char *p)
{
	while (*p && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* Token text for messages, cut to a sane length. */
#define TOK(t) (int)(token_end(t) - (t) > 40 ? 40 : token_end(t) - (t)), (t)

enum num
{
	NUM_OK,
	NUM_NONE, /* end of line */
	NUM_BAD,  /* not a decimal integer */
	NUM_NEG,  /* a negative integer */
	NUM_BIG,  /* does not fit in 64 bits */
};

/* Parse the next blank-separated unsigned decimal integer; *tok points at its text. */
static inline enum num next_uint(char **pp, uint64_t *v, char **tok)
{
	char *p = skip_blank(*pp), *s = p;
	*tok = p;
	if (!*p)
		return NUM_NONE;
	while (*p == '0' && (unsigned)(p[1] - '0') < 10)
		p++;
	char *digits = p;
	uint64_t x = 0;
	for (unsigned d; (d = (unsigned)(*p - '0')) < 10; p++)
		x = x * 10 + d;
	if (p == s || (*p && *p != ' ' && *p != '\t'))
	{
		char *e = token_end(p);
		*pp = e;
		if (*s == '-' && e > s + 1)
		{
			for (char *q = s + 1; q < e; q++)
				if ((unsigned)(*q - '0') >= 10)
					return NUM_BAD;
			return NUM_NEG;
		}
		return NUM_BAD;
	}
	*pp = p;
	*v = x;
	return p - digits > 19 ? NUM_BIG : NUM_OK; /* 19 digits always fit in 64 bits */
}

/* ------------------------------------------------------------------ arc list */

struct arcs
{
	uint32_t *src, *dst, *w;
	uint64_t len, cap, limit; /* limit: the count the header announced */
};

static int arcs_resize(struct arcs *a, struct reader *r, uint64_t cap)
{
	uint32_t *p;
	if (!(p = realloc(a->src, cap * sizeof *p)))
		goto nomem;
	a->src = p;
	if (!(p = realloc(a->dst, cap * sizeof *p)))
		goto nomem;
	a->dst = p;
	if (!(p = realloc(a->w, cap * sizeof *p)))
		goto nomem;
	a->w = p;
	a->cap = cap;
	return 0;
nomem:
	return graph_set_error(r->err, -ENOMEM, "%s:%" PRIu64 ": out of memory: the arc list needs %" PRIu64 " bytes",
			       r->path, r->line, cap * 3 * (uint64_t)sizeof *p);
}

/* Size the list from the header's count, but never beyond what the rest of the file can
 * hold (each line takes at least min_bytes), so a lying header allocates nothing big. */
static int arcs_start(struct arcs *a, uint64_t limit, struct reader *r, unsigned min_bytes, unsigned arcs_per_line)
{
	memset(a, 0, sizeof *a);
	a->limit = limit;
	uint64_t fit = r->size ? (reader_left(r) / min_bytes + 1) * arcs_per_line : (1u << 20);
	return limit ? arcs_resize(a, r, fit < limit ? fit : limit) : 0;
}

/* The callers stop at the announced count: the list never grows past a->limit. */
static inline int arcs_push(struct arcs *a, struct reader *r, uint32_t u, uint32_t v, uint32_t w)
{
	if (a->len == a->cap)
	{
		uint64_t cap = a->cap * 2 > a->limit ? a->limit : a->cap * 2;
		int rc = arcs_resize(a, r, cap);
		if (rc < 0)
			return rc;
	}
	a->src[a->len] = u;
	a->dst[a->len] = v;
	a->w[a->len] = w;
	a->len++;
	return 0;
}

static void arcs_free(struct arcs *a)
{
	free(a->src);
	free(a->dst);
	free(a->w);
}

static int check_max_bytes(struct reader *r, const struct graph_read_options *o, uint64_t n, uint64_t m)
{
	uint64_t need = graph_bytes_for((uint32_t)n, m);
	if (o->max_bytes && need > o->max_bytes)
		return graph_set_error(r->err, -ENOMEM,
				       "%s:%" PRIu64 ": the graph (%" PRIu64 " vertices, %" PRIu64 " arcs) needs %" PRIu64
				       " bytes, more than the limit of %" PRIu64 " (max_bytes); raise the limit or use a smaller graph",
				       r->path, r->line, n, m, need, o->max_bytes);
	return 0;
}

/* Why a vertex id field is not in 1..n. */
static int __attribute__((noinline, cold)) bad_id(struct reader *r, enum num t, char *tok, uint64_t n, const char *what,
						   const char *where)
{
	switch (t)
	{
	case NUM_OK:
	case NUM_NEG:
	case NUM_BIG:
		return rerr(r, r->line, "%s %.*s out of range 1..%" PRIu64 " (%s %" PRIu64 " vertices)", what, TOK(tok), n,
			    where, n);
	default:
		return rerr(r, r->line, "%s '%.*s' is not an integer; vertex ids are 1..%" PRIu64, what, TOK(tok), n);
	}
}

/* Why an integer weight field is not in 0..GRAPH_MAX_WEIGHT. */
static int __attribute__((noinline, cold)) bad_weight(struct reader *r, enum num t, char *tok)
{
	switch (t)
	{
	case NUM_OK:
	case NUM_BIG:
		return rerr(r, r->line, "weight %.*s above the maximum %u; scale the weights down", TOK(tok), GRAPH_MAX_WEIGHT);
	case NUM_NEG:
		return rerr(r, r->line, "negative weight %.*s; weights are integers 0..%u", TOK(tok), GRAPH_MAX_WEIGHT);
	default:
		return rerr(r, r->line, "weight '%.*s' is not an integer 0..%u", TOK(tok), GRAPH_MAX_WEIGHT);
	}
}

static inline int check_id(struct reader *r, enum num t, char *tok, uint64_t v, uint64_t n, const char *what,
			   const char *where)
{
	return t == NUM_OK && v - 1 < n ? 0 : bad_id(r, t, tok, n, what, where);
}

static inline int check_weight(struct reader *r, enum num t, char *tok, uint64_t v)
{
	return t == NUM_OK && v <= GRAPH_MAX_WEIGHT ? 0 : bad_weight(r, t, tok);
}

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

static int read_dimacs(struct reader *r, const struct graph_read_options *o, struct graph *g)
{
	struct arcs a = {0};
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
		else if (p[0] == 'p' && (p[1] == ' ' || p[1] == '\t' || p[1] == '\0'))
		{
			if (p_line)
			{
				rc = rerr(r, r->line, "second p line (the first is line %" PRIu64 "); keep only one", p_line);
				goto out;
			}
			p_line = r->line;
			if ((rc = parse_p_line(r, p + 1, &n, &m)) < 0 || (rc = check_max_bytes(r, o, n, m)) < 0 ||
			    (rc = arcs_start(&a, m, r, 8 /* "a 1 2 0\n" */, 1)) < 0)
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
	else
	{
		rc = graph_from_owned_arcs((uint32_t)n, a.len, a.src, a.dst, a.w, g, r->err);
		a.src = a.dst = a.w = NULL;
	}
out:
	arcs_free(&a);
	return rc;
}

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

/* A real weight: finite, >= 0, times scale, rounded to the nearest integer. */
static int parse_real(struct reader *r, char **pp, double scale, uint64_t *w)
{
	char *tok = skip_blank(*pp), *e = token_end(tok), *end;
	double x = strtod(tok, &end);
	*pp = e;
	if (end != e || e == tok)
		return rerr(r, r->line, "weight '%.*s' is not a number; weights must be finite and >= 0", TOK(tok));
	if (!isfinite(x))
		return rerr(r, r->line, "weight '%.*s' is not a finite number; weights must be finite and >= 0", TOK(tok));
	if (x < 0)
		return rerr(r, r->line, "negative weight %.*s; weights must be >= 0", TOK(tok));
	double s = x * scale;
	if (!(s < GRAPH_MAX_WEIGHT + 0.5))
		return rerr(r, r->line, "weight %.*s x real_scale %g is above the maximum %u; use a smaller real_scale", TOK(tok),
			    scale, GRAPH_MAX_WEIGHT);
	*w = (uint64_t)(s + 0.5);
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
			rc = parse_real(r, &p, o->real_scale, &v[2]);
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

static int read_mtx(struct reader *r, const struct graph_read_options *o, struct graph *g)
{
	struct arcs a = {0};
	enum mtx_field field = MTX_PATTERN;
	int symmetric = 0;
	uint64_t n = 0, nnz = 0, entries = 0, size_line = 0;
	char *line;
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
			    (rc = check_max_bytes(r, o, n, symmetric ? 2 * nnz : nnz)) < 0 ||
			    (rc = arcs_start(&a, symmetric ? 2 * nnz : nnz, r, 4 /* "1 2\n" */, symmetric ? 2 : 1)) < 0)
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
	else
	{
		rc = graph_from_owned_arcs((uint32_t)n, a.len, a.src, a.dst, a.w, g, r->err);
		a.src = a.dst = a.w = NULL;
	}
out:
	arcs_free(&a);
	return rc;
}

/* ------------------------------------------------------------------ binary file */

#define TGB_MAGIC "TUCGRAPH"
#define TGB_VERSION 1u
#define TGB_BYTE_ORDER 0x01020304u
#define TGB_CACHE 1u /* flags: made from a source file */

struct tgb_header
{
	char magic[8];
	uint32_t version;
	uint32_t byte_order;
	uint32_t n;
	uint32_t max_w;
	uint64_t m;
	uint32_t flags;
	uint32_t pattern_weight; /* read options of a cache's source */
	double real_scale;
	uint64_t src_size; /* a cache's source file */
	int64_t src_mtime_sec;
	int64_t src_mtime_nsec;
	uint64_t checksum; /* over the header (this field 0) and the arrays */
};
_Static_assert(sizeof(struct tgb_header) == 80, "the .tgb header layout is fixed");

/* FNV-1a's 64-bit prime applied to 8-byte words in four interleaved lanes: fast enough for
 * gigabytes, and any single changed word changes the result (each step is a bijection). */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

static uint64_t checksum(uint64_t seed, const void *data, uint64_t len)
{
	const unsigned char *p = data;
	uint64_t h[4] = {seed ^ FNV_OFFSET, seed + 1, seed + 2, seed + 3}, x;
	uint64_t i = 0;
	for (; i + 32 <= len; i += 32)
		for (int k = 0; k < 4; k++)
		{
			memcpy(&x, p + i + 8 * k, 8);
			h[k] = (h[k] ^ x) * FNV_PRIME;
		}
	for (; i < len; i++)
		h[0] = (h[0] ^ p[i]) * FNV_PRIME;
	uint64_t r = FNV_OFFSET ^ len;
	for (int k = 0; k < 4; k++)
		r = (r ^ h[k]) * FNV_PRIME;
	return r ^ (r >> 29);
}

static uint64_t graph_checksum(struct tgb_header h, const struct graph *g)
{
	h.checksum = 0;
	uint64_t c = checksum(0, &h, sizeof h);
	c = checksum(c, g->rowptr, ((uint64_t)g->n + 1) * sizeof *g->rowptr);
	c = checksum(c, g->col, g->m * sizeof *g->col);
	c = checksum(c, g->w, g->m * sizeof *g->w);
	return checksum(c, g->min_out, (uint64_t)g->n * sizeof *g->min_out);
}

/* What a cache must match to stand for its source. */
struct cache_key
{
	uint64_t size;
	int64_t mtime_sec, mtime_nsec;
	double real_scale;
	uint32_t pattern_weight;
};

static int read_full(int fd, void *buf, uint64_t len)
{
	char *p = buf;
	while (len)
	{
		ssize_t k = read(fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		p += k;
		len -= (uint64_t)k;
	}
	return 0;
}

#define REWRITE "; rewrite it with 'tuccompi-graph convert'"

/* Load a .tgb file. With @p key, it must be a cache of that source: -ESTALE otherwise. */
static int read_binary(const char *path, const struct graph_read_options *o, const struct cache_key *key, struct graph *g,
		       struct graph_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return io_error(err, path, "cannot open", errno);
	struct tgb_header h;
	struct stat st;
	int rc;
	if (fstat(fd, &st) < 0)
	{
		rc = io_error(err, path, "cannot stat", errno);
		goto out;
	}
	uint64_t size = (uint64_t)st.st_size;
	memset(&h, 0, sizeof h);
	if ((rc = read_full(fd, &h, size < sizeof h ? size : sizeof h)) < 0)
	{
		rc = io_error(err, path, "read error", -rc);
		goto out;
	}
	rc = -EINVAL;
	if (size >= sizeof h.magic && memcmp(h.magic, TGB_MAGIC, sizeof h.magic) != 0)
	{
		graph_set_error(err, rc, "%s: not a binary graph of this library (bad magic number)" REWRITE, path);
		goto out;
	}
	if (size < sizeof h)
	{
		graph_set_error(err, rc, "%s: truncated binary graph (%" PRIu64 " bytes, shorter than its %zu-byte header)" REWRITE,
				path, size, sizeof h);
		goto out;
	}
	if (h.byte_order != TGB_BYTE_ORDER)
	{
		graph_set_error(err, rc, "%s: written on a machine of another byte order" REWRITE, path);
		goto out;
	}
	if (h.version != TGB_VERSION)
	{
		graph_set_error(err, rc, "%s: format version %" PRIu32 ", this program reads version %u" REWRITE, path,
				h.version, TGB_VERSION);
		goto out;
	}
	if (h.n > GRAPH_MAX_VERTICES)
	{
		graph_set_error(err, rc, "%s: corrupted header (%" PRIu32 " vertices)" REWRITE, path, h.n);
		goto out;
	}
	/* h.m <= size keeps the expected size below 2^64. */
	uint64_t want = h.m > size ? UINT64_MAX : sizeof h + ((uint64_t)h.n + 1) * 8 + h.m * 8 + (uint64_t)h.n * 4;
	if (want != size)
	{
		graph_set_error(err, rc, "%s: %" PRIu64 " bytes, %s than the %" PRIu32 " vertices and %" PRIu64
				" arcs its header announces need: the file is %s" REWRITE,
				path, size, want > size ? "fewer" : "more", h.n, h.m, want > size ? "truncated or corrupted" : "corrupted");
		goto out;
	}
	if (key && (!(h.flags & TGB_CACHE) || h.src_size != key->size || h.src_mtime_sec != key->mtime_sec ||
		    h.src_mtime_nsec != key->mtime_nsec || h.real_scale != key->real_scale ||
		    h.pattern_weight != key->pattern_weight))
	{
		rc = graph_set_error(err, -ESTALE, "%s: not a cache of the current source file", path);
		goto out;
	}
	uint64_t need = graph_bytes_for(h.n, h.m);
	if (o->max_bytes && need > o->max_bytes)
	{
		rc = graph_set_error(err, -ENOMEM, "%s: the graph (%" PRIu32 " vertices, %" PRIu64 " arcs) needs %" PRIu64
				     " bytes, more than the limit of %" PRIu64 " (max_bytes); raise the limit or use a smaller graph",
				     path, h.n, h.m, need, o->max_bytes);
		goto out;
	}
	if ((rc = graph_alloc(g, h.n, h.m, err)) < 0)
		goto out;
	g->max_w = h.max_w;
	if ((rc = read_full(fd, g->rowptr, ((uint64_t)h.n + 1) * 8)) < 0 || (rc = read_full(fd, g->col, h.m * 4)) < 0 ||
	    (rc = read_full(fd, g->w, h.m * 4)) < 0 || (rc = read_full(fd, g->min_out, (uint64_t)h.n * 4)) < 0)
	{
		rc = io_error(err, path, "read error", -rc);
		goto fail;
	}
	if (graph_checksum(h, g) != h.checksum)
	{
		rc = graph_set_error(err, -EINVAL, "%s: checksum mismatch, the file is corrupted" REWRITE, path);
		goto fail;
	}
	struct graph_error why;
	if ((rc = graph_validate(g, &why)) < 0)
	{
		graph_set_error(err, rc, "%s: %.400s" REWRITE, path, why.msg);
		goto fail;
	}
	goto out;
fail:
	graph_free(g);
out:
	close(fd);
	return rc;
}

/* ------------------------------------------------------------------ atomic output */

struct out
{
	const char *path;
	char *tmp;
	int fd;
	struct graph_error *err;
};

static int out_open(struct out *o, const char *path, struct graph_error *err)
{
	o->path = path;
	o->err = err;
	o->fd = -1;
	size_t len = strlen(path) + 32;
	if (!(o->tmp = malloc(len)))
		return graph_set_error(err, -ENOMEM, "%s: out of memory", path);
	snprintf(o->tmp, len, "%s.tmp.%ld", path, (long)getpid());
	o->fd = open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o->fd < 0)
	{
		int e = errno;
		graph_set_error(err, -e, "%s: cannot create the temporary file %s: %s", path, o->tmp, strerror(e));
		free(o->tmp);
		return -e;
	}
	return 0;
}

static void out_abort(struct out *o)
{
	if (o->fd >= 0)
		close(o->fd);
	unlink(o->tmp);
	free(o->tmp);
}

/* On failure, aborts the output. */
static int out_write(struct out *o, const void *data, uint64_t len)
{
	const char *p = data;
	while (len)
	{
		ssize_t k = write(o->fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
		{
			int rc = io_error(o->err, o->path, "write error", errno);
			out_abort(o);
			return rc;
		}
		p += k;
		len -= (uint64_t)k;
	}
	return 0;
}

static int out_commit(struct out *o)
{
	const char *what = NULL;
	int e = 0;
	if (fsync(o->fd) < 0)
		what = "cannot sync", e = errno;
	else
	{
		int rc = close(o->fd);
		o->fd = -1;
		if (rc < 0)
			what = "write error", e = errno;
		else if (rename(o->tmp, o->path) < 0)
			what = "cannot rename the temporary file onto it", e = errno;
	}
	if (what)
	{
		out_abort(o);
		return io_error(o->err, o->path, what, e);
	}
	free(o->tmp);
	return 0;
}

static int write_binary(const struct graph *g, const char *path, const struct cache_key *key, struct graph_error *err)
{
	int rc = graph_validate(g, err);
	if (rc < 0)
		return rc;
	struct tgb_header h = {.version = TGB_VERSION, .byte_order = TGB_BYTE_ORDER, .n = g->n, .max_w = g->max_w, .m = g->m};
	memcpy(h.magic, TGB_MAGIC, sizeof h.magic);
	if (key)
	{
		h.flags = TGB_CACHE;
		h.pattern_weight = key->pattern_weight;
		h.real_scale = key->real_scale;
		h.src_size = key->size;
		h.src_mtime_sec = key->mtime_sec;
		h.src_mtime_nsec = key->mtime_nsec;
	}
	h.checksum = graph_checksum(h, g);
	struct out o;
	if ((rc = out_open(&o, path, err)) < 0 || (rc = out_write(&o, &h, sizeof h)) < 0 ||
	    (rc = out_write(&o, g->rowptr, ((uint64_t)g->n + 1) * 8)) < 0 || (rc = out_write(&o, g->col, g->m * 4)) < 0 ||
	    (rc = out_write(&o, g->w, g->m * 4)) < 0 || (rc = out_write(&o, g->min_out, (uint64_t)g->n * 4)) < 0)
		return rc;
	return out_commit(&o);
}

int graph_write_binary(const struct graph *g, const char *path, struct graph_error *err)
{
	return write_binary(g, path, NULL, err);
}

static char *put_uint(char *p, uint64_t v)
{
	char tmp[20];
	int k = 0;
	do
		tmp[k++] = (char)('0' + v % 10);
	while ((v /= 10));
	while (k)
		*p++ = tmp[--k];
	return p;
}

int graph_write_dimacs(const struct graph *g, const char *path, struct graph_error *err)
{
	int rc = graph_validate(g, err);
	if (rc < 0)
		return rc;
	enum { BUF = 1 << 20, LINE = 64 };
	char *buf = malloc(BUF);
	if (!buf)
		return graph_set_error(err, -ENOMEM, "%s: out of memory for a %d-byte write buffer", path, BUF);
	struct out o;
	if ((rc = out_open(&o, path, err)) < 0)
	{
		free(buf);
		return rc;
	}
	char *p = buf + snprintf(buf, BUF, "c written by tuccompi-graph\np sp %" PRIu32 " %" PRIu64 "\n", g->n, g->m);
	for (uint32_t u = 0; u < g->n && rc == 0; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			if (p > buf + BUF - LINE)
			{
				if ((rc = out_write(&o, buf, (uint64_t)(p - buf))) < 0)
					break;
				p = buf;
			}
			*p++ = 'a';
			*p++ = ' ';
			p = put_uint(p, (uint64_t)u + 1);
			*p++ = ' ';
			p = put_uint(p, (uint64_t)g->col[e] + 1);
			*p++ = ' ';
			p = put_uint(p, g->w[e]);
			*p++ = '\n';
		}
	if (rc == 0 && (rc = out_write(&o, buf, (uint64_t)(p - buf))) == 0)
		rc = out_commit(&o);
	free(buf);
	return rc;
}

/* ------------------------------------------------------------------ entry points */

static int format_of(const char *path, enum graph_format *f, struct graph_error *err)
{
	const char *base = strrchr(path, '/'), *dot;
	dot = strrchr(base ? base + 1 : path, '.');
	if (dot && strcasecmp(dot, ".gr") == 0)
		*f = GRAPH_FORMAT_DIMACS;
	else if (dot && strcasecmp(dot, ".mtx") == 0)
		*f = GRAPH_FORMAT_MTX;
	else if (dot && strcasecmp(dot, ".tgb") == 0)
		*f = GRAPH_FORMAT_BINARY;
	else if (dot && (strcasecmp(dot, ".gz") == 0 || strcasecmp(dot, ".bz2") == 0 || strcasecmp(dot, ".xz") == 0 ||
			 strcasecmp(dot, ".zst") == 0))
		return graph_set_error(err, -EINVAL, "%s: compressed files are not read; decompress it first", path);
	else
		return graph_set_error(err, -EINVAL,
				       "%s: cannot tell the format from the name; use a .gr (DIMACS), .mtx (Matrix Market) or .tgb (binary) file",
				       path);
	return 0;
}

/* Options with their defaults filled in, checked. */
static int options(const struct graph_read_options *opt, struct graph_read_options *o, struct graph_error *err)
{
	static const struct graph_read_options defaults = {0};
	*o = opt ? *opt : defaults;
	if (o->real_scale == 0)
		o->real_scale = 1;
	if (o->pattern_weight == 0)
		o->pattern_weight = 1;
	if (!isfinite(o->real_scale) || o->real_scale < 0)
		return graph_set_error(err, -EINVAL, "real_scale %g: must be a positive finite number", o->real_scale);
	if (o->pattern_weight > GRAPH_MAX_WEIGHT)
		return graph_set_error(err, -EINVAL, "pattern_weight %" PRIu32 " above the maximum weight %u", o->pattern_weight,
				       GRAPH_MAX_WEIGHT);
	return 0;
}

int graph_read(const char *path, const struct graph_read_options *opt, struct graph *g, struct graph_error *err)
{
	memset(g, 0, sizeof *g);
	struct graph_read_options o;
	int rc = options(opt, &o, err);
	enum graph_format f = o.format;
	if (rc < 0 || (f == GRAPH_FORMAT_AUTO && (rc = format_of(path, &f, err)) < 0))
		return rc;
	if (f == GRAPH_FORMAT_BINARY)
		return read_binary(path, &o, NULL, g, err);
	if (f != GRAPH_FORMAT_DIMACS && f != GRAPH_FORMAT_MTX)
		return graph_set_error(err, -EINVAL, "%s: unknown format %d", path, (int)f);
	struct reader r;
	if ((rc = reader_open(&r, path, err)) < 0)
		return rc;
	rc = f == GRAPH_FORMAT_DIMACS ? read_dimacs(&r, &o, g) : read_mtx(&r, &o, g);
	reader_close(&r);
	return rc;
}

static int source_key(const char *path, const struct graph_read_options *o, struct cache_key *key,
		      struct graph_error *err)
{
	struct stat st;
	if (stat(path, &st) < 0)
		return io_error(err, path, "cannot open", errno);
	*key = (struct cache_key){.size = (uint64_t)st.st_size,
				  .mtime_sec = st.st_mtim.tv_sec,
				  .mtime_nsec = st.st_mtim.tv_nsec,
				  .real_scale = o->real_scale,
				  .pattern_weight = o->pattern_weight};
	return 0;
}

/* A cache that cannot be written does not fail the read: the graph is returned, and err
 * holds a note saying why the cache was not written (empty when it was). */
int graph_read_cached(const char *path, const char *cache_path, const struct graph_read_options *opt,
		      struct graph *g, struct graph_error *err)
{
	memset(g, 0, sizeof *g);
	struct graph_error scratch;
	if (!err)
		err = &scratch;
	struct graph_read_options o;
	struct cache_key before = {0}, after = {0};
	int rc;
	if ((rc = options(opt, &o, err)) < 0 || (rc = source_key(path, &o, &before, err)) < 0)
		return rc;
	if (read_binary(cache_path, &o, &before, g, err) == 0)
	{
		err->msg[0] = '\0';
		return 0;
	}
	if ((rc = graph_read(path, &o, g, err)) < 0)
		return rc;
	err->msg[0] = '\0';
	/* A source changed while it was parsed must not be cached under its new date. */
	if (source_key(path, &o, &after, err) < 0 || before.size != after.size ||
	    before.mtime_sec != after.mtime_sec || before.mtime_nsec != after.mtime_nsec)
	{
		snprintf(err->msg, sizeof err->msg, "note: %s changed while being read; no cache written", path);
		return 0;
	}
	struct graph_error werr;
	if (write_binary(g, cache_path, &before, &werr) < 0)
		snprintf(err->msg, sizeof err->msg, "note: cache not written: %.480s", werr.msg);
	return 0;
}
