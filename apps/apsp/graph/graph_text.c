/* The text readers' common parts: the line reader, its messages, the arc list and the checks
 * of counts (see graph_text.h). */
#include "graph_text.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ------------------------------------------------------------------ line reader */

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
const char *graph_find_control(const char *p, const char *end)
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

int __attribute__((noinline, cold)) graph_control_error(struct reader *r, const char *line, const char *bad)
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
int graph_reader_verror(struct reader *r, uint64_t line, const char *fmt, va_list ap)
{
	const char *bad = line == r->line && r->cur ? graph_find_control(r->cur, r->cur_end) : NULL;
	if (bad)
		return graph_control_error(r, r->cur, bad);
	return vrerr(r, line, fmt, ap);
}

int graph_reader_open(struct reader *r, const char *path, struct graph_error *err)
{
	memset(r, 0, sizeof *r);
	r->path = is_stdin(path) ? STDIN_NAME : path;
	r->err = err;
	r->own_fd = !is_stdin(path);
	r->fd = r->own_fd ? open(path, O_RDONLY | O_CLOEXEC) : 0;
	if (r->fd < 0)
		return graph_io_error(err, path, "cannot open", errno);
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

/* ------------------------------------------------------------------ gzip inputs
 * A thread of its own inflates the stream into two buffers in turn while the parser reads the other
 * (inflating costs more than the parsing: on a thread, it overlaps it); the parser's fill copies a buffer's
 * text behind the line it holds. Without a thread (pthread_create failed) the fill inflates itself. */

#define GZ_IN_CHUNK (1u << 20) /* compressed bytes per read() */
#define GZ_OUT_CHUNK READ_CHUNK /* text per buffer */

struct gz_slot
{
	char *data; /* GZ_OUT_CHUNK bytes */
	size_t len;
	int rc;   /* < 0: the error of this slot (z->msg) */
	int full; /* made by the thread, not yet taken by the parser */
};

struct reader_gz
{
	z_stream s;
	unsigned char *in; /* in_cap bytes */
	size_t in_cap;
	int fd;
	const char *path;
	int in_eof;        /* read() said the end */
	int in_member;     /* inside a member: its end not reached yet */
	uint64_t produced; /* bytes of text inflated */
	char msg[sizeof(((struct graph_error *)0)->msg)]; /* the stream's error */
	/* the thread */
	int threaded, stop, next; /* next: the slot the parser takes next */
	int wake[2];              /* the close writes to wake[1]: the thread's poll() on a pipe returns */
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct gz_slot slot[2];
};

static int __attribute__((cold)) gz_fail(struct reader_gz *z, int rc, size_t produced, const char *what)
{
	snprintf(z->msg, sizeof z->msg, "%s: %s, after %" PRIu64 " bytes of text; is the file complete and undamaged (gzip -t %s)?",
		 z->path, what, z->produced + produced, z->path);
	return rc;
}

/* Up to @p n bytes of text into @p dst: the count (0 at the end of the input), or < 0 (z->msg set).
 * Members follow one another; bytes after the last member other than zeros are an error, as is an
 * input that ends inside a member. */
static ssize_t gz_inflate(struct reader_gz *z, char *dst, size_t n)
{
	z->s.next_out = (unsigned char *)dst;
	z->s.avail_out = (uInt)n;
	while (z->s.avail_out > 0)
	{
		if (z->s.avail_in == 0 && !z->in_eof)
		{
			if (z->s.avail_out < n) /* text in hand: the parser takes it before a read that may wait (a pipe) */
				break;
			if (z->threaded)
			{
				/* a pipe's writer may stall: wait for its bytes or for the close, not in read() */
				struct pollfd pf[2] = { { .fd = z->fd, .events = POLLIN }, { .fd = z->wake[0], .events = POLLIN } };
				if (poll(pf, 2, -1) < 0 && errno != EINTR)
				{
					int e = errno;
					snprintf(z->msg, sizeof z->msg, "%s: poll error: %s", z->path, strerror(e));
					return -e;
				}
				if (pf[1].revents)
					return -ECANCELED; /* the parser closed the reader: nobody reads this */
				if (!pf[0].revents)
					continue;
			}
			ssize_t k = read(z->fd, z->in, z->in_cap);
			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0)
			{
				int e = errno;
				snprintf(z->msg, sizeof z->msg, "%s: read error: %s", z->path, strerror(e));
				return -e;
			}
			z->in_eof = k == 0;
			z->s.next_in = z->in;
			z->s.avail_in = (uInt)k;
			continue;
		}
		if (z->s.avail_in == 0) /* the end of the input */
		{
			if (z->in_member)
				return gz_fail(z, -EINVAL, n - z->s.avail_out, "the gzip data ends early");
			break;
		}
		if (!z->in_member)
		{
			/* another member, or trailing bytes: zeros (padding, which gzip -d ignores too) or an error */
			while (z->s.avail_in > 0 && z->s.next_in[0] == 0)
			{
				z->s.next_in++;
				z->s.avail_in--;
			}
			if (z->s.avail_in == 0)
				continue;
			if (z->s.next_in[0] != 0x1f || (z->s.avail_in > 1 && z->s.next_in[1] != 0x8b))
				return gz_fail(z, -EINVAL, n - z->s.avail_out, "bytes that are not gzip data follow the gzip data");
			if (inflateReset(&z->s) != Z_OK)
				return gz_fail(z, -EINVAL, n - z->s.avail_out, "the gzip stream cannot go on");
			z->in_member = 1;
		}
		int rc = inflate(&z->s, Z_NO_FLUSH);
		if (rc == Z_STREAM_END)
			z->in_member = 0;
		else if (rc == Z_MEM_ERROR)
		{
			snprintf(z->msg, sizeof z->msg, "%s: out of memory while inflating the gzip data", z->path);
			return -ENOMEM;
		}
		else if (rc != Z_OK && rc != Z_BUF_ERROR)
		{
			char what[160];
			snprintf(what, sizeof what, "damaged gzip data (zlib: %s)", z->s.msg ? z->s.msg : "error");
			return gz_fail(z, -EINVAL, n - z->s.avail_out, what);
		}
	}
	z->produced += n - z->s.avail_out;
	return (ssize_t)(n - z->s.avail_out);
}

/* The thread's wait for slot @p sl to be taken (or the close): 0, or 1 to stop. */
static int gz_wait_free(struct reader_gz *z, struct gz_slot *sl)
{
	pthread_mutex_lock(&z->mu);
	while (sl->full && !z->stop)
		pthread_cond_wait(&z->cv, &z->mu);
	int stop = z->stop;
	pthread_mutex_unlock(&z->mu);
	return stop;
}

/* The thread: fills the slots in turn until the end, an error, or the parser's close. */
static void *gz_thread(void *arg)
{
	struct reader_gz *z = arg;
	for (int b = 0;; b ^= 1)
	{
		struct gz_slot *sl = &z->slot[b];
		if (gz_wait_free(z, sl))
			return NULL;
		ssize_t k = gz_inflate(z, sl->data, GZ_OUT_CHUNK);
		pthread_mutex_lock(&z->mu);
		sl->len = k > 0 ? (size_t)k : 0;
		sl->rc = k < 0 ? (int)k : 0;
		sl->full = 1;
		pthread_cond_broadcast(&z->cv);
		pthread_mutex_unlock(&z->mu);
		if (k <= 0)
			return NULL;
	}
}

static void gz_free(struct reader *r)
{
	struct reader_gz *z = r->gz;
	if (!z)
		return;
	if (z->threaded)
	{
		/* the thread may wait on a pipe whose writer stalls: the byte on wake ends its poll() (no
		 * pthread_cancel: its forced unwinding trips AddressSanitizer's stack checks) */
		pthread_mutex_lock(&z->mu);
		z->stop = 1;
		pthread_cond_broadcast(&z->cv);
		pthread_mutex_unlock(&z->mu);
		ssize_t unused = write(z->wake[1], "x", 1);
		(void)unused;
		pthread_join(z->th, NULL);
		pthread_mutex_destroy(&z->mu);
		pthread_cond_destroy(&z->cv);
		close(z->wake[0]);
		close(z->wake[1]);
	}
	inflateEnd(&z->s);
	free(z->slot[0].data);
	free(z->slot[1].data);
	free(z->in);
	free(z);
	r->gz = NULL;
}

/* Up to r->chunk bytes of text into @p dst (the parser's side): the count, 0 at the end, or < 0 with
 * the message in r->err. */
static ssize_t gz_read(struct reader *r, char *dst)
{
	struct reader_gz *z = r->gz;
	ssize_t k;
	if (!z->threaded)
		k = gz_inflate(z, dst, r->chunk);
	else
	{
		struct gz_slot *sl = &z->slot[z->next];
		pthread_mutex_lock(&z->mu);
		while (!sl->full)
			pthread_cond_wait(&z->cv, &z->mu);
		pthread_mutex_unlock(&z->mu);
		k = sl->rc < 0 ? sl->rc : (ssize_t)sl->len;
		if (k > 0)
			memcpy(dst, sl->data, sl->len);
		if (k <= 0) /* the end or an error: the thread has returned; the slot stays as it is */
			return k < 0 ? graph_set_error(r->err, (int)k, "%s", z->msg) : 0;
		pthread_mutex_lock(&z->mu);
		sl->full = 0;
		pthread_cond_broadcast(&z->cv);
		pthread_mutex_unlock(&z->mu);
		z->next ^= 1;
		return k;
	}
	return k < 0 ? graph_set_error(r->err, (int)k, "%s", z->msg) : k;
}

/* The input starts with gzip's magic bytes, the @p k bytes already read into buf: they become the
 * stream's first input, the text buffer grows to its full size (which a small compressed file did not
 * need), and the thread starts. */
static int gz_start(struct reader *r, size_t k)
{
	struct reader_gz *z = calloc(1, sizeof *z);
	char *buf = NULL;
	size_t cap = k > GZ_IN_CHUNK ? k : GZ_IN_CHUNK;
	if (!z || !(z->in = malloc(cap)) || !(buf = malloc((size_t)READ_CHUNK + MAX_LINE + 1)))
		goto nomem;
	/* 16 + MAX_WBITS: gzip's header and trailer, whose CRC and length inflate() checks */
	if (inflateInit2(&z->s, 16 + MAX_WBITS) != Z_OK)
		goto nomem;
	z->in_cap = cap;
	memcpy(z->in, r->buf, k);
	z->s.next_in = z->in;
	z->s.avail_in = (uInt)k;
	z->in_member = 1;
	z->fd = r->fd;
	z->path = r->path;
	free(r->buf);
	r->buf = buf;
	r->chunk = READ_CHUNK;
	r->line_cap = MAX_LINE;
	r->size = 0; /* the text's size is not known */
	r->gz = z;
	if ((z->slot[0].data = malloc(GZ_OUT_CHUNK)) && (z->slot[1].data = malloc(GZ_OUT_CHUNK)) &&
	    pipe(z->wake) == 0)
	{
		fcntl(z->wake[0], F_SETFD, FD_CLOEXEC);
		fcntl(z->wake[1], F_SETFD, FD_CLOEXEC);
		if (pthread_mutex_init(&z->mu, NULL) == 0)
		{
			if (pthread_cond_init(&z->cv, NULL) == 0)
			{
				z->threaded = 1; /* before the thread starts: gz_inflate polls when threaded */
				if (pthread_create(&z->th, NULL, gz_thread, z) != 0)
				{
					z->threaded = 0;
					pthread_cond_destroy(&z->cv);
				}
			}
			if (!z->threaded)
				pthread_mutex_destroy(&z->mu);
		}
		if (!z->threaded)
		{
			close(z->wake[0]);
			close(z->wake[1]);
		}
	}
	return 0;
nomem:
	if (z)
		free(z->in);
	free(z);
	free(buf);
	return graph_set_error(r->err, -ENOMEM, "%s: out of memory for the gzip stream's buffers", r->path);
}

void graph_reader_close(struct reader *r)
{
	gz_free(r);
	if (r->own_fd)
		close(r->fd);
	free(r->buf);
}

int graph_reader_fill(struct reader *r)
{
	if (r->eof)
		return 0;
	size_t rest = r->len - r->pos;
	if (rest >= r->line_cap)
		return rerr(r, r->line + 1, "line longer than %zu bytes; is this really a text graph file?", r->line_cap);
	memmove(r->buf, r->buf + r->pos, rest);
	r->consumed += r->pos;
	r->pos = 0;
	r->len = rest;
	ssize_t k;
	if (r->gz)
	{
		if ((k = gz_read(r, r->buf + rest)) < 0)
			return (int)k;
	}
	else if ((k = read(r->fd, r->buf + rest, r->chunk)) < 0 && errno != EINTR)
		return graph_io_error(r->err, r->path, "read error", errno);
	else if (r->consumed == 0 && rest == 0 && k > 0 && (unsigned char)r->buf[0] == 0x1f)
	{
		/* the first bytes: gzip's magic 1f 8b (a text file never starts with 0x1f) */
		while (k == 1)
		{
			ssize_t more = read(r->fd, r->buf + 1, r->chunk - 1);
			if (more < 0 && errno == EINTR)
				continue;
			if (more < 0)
				return graph_io_error(r->err, r->path, "read error", errno);
			if (more == 0)
				break;
			k += more;
		}
		if (k >= 2 && (unsigned char)r->buf[1] == 0x8b)
		{
			int rc = gz_start(r, (size_t)k);
			if (rc < 0)
				return rc;
			if ((k = gz_read(r, r->buf)) < 0)
				return (int)k;
		}
	}
	if (k == 0)
		r->eof = 1;
	else if (k > 0)
		r->len += (size_t)k;
	r->nul = memchr(r->buf, '\0', r->len);
	return 1;
}

/* ------------------------------------------------------------------ arc list */

int graph_arcs_resize(struct arcs *a, struct reader *r, uint64_t cap)
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
int graph_arcs_start(struct arcs *a, uint64_t limit, struct reader *r, unsigned min_bytes, unsigned arcs_per_line)
{
	memset(a, 0, sizeof *a);
	a->limit = limit;
	uint64_t fit = r->size ? (reader_left(r) / min_bytes + 1) * arcs_per_line : (1u << 20);
	return limit ? graph_arcs_resize(a, r, fit < limit ? fit : limit) : 0;
}

/* ------------------------------------------------------------------ checks */

/* Before allocating: the peak of building the graph against the limit. The arcs counted are
 * those the rest of a regular file can hold (each on a line of at least min_bytes, the last
 * one maybe without its newline; per_line arcs a line), so that a lying header is found out
 * by the lines themselves, with their own message. */
int graph_check_max_bytes(struct reader *r, const struct graph_read_options *o, uint64_t n, uint64_t m,
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
int graph_check_fits(struct reader *r, uint64_t count, unsigned min_bytes, const char *what, const char *header)
{
	uint64_t most = (reader_left(r) + 1) / min_bytes;
	if (r->size && count > most)
		return rerr(r, r->line, "%s announces %" PRIu64 " %s, but the rest of the file (%" PRIu64
			    " bytes) holds at most %" PRIu64 "; the file is truncated or the %s is wrong",
			    header, count, what, reader_left(r), most, header);
	return 0;
}

int __attribute__((noinline, cold)) graph_bad_id(struct reader *r, enum num t, char *tok, uint64_t n, const char *what,
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

int __attribute__((noinline, cold)) graph_bad_weight(struct reader *r, enum num t, char *tok)
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

/* ------------------------------------------------------------------ real weights */

int graph_parse_real(struct reader *r, char *tok, char *end, const struct graph_read_options *o, uint64_t *w)
{
	int len = (int)(end - tok > 40 ? 40 : end - tok);
	char *stop = tok;
	double x = end > tok ? strtod(tok, &stop) : 0;
	if (end == tok || stop != end)
		return rerr(r, r->line, "weight '%.*s' is not a number; weights must be finite and >= 0", len, tok);
	if (!isfinite(x))
		return rerr(r, r->line, "weight '%.*s' is not a finite number; weights must be finite and >= 0", len, tok);
	if (x < 0)
		return rerr(r, r->line, "negative weight %.*s; weights must be >= 0", len, tok);
	const char *what = o->real_scale_what ? o->real_scale_what : "real_scale";
	double s = x * o->real_scale;
	if (!(s < GRAPH_MAX_WEIGHT + 0.5))
		return rerr(r, r->line, "weight %.*s x %s %g is above the maximum %u; use a smaller %s", len, tok, what,
			    o->real_scale, GRAPH_MAX_WEIGHT, what);
	*w = (uint64_t)(s + 0.5);
	/* Decimal text times a scale is rarely exact in binary: 0.29 x 100 is 28.999999999999996.
	 * Differences below a billionth of the weight are the conversion's, not the file's. */
	double off = fabs(s - (double)*w);
	if (off <= 1e-9 * (s > 1 ? s : 1))
		return 0;
	if (!o->real_round)
	{
		char scaled[64] = "";
		if (o->real_scale != 1)
			snprintf(scaled, sizeof scaled, " x %g = %g", o->real_scale, s);
		return rerr(r, r->line, "weight %.*s%s is not an integer; weights are integers: give %s X to multiply "
			    "the real weights by X (e.g. 100 keeps two decimals; the distances come multiplied by X), or "
			    "%s 1 to round them to the nearest integer", len, tok, scaled, what, what);
	}
	if (!r->info.rounded++)
		r->info.first_line = r->line;
	if (off > r->info.max_rounding)
		r->info.max_rounding = off;
	return 0;
}
