/* The text readers' common parts (graph_text.c): the line reader, tokens, the growing arc list,
 * the checks of counts against the file and the memory limit, and the messages with file:line.
 * One file per format uses them: graph_gr.c (DIMACS .gr and .co), graph_mtx.c (Matrix Market),
 * graph_edgelist.c (edge lists). Not part of the library's API.
 *
 * Text inputs are read in large blocks and parsed by hand (no stdio scanning): files of 10^8
 * arcs are common, so what runs once per line or token is inline here. Arcs are collected into
 * a list that grows as lines arrive, so a header announcing absurd counts costs nothing until
 * the arcs are really there; the list then becomes the CSR, in place when the arcs come sorted
 * by source.
 *
 * A gzip input (a .gz file, or any input that starts with gzip's two magic bytes, standard input
 * too) is inflated as it is read (zlib), one member after another; line numbers and messages are
 * those of the text. Its text size is unknown beforehand, so the checks against the rest of the
 * file (below) are not made for it, as for pipes. A stream that ends inside a member is an error.
 *
 * Text inputs hold printable text, tabs and line ends ("\n" or "\r\n") only: a NUL or another
 * control byte is an error at its line, never a silent end of line.
 *
 * Memory: the counts of a header are checked before anything is allocated, against what the
 * rest of a regular file can hold (every arc takes a line of at least a few bytes) and against
 * graph_read_options::max_bytes (the peak of reading, graph_build_bytes()). */
#ifndef TUCCOMPI_GRAPH_TEXT_H
#define TUCCOMPI_GRAPH_TEXT_H

#include "graph_internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define READ_CHUNK (8u << 20) /* bytes per read() */
#define MAX_LINE (1u << 20)   /* longest line accepted */
#define MAX_ARCS (1ull << 56) /* larger announced counts are nonsense, and byte sizes stay in 64 bits */

/* ------------------------------------------------------------------ line reader */

struct reader_gz;

struct reader
{
	const char *path;
	struct graph_error *err;
	int fd;
	char *buf;          /* chunk + line_cap + 1 bytes */
	size_t chunk;       /* bytes per read(): READ_CHUNK, less for a smaller file */
	size_t line_cap;    /* longest line: MAX_LINE, less for a smaller file */
	size_t pos, len;    /* unread bytes: buf[pos..len) */
	int eof;
	uint64_t line;      /* number of the line last returned */
	uint64_t size;      /* file size for a regular file, else 0 */
	uint64_t consumed;  /* bytes of the file before buf[0] */
	int own_fd;         /* 0 for standard input, which stays open */
	struct reader_gz *gz; /* the gzip stream, when the input starts with gzip's magic bytes */
	const char *nul;    /* the first NUL byte of buf[pos..len), or NULL */
	char comment;       /* first character of comment lines ('c', '%') */
	char comment2;      /* a second one ('#' and '%' of edge lists), or 0 */
	struct graph_read_info info; /* real weights rounded so far */
	const char *cur, *cur_end; /* the line last returned, without its line end */
};

/** Open @p path ("-": standard input, left open at close) for reading lines. */
int graph_reader_open(struct reader *r, const char *path, struct graph_error *err);
void graph_reader_close(struct reader *r);

/** The first byte of [p, end) that a text line may not hold (a control byte other than tab,
 *  or DEL), or NULL. */
const char *graph_find_control(const char *p, const char *end);
/** "path:line: <the control byte> at column C; ...": returns -EINVAL. */
int graph_control_error(struct reader *r, const char *line, const char *bad) __attribute__((cold));
/** Refill the buffer (reader_next's slow path): 1 when more bytes came or the end was reached
 *  with a last line pending, 0 at the end, < 0 on error (message set). */
int graph_reader_fill(struct reader *r);
/** "path:line: message" (the control byte of the current line first, when there is one). */
int graph_reader_verror(struct reader *r, uint64_t line, const char *fmt, va_list ap);

static inline int __attribute__((format(printf, 3, 4))) rerr(struct reader *r, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = graph_reader_verror(r, line, fmt, ap);
	va_end(ap);
	return rc;
}

/* Bytes of the file not returned yet, or 0 when unknown. */
static inline uint64_t reader_left(const struct reader *r)
{
	uint64_t at = r->consumed + r->pos;
	return r->size > at ? r->size - at : 0;
}

/* Next line, NUL-terminated, without its "\n" or "\r\n": 1, or 0 at the end, or < 0. */
static inline int reader_next(struct reader *r, char **out)
{
	for (;;)
	{
		char *start = r->buf + r->pos;
		char *nl = memchr(start, '\n', r->len - r->pos);
		if (nl || (r->eof && r->pos < r->len))
		{
			char *end = nl ? nl : r->buf + r->len; /* buf has room for this NUL */
			if ((size_t)(end - start) >= r->line_cap)
				break;
			r->pos = (size_t)(nl ? nl + 1 - r->buf : end - r->buf);
			if (end > start && end[-1] == '\r')
				end--;
			r->line++;
			r->cur = start;
			r->cur_end = end;
			const char *first = start;
			while (*first == ' ' || *first == '\t')
				first++;
			const char *bad = (r->nul && r->nul < end) || *first == r->comment ||
						  (r->comment2 && *first == r->comment2) ?
						  graph_find_control(start, end) : NULL;
			if (bad)
				return graph_control_error(r, start, bad);
			*end = '\0';
			*out = start;
			return 1;
		}
		int rc = graph_reader_fill(r);
		if (rc <= 0)
			return rc;
	}
	return rerr(r, r->line + 1, "line longer than %zu bytes; is this really a text graph file?", r->line_cap);
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

int graph_arcs_resize(struct arcs *a, struct reader *r, uint64_t cap);
/** Size the list from the header's count @p limit, but never beyond what the rest of the file
 *  can hold (each line takes at least @p min_bytes, with @p arcs_per_line arcs). */
int graph_arcs_start(struct arcs *a, uint64_t limit, struct reader *r, unsigned min_bytes, unsigned arcs_per_line);

/* The callers stop at the announced count: the list never grows past a->limit. */
static inline int arcs_push(struct arcs *a, struct reader *r, uint32_t u, uint32_t v, uint32_t w)
{
	if (a->len == a->cap)
	{
		uint64_t cap = a->cap * 2 > a->limit ? a->limit : a->cap * 2;
		int rc = graph_arcs_resize(a, r, cap);
		if (rc < 0)
			return rc;
	}
	a->src[a->len] = u;
	a->dst[a->len] = v;
	a->w[a->len] = w;
	a->len++;
	return 0;
}

static inline void arcs_free(struct arcs *a)
{
	free(a->src);
	free(a->dst);
	free(a->w);
}

/* A reader's end: with @p rc 0 the graph of the list's @p n vertices (graph_from_owned_arcs, which
 * takes the arrays), else the list freed. Returns the result. */
static inline int arcs_done(struct arcs *a, int rc, uint64_t n, struct graph *g, struct reader *r)
{
	if (rc < 0)
	{
		arcs_free(a);
		return rc;
	}
	return graph_from_owned_arcs((uint32_t)n, a->len, a->src, a->dst, a->w, g, r->err);
}

/* ------------------------------------------------------------------ checks */

/** Before allocating: the peak of building an n-vertex graph of m arcs against max_bytes (the
 *  arcs counted are at most those the rest of a regular file can hold, min_bytes a line,
 *  per_line arcs a line). -ENOMEM with "path:line: ..." when over. */
int graph_check_max_bytes(struct reader *r, const struct graph_read_options *o, uint64_t n, uint64_t m,
			  unsigned min_bytes, unsigned per_line);
/** A header announcing more lines than the rest of a regular file can hold is wrong. */
int graph_check_fits(struct reader *r, uint64_t count, unsigned min_bytes, const char *what, const char *header);
/** Why a vertex id field is not in 1..n. */
int graph_bad_id(struct reader *r, enum num t, char *tok, uint64_t n, const char *what, const char *where)
	__attribute__((cold));
/** Why an integer weight field is not in 0..GRAPH_MAX_WEIGHT. */
int graph_bad_weight(struct reader *r, enum num t, char *tok) __attribute__((cold));

static inline int check_id(struct reader *r, enum num t, char *tok, uint64_t v, uint64_t n, const char *what,
			   const char *where)
{
	return t == NUM_OK && v - 1 < n ? 0 : graph_bad_id(r, t, tok, n, what, where);
}

static inline int check_weight(struct reader *r, enum num t, char *tok, uint64_t v)
{
	return t == NUM_OK && v <= GRAPH_MAX_WEIGHT ? 0 : graph_bad_weight(r, t, tok);
}

/** A real weight, the token [tok, end): finite, >= 0, times real_scale, an integer
 *  0..GRAPH_MAX_WEIGHT; one that is not an integer is refused, or rounded to the nearest and
 *  counted in r->info, as graph_read_options::real_round says. */
int graph_parse_real(struct reader *r, char *tok, char *end, const struct graph_read_options *o, uint64_t *w);

/* ------------------------------------------------------------------ the formats */

/** The parsers, on an open reader: 0 and the graph, or a negative errno with the message. */
int graph_read_dimacs_text(struct reader *r, const struct graph_read_options *o, struct graph *g);
int graph_read_mtx_text(struct reader *r, const struct graph_read_options *o, struct graph *g);
int graph_read_edgelist_text(struct reader *r, const struct graph_read_options *o, struct graph *g);
int graph_read_metis_text(struct reader *r, const struct graph_read_options *o, struct graph *g);

#endif
