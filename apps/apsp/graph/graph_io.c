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
 * Text inputs hold printable text, tabs and line ends ("\n" or "\r\n") only: a NUL or another
 * control byte is an error at its line, never a silent end of line. A path of "-" is standard
 * input (text formats only, read without seeking; its format must be given).
 *
 * Memory: the counts of a header are checked before anything is allocated, against what the
 * rest of a regular file can hold (every arc takes a line of at least a few bytes) and against
 * graph_read_options::max_bytes (the peak of reading, graph_build_bytes()).
 *
 * Writers go through outfile.h ("PATH.tmp.PID", fsync, rename): a reader of PATH sees the old
 * file or the complete new one, and a failure or a signal removes the temporary file. */
#include "graph_internal.h"
#include "outfile.h"

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
	char *buf;          /* chunk + line_cap + 1 bytes */
	size_t chunk;       /* bytes per read(): READ_CHUNK, less for a smaller file */
	size_t line_cap;    /* longest line: MAX_LINE, less for a smaller file */
	size_t pos, len;    /* unread bytes: buf[pos..len) */
	int eof;
	uint64_t line;      /* number of the line last returned */
	uint64_t size;      /* file size for a regular file, else 0 */
	uint64_t consumed;  /* bytes of the file before buf[0] */
	int own_fd;         /* 0 for standard input, which stays open */
	const char *nul;    /* the first NUL byte of buf[pos..len), or NULL */
	char comment;       /* first character of comment lines ('c', '%') */
	const char *cur, *cur_end; /* the line last returned, without its line end */
};

/* The name of standard input in messages. */
#define STDIN_NAME "<stdin>"

static int is_stdin(const char *path)
{
	return strcmp(path, "-") == 0;
}

static int io_error(struct graph_error *err, const char *path, const char *what, int e)
{
	return graph_set_error(err, -e, "%s: %s: %s", path, what, strerror(e));
}

/* "path:line: message"; returns -EINVAL. */
static int vrerr(struct reader *r, uint64_t line, const char *fmt, va_list ap)
{
	if (r->err)
	{
		int k = snprintf(r->err->msg, sizeof r->err->msg, "%s:%" PRIu64 ": ", r->path, line ? line : 1);
		if (k < 0 || (size_t)k >= sizeof r->err->msg)
			k = 0;
		vsnprintf(r->err->msg + k, sizeof r->err->msg - k, fmt, ap);
	}
	return -EINVAL;
}

static int __attribute__((format(printf, 3, 4))) rerr_at(struct reader *r, uint64_t line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = vrerr(r, line, fmt, ap);
	va_end(ap);
	return rc;
}

/* The first byte of [p, end) that a text line may not hold: a control byte other than tab
 * (the "\r" of "\r\n" is gone by then), or DEL. Eight bytes at a time. Lines are not all
 * checked with it (files hold 10^8 of them): reader_next() finds NUL bytes, which would cut a
 * line short, with memchr over each block read, and checks comment lines, which the parsers
 * skip; any other control byte stops a parser, and rerr() then reports it. */
static const char *find_control(const char *p, const char *end)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	for (; end - p >= 8; p += 8)
	{
		uint64_t x, y;
		memcpy(&x, p, 8);
		y = x ^ (ones * 0x7f);
		/* A high bit for some byte below 0x20 or equal to 0x7f (maybe more: check each). */
		if (((x - ones * 0x20) & ~x & highs) | ((y - ones) & ~y & highs))
			for (int k = 0; k < 8; k++)
				if (((unsigned char)p[k] < 0x20 && p[k] != '\t') || p[k] == 0x7f)
					return p + k;
	}
	for (; p < end; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
			return p;
	return NULL;
}

static int __attribute__((noinline, cold)) control_error(struct reader *r, const char *line, const char *bad)
{
	unsigned char c = (unsigned char)*bad;
	char what[32];
	if (c == 0)
		snprintf(what, sizeof what, "a NUL byte");
	else if (c == '\r')
		snprintf(what, sizeof what, "a carriage return");
	else
		snprintf(what, sizeof what, "control byte 0x%02x", c);
	return rerr_at(r, r->line, "%s at column %zu; text graph files hold printable text, tabs and line ends only "
		    "(is the file binary or damaged?)", what, (size_t)(bad - line) + 1);
}

/* An error about a line. A control byte in the current line is what went wrong first: the
 * parsers stop at it with a vaguer message (such a byte ends a token or hides in it). */
static int __attribute__((format(printf, 3, 4))) rerr(struct reader *r, uint64_t line, const char *fmt, ...)
{
	const char *bad = line == r->line && r->cur ? find_control(r->cur, r->cur_end) : NULL;
	if (bad)
		return control_error(r, r->cur, bad);
	va_list ap;
	va_start(ap, fmt);
	int rc = vrerr(r, line, fmt, ap);
	va_end(ap);
	return rc;
}

static int reader_open(struct reader *r, const char *path, struct graph_error *err)
{
	memset(r, 0, sizeof *r);
	r->path = is_stdin(path) ? STDIN_NAME : path;
	r->err = err;
	r->own_fd = !is_stdin(path);
	r->fd = r->own_fd ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (r->fd < 0)
		return io_error(err, path, "cannot open", errno);
	struct stat st;
	if (fstat(r->fd, &st) == 0 && S_ISREG(st.st_mode))
		r->size = (uint64_t)st.st_size;
	posix_fadvise(r->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	/* A small file needs no 9 MB buffer (no line is longer than the file). */
	r->chunk = r->size && r->size < READ_CHUNK ? (size_t)r->size + 1 : READ_CHUNK;
	r->line_cap = r->size && r->size < MAX_LINE ? (size_t)r->size + 1 : MAX_LINE;
	if (!(r->buf = malloc(r->chunk + r->line_cap + 1)))
	{
		if (r->own_fd)
			close(r->fd);
		return graph_set_error(err, -ENOMEM, "%s: out of memory for a %u-byte read buffer", path,
				       (unsigned)(r->chunk + r->line_cap + 1));
	}
	return 0;
}

static void reader_close(struct reader *r)
{
	if (r->own_fd)
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
			const char *bad = (r->nul && r->nul < end) || *first == r->comment ?
						  find_control(start, end) : NULL;
			if (bad)
				return control_error(r, start, bad);
			*end = '\0';
			*out = start;
			return 1;
		}
		if (r->eof)
			return 0;
		size_t rest = r->len - r->pos;
		if (rest >= r->line_cap)
			break;
		memmove(r->buf, start, rest);
		r->consumed += r->pos;
		r->pos = 0;
		r->len = rest;
		ssize_t k = read(r->fd, r->buf + rest, r->chunk);
		if (k < 0 && errno != EINTR)
			return io_error(r->err, r->path, "read error", errno);
		if (k == 0)
			r->eof = 1;
		else if (k > 0)
			r->len += (size_t)k;
		r->nul = memchr(r->buf, '\0', r->len);
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

/* What the limit of graph_read_options::max_bytes is, for messages. */
static const char *limit_what(const struct graph_read_options *o)
{
	return o->max_bytes_what ? o->max_bytes_what : "max_bytes";
}

/* Before allocating: the peak of building the graph against the limit. The arcs counted are
 * those the rest of a regular file can hold (each on a line of at least min_bytes, the last
 * one maybe without its newline; per_line arcs a line), so that a lying header is found out
 * by the lines themselves, with their own message. */
static int check_max_bytes(struct reader *r, const struct graph_read_options *o, uint64_t n, uint64_t m,
			   unsigned min_bytes, unsigned per_line)
{
	uint64_t fit = (reader_left(r) + 1) / min_bytes * per_line, count = r->size && fit < m ? fit : m;
	uint64_t need = graph_build_bytes(n, count);
	if (!o->max_bytes || need <= o->max_bytes)
		return 0;
	char arcs[96];
	if (count < m)
		snprintf(arcs, sizeof arcs, "at most %" PRIu64 " arc%s in the rest of the file", count, count == 1 ? "" : "s");
	else
		snprintf(arcs, sizeof arcs, "%" PRIu64 " arc%s", m, m == 1 ? "" : "s");
	return graph_set_error(r->err, -ENOMEM,
			       "%s:%" PRIu64 ": the graph (%" PRIu64 " vertices, %s) needs %" PRIu64
			       " bytes to read, more than the limit of %" PRIu64 " (%s); check the counts of this line, "
			       "or use a smaller graph",
			       r->path, r->line, n, arcs, need, o->max_bytes, limit_what(o));
}

/* A header announcing more lines than the rest of a regular file can hold (each at least
 * min_bytes long, the last one maybe without its newline) is wrong: refuse it before
 * allocating for it. Unknown sizes (pipes) are not checked here. */
static int check_fits(struct reader *r, uint64_t count, unsigned min_bytes, const char *what, const char *header)
{
	uint64_t most = (reader_left(r) + 1) / min_bytes;
	if (r->size && count > most)
		return rerr(r, r->line, "%s announces %" PRIu64 " %s, but the rest of the file (%" PRIu64
			    " bytes) holds at most %" PRIu64 "; the file is truncated or the %s is wrong",
			    header, count, what, reader_left(r), most, header);
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
		else if (p[0] == 'p' && (p[1] == ' ' || p[1] == '\t' || p[1] == '\0'))
		{
			if (p_line)
			{
				rc = rerr(r, r->line, "second p line (the first is line %" PRIu64 "); keep only one", p_line);
				goto out;
			}
			p_line = r->line;
			if ((rc = parse_p_line(r, p + 1, &n, &m)) < 0 || (rc = check_max_bytes(r, o, n, m, 8, 1)) < 0 ||
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
			    (rc = check_max_bytes(r, o, n, symmetric ? 2 * nnz : nnz, 4, symmetric ? 2 : 1)) < 0 ||
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
		else if (p[0] == 'p' && (p[1] == ' ' || p[1] == '\t' || p[1] == '\0'))
		{
			if (p_line)
			{
				rc = rerr(r, r->line, "second p line (the first is line %" PRIu64 "); keep only one", p_line);
				goto out;
			}
			p_line = r->line;
			/* 9 bytes per vertex (x, y and a bit), and one v line of at least "v 1 0 0\n" each. */
			if ((rc = parse_co_p_line(r, p + 1, &n)) < 0 || (rc = check_fits(r, n, 8, "vertices", "p line")) < 0)
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
	int rc = reader_open(&r, path, err);
	if (rc < 0)
		return rc;
	rc = read_coords(&r, &o, c);
	reader_close(&r);
	return rc;
}

void graph_coords_free(struct graph_coords *c)
{
	free(c->x);
	free(c->y);
	memset(c, 0, sizeof *c);
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
	if (!S_ISREG(st.st_mode))
	{
		rc = graph_set_error(err, -EINVAL, "%s: not a regular file; binary graphs (.tgb) are read from files, not from "
				     "pipes or devices", path);
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
				     " bytes, more than the limit of %" PRIu64 " (%s); use a smaller graph or a machine with more memory",
				     path, h.n, h.m, need, o->max_bytes, limit_what(o));
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
	struct outfile o;
	if ((rc = outfile_open(&o, path, err)) < 0 || (rc = outfile_write(&o, &h, sizeof h, err)) < 0 ||
	    (rc = outfile_write(&o, g->rowptr, ((uint64_t)g->n + 1) * 8, err)) < 0 ||
	    (rc = outfile_write(&o, g->col, g->m * 4, err)) < 0 || (rc = outfile_write(&o, g->w, g->m * 4, err)) < 0 ||
	    (rc = outfile_write(&o, g->min_out, (uint64_t)g->n * 4, err)) < 0)
		return rc;
	return outfile_commit(&o, err);
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
	struct outfile o;
	if ((rc = outfile_open(&o, path, err)) < 0)
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
				if ((rc = outfile_write(&o, buf, (uint64_t)(p - buf), err)) < 0)
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
	if (rc == 0 && (rc = outfile_write(&o, buf, (uint64_t)(p - buf), err)) == 0)
		rc = outfile_commit(&o, err);
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
				       "%s: cannot tell the format from the name; use a .gr (DIMACS), .mtx (Matrix Market) or .tgb "
				       "(binary) file, or give the format (--format gr|mtx|tgb)",
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
	if (rc < 0)
		return rc;
	if (f == GRAPH_FORMAT_AUTO && is_stdin(path))
		return graph_set_error(err, -EINVAL, STDIN_NAME ": standard input has no name to tell its format by; give the "
				       "format (--format gr or mtx)");
	if (f == GRAPH_FORMAT_AUTO && (rc = format_of(path, &f, err)) < 0)
		return rc;
	if (f == GRAPH_FORMAT_BINARY && is_stdin(path))
		return graph_set_error(err, -EINVAL, STDIN_NAME ": binary graphs (.tgb) are read from files, not from standard "
				       "input; give the file's name");
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
	if (is_stdin(path))
		return graph_set_error(err, -EINVAL, STDIN_NAME ": standard input cannot be cached (it has no size or date to "
				       "check a cache against); read it without a cache");
	if (stat(path, &st) < 0)
		return io_error(err, path, "cannot open", errno);
	if (!S_ISREG(st.st_mode))
		return graph_set_error(err, -EINVAL, "%s: not a regular file, so it cannot be cached; read it without a cache", path);
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
	struct stat src_st, cache_st;
	if (stat(path, &src_st) == 0 && stat(cache_path, &cache_st) == 0 && src_st.st_dev == cache_st.st_dev &&
	    src_st.st_ino == cache_st.st_ino)
		return graph_set_error(err, -EINVAL, "%s: the cache %s is the graph file itself; name another file for the cache",
				       path, cache_path);
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
