/* Numbers as text, and text outputs formatted in parallel (numtext.h). */
#include "numtext.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef unsigned __int128 u128;

static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
			       "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
			       "8081828384858687888990919293949596979899";

char *numtext_u64(char *p, uint64_t v)
{
	char tmp[20], *q = tmp + sizeof tmp;
	while (v >= 100)
	{
		unsigned r = (unsigned)(v % 100);
		v /= 100;
		q -= 2;
		memcpy(q, pairs + 2 * r, 2);
	}
	if (v >= 10)
	{
		q -= 2;
		memcpy(q, pairs + 2 * v, 2);
	}
	else
		*--q = (char)('0' + v);
	size_t len = (size_t)(tmp + sizeof tmp - q);
	memcpy(p, q, len);
	return p + len;
}

/* 10^k, k = 0..38. */
static u128 pow10_128(int k)
{
	u128 x = 1;
	while (k-- > 0)
		x *= 10;
	return x;
}

/* x = m 2^e with m < 2^53 for a finite positive normal double; -1 otherwise. */
static int decompose(double x, uint64_t *m, int *e)
{
	uint64_t bits;
	memcpy(&bits, &x, sizeof bits);
	unsigned ex = (unsigned)(bits >> 52) & 0x7ff;
	if ((bits >> 63) || ex == 0 || ex == 0x7ff)
		return -1;
	*m = (bits & ((1ull << 52) - 1)) | (1ull << 52);
	*e = (int)ex - 1075;
	return 0;
}

/* x 10^s for x = m 2^e, exactly: *fl its floor, *rn rounded half to even (printf's rounding of the
 * exact value). -1 when a term would not fit in 128 bits. */
static int scaled(uint64_t m, int e, int s, u128 *fl, u128 *rn)
{
	u128 num, den = 1, q, r;
	if (s > 22 || s < -38)
		return -1;
	if (s >= 0)
	{
		num = (u128)m * pow10_128(s); /* < 2^53 10^22 < 2^127 */
		if (e >= 0)
		{
			if (e > 126 || num >> (127 - e))
				return -1;
			*fl = *rn = num << e;
			return 0;
		}
		if (-e >= 127)
		{
			*fl = *rn = 0; /* x 10^s < 2^127 2^-127 / 2: rounds to 0 */
			return 0;
		}
		int sh = -e;
		q = num >> sh;
		r = num & (((u128)1 << sh) - 1);
		u128 half = (u128)1 << (sh - 1);
		*fl = q;
		*rn = q + (r > half || (r == half && (q & 1)));
		return 0;
	}
	den = pow10_128(-s);
	if (e >= 0)
	{
		if (e > 74)
			return -1;
		num = (u128)m << e;
	}
	else
	{
		if (-e > 126 || den >> (127 + e))
			return -1;
		num = m;
		den <<= -e;
	}
	q = num / den;
	r = num % den;
	*fl = q;
	*rn = q + (r > den - r || (r == den - r && (q & 1)));
	return 0;
}

static char *fallback(char *p, const char *fmt, int prec, double x)
{
	char buf[512];
	int len = snprintf(buf, sizeof buf, fmt, prec, x);
	if (len < 0)
		len = 0;
	if (len > NUMTEXT_MAX)
		len = NUMTEXT_MAX; /* values of the outputs never come here: their texts are short */
	memcpy(p, buf, (size_t)len);
	return p + len;
}

/* The @p n digits of @p v (< 10^n) at @p p, leading zeros included. */
static void digits(char *p, uint64_t v, int n)
{
	for (int i = n - 1; i >= 0; i--)
	{
		p[i] = (char)('0' + v % 10);
		v /= 10;
	}
}

char *numtext_fixed(char *p, double x, int prec)
{
	uint64_t m;
	int e;
	u128 fl, n = 0;
	if (prec < 0 || prec > 9)
		return fallback(p, "%.*f", prec, x);
	if (!(x == 0 && !signbit(x)) &&
	    (!(x < 1e18) || decompose(x, &m, &e) < 0 || scaled(m, e, prec, &fl, &n) < 0))
		return fallback(p, "%.*f", prec, x);
	uint64_t scale = (uint64_t)pow10_128(prec), whole = (uint64_t)(n / scale), frac = (uint64_t)(n % scale);
	p = numtext_u64(p, whole);
	if (prec)
	{
		*p++ = '.';
		digits(p, frac, prec);
		p += prec;
	}
	return p;
}

char *numtext_g(char *p, double x, int prec)
{
	uint64_t m;
	int e;
	if (x == 0 && !signbit(x))
	{
		*p++ = '0';
		return p;
	}
	if (prec < 1 || prec > 17 || decompose(x, &m, &e) < 0)
		return fallback(p, "%.*g", prec, x);
	/* X, the exponent of the %e form: floor(log10 x), checked exactly (x 10^(P-1-X) in
	 * [10^(P-1), 10^P)), one more when the rounding carries to 10^P */
	int X = (int)floor(log10(x));
	u128 lo = pow10_128(prec - 1), hi = lo * 10, fl, rn;
	for (int tries = 0;; tries++)
	{
		if (tries == 3 || scaled(m, e, prec - 1 - X, &fl, &rn) < 0)
			return fallback(p, "%.*g", prec, x);
		if (fl < lo)
			X--;
		else if (fl >= hi)
			X++;
		else
			break;
	}
	if (rn == hi)
		rn = lo, X++;
	char d[17];
	digits(d, (uint64_t)rn, prec);
	int nd = prec; /* the digits without trailing zeros */
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	if (X < -4 || X >= prec)
	{
		*p++ = d[0];
		if (nd > 1)
		{
			*p++ = '.';
			memcpy(p, d + 1, (size_t)nd - 1);
			p += nd - 1;
		}
		*p++ = 'e';
		*p++ = X < 0 ? '-' : '+';
		int ax = X < 0 ? -X : X;
		if (ax < 10)
			*p++ = '0';
		return numtext_u64(p, (uint64_t)ax);
	}
	if (X >= 0)
	{
		memcpy(p, d, (size_t)X + 1);
		p += X + 1;
		if (nd > X + 1)
		{
			*p++ = '.';
			memcpy(p, d + X + 1, (size_t)(nd - X - 1));
			p += nd - X - 1;
		}
		return p;
	}
	*p++ = '0';
	*p++ = '.';
	for (int i = 0; i < -X - 1; i++)
		*p++ = '0';
	memcpy(p, d, (size_t)nd);
	return p + nd;
}

/* ------------------------------------------------------------------ outputs in parallel */

/* One block of lines, formatted by a thread into its own buffer. */
struct block
{
	numtext_line_func line;
	const void *ctx;
	uint64_t first, count;
	char *buf;
	size_t len;
};

static void *format_block(void *arg)
{
	struct block *b = arg;
	char *p = b->buf;
	for (uint64_t i = 0; i < b->count; i++)
		p = b->line(p, b->first + i, b->ctx);
	b->len = (size_t)(p - b->buf);
	return NULL;
}

static int put(struct outfile *out, const char *data, size_t len, struct graph_error *err)
{
	if (out)
		return outfile_write(out, data, len, err);
	fwrite(data, 1, len, stdout); /* the caller checks the stream (fflush, ferror) */
	return 0;
}

/* Blocks of about this many bytes: large writes, and buffers that stay in the caches' reach. */
#define BLOCK_BYTES ((size_t)1 << 20)
#define MAX_THREADS 16

int numtext_write(struct outfile *out, const char *head, uint64_t nlines, size_t max_line, numtext_line_func line,
		  const void *ctx, unsigned nthreads, struct graph_error *err)
{
	if (head && put(out, head, strlen(head), err) < 0)
		return -EIO;
	uint64_t per = BLOCK_BYTES / max_line ? BLOCK_BYTES / max_line : 1;
	if (!nthreads)
	{
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		nthreads = c < 1 ? 1 : c > MAX_THREADS ? MAX_THREADS : (unsigned)c;
	}
	if (nthreads > MAX_THREADS)
		nthreads = MAX_THREADS;
	uint64_t nblocks = (nlines + per - 1) / per;
	unsigned k = nblocks < nthreads ? (unsigned)nblocks : nthreads;
	struct block b[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	int rc = 0;
	for (unsigned t = 0; t < k; t++)
		if (!(b[t].buf = malloc(per * max_line)))
		{
			while (t--)
				free(b[t].buf);
			if (out)
				outfile_abort(out);
			return graph_set_error(err, -ENOMEM, "out of memory for %u blocks of %zu bytes of text", k, per * max_line);
		}
	/* rounds of k blocks: the other threads format theirs while this one formats the first, then
	 * the round is written in order */
	for (uint64_t first = 0; first < nlines && rc == 0;)
	{
		unsigned used = 0, started = 0;
		for (; used < k && first < nlines; used++)
		{
			char *buf = b[used].buf;
			b[used] = (struct block){ line, ctx, first, nlines - first < per ? nlines - first : per, buf, 0 };
			first += b[used].count;
		}
		for (unsigned t = 1; t < used; t++)
			if (pthread_create(&th[t], NULL, format_block, &b[t]) == 0)
				started |= 1u << t;
			else
				format_block(&b[t]);
		format_block(&b[0]);
		for (unsigned t = 1; t < used; t++)
			if (started & (1u << t))
				pthread_join(th[t], NULL);
		for (unsigned t = 0; t < used && rc == 0; t++)
			rc = put(out, b[t].buf, b[t].len, err);
	}
	for (unsigned t = 0; t < k; t++)
		free(b[t].buf);
	return rc < 0 ? -EIO : 0;
}
