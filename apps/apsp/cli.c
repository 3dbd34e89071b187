/* Helpers shared by the APSP application's command-line tools (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One thread's part of cli_calloc_touched(): zero a range (the writes fault its pages in). */
struct touch_part
{
	unsigned char *p;
	size_t len;
};

static void *touch_range(void *arg)
{
	const struct touch_part *t = arg;
	memset(t->p, 0, t->len);
	return NULL;
}

void *cli_calloc_touched(size_t n, size_t size, unsigned nthreads)
{
	const size_t huge = (size_t)2 << 20, small = (size_t)64 << 20;
	if (size && n > SIZE_MAX / size)
		return NULL;
	size_t len = n * size;
	if (!len)
		len = 1;
	if (len < small) /* not worth threads: a few thousand pages */
		return calloc(1, len);
	void *p;
	if (posix_memalign(&p, huge, len) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, (len + huge - 1) & ~(huge - 1), MADV_HUGEPAGE); /* advice only: a failure changes nothing */
#endif
	if (!nthreads)
	{
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		nthreads = c < 1 ? 1 : c > 16 ? 16 : (unsigned)c;
	}
	struct touch_part part[16];
	pthread_t th[16];
	unsigned k = nthreads > 16 ? 16 : nthreads, started = 0;
	size_t step = (len / k + huge - 1) & ~(huge - 1);
	for (unsigned i = 0; i < k; i++)
	{
		size_t off = (size_t)i * step;
		part[i].p = (unsigned char *)p + (off < len ? off : len);
		part[i].len = off >= len ? 0 : len - off < step ? len - off : step;
		/* the first part is this thread's; a thread that cannot start leaves its part to it too */
		if (i > 0 && part[i].len && pthread_create(&th[i], NULL, touch_range, &part[i]) == 0)
			started |= 1u << i;
		else if (i > 0)
			touch_range(&part[i]);
	}
	touch_range(&part[0]);
	for (unsigned i = 1; i < k; i++)
		if (started & (1u << i))
			pthread_join(th[i], NULL);
	return p;
}

/* A bad argument. */
#define usage(err, ...) graph_set_error(err, -EINVAL, __VA_ARGS__)

/* ================================================================ numbers */

/* Digits only, at most 20 of them, no overflow: 0 and *v, else -1. */
static int digits_u64(const char *s, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	if (len == 0)
		return -1;
	for (size_t i = 0; i < len; i++)
	{
		unsigned d = (unsigned)(s[i] - '0');
		if (d > 9 || x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	return 0;
}

int cli_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out, struct graph_error *err)
{
	uint64_t v;
	if (!s || digits_u64(s, strlen(s), &v) < 0 || v < min || v > max)
		return usage(err, "%s '%s': expected an integer %" PRIu64 "..%" PRIu64, opt, s ? s : "", min, max);
	*out = v;
	return 0;
}

int cli_parse_u32(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out, struct graph_error *err)
{
	uint64_t v;
	int rc = cli_parse_u64(opt, s, min, max, &v, err);
	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

int cli_parse_double(const char *opt, const char *s, double min, double max, double *out, struct graph_error *err)
{
	char *end;
	errno = 0;
	double v = s && *s && !strchr(" \t\n", *s) ? strtod(s, &end) : NAN;
	if (isnan(v) || *end || errno || !isfinite(v) || v < min || v > max)
		return usage(err, "%s '%s': expected a number %g..%g", opt, s ? s : "", min, max);
	*out = v;
	return 0;
}

int cli_parse_range(const char *opt, const char *s, char sep, uint64_t min, uint64_t max, uint64_t *lo, uint64_t *hi,
		    struct graph_error *err)
{
	const char *mid = s ? strchr(s, sep) : NULL;
	uint64_t a, b;
	if (!mid || digits_u64(s, (size_t)(mid - s), &a) < 0 || digits_u64(mid + 1, strlen(mid + 1), &b) < 0 || a < min ||
	    b > max)
		return usage(err, "%s '%s': expected LO%cHI, integers %" PRIu64 "..%" PRIu64, opt, s ? s : "", sep, min, max);
	if (a > b)
		return usage(err, "%s '%s': LO is above HI", opt, s);
	*lo = a;
	*hi = b;
	return 0;
}

int cli_parse_bytes(const char *opt, const char *s, uint64_t *out, struct graph_error *err)
{
	static const char units[] = "KMGT";
	size_t len = s ? strspn(s, "0123456789") : 0;
	uint64_t v, mult = 1;
	const char *u = s ? s + len : "";
	if (*u)
	{
		const char *k = strchr(units, *u & ~0x20);
		if (!k || !*u || (strcasecmp(u + 1, "") && strcasecmp(u + 1, "B") && strcasecmp(u + 1, "iB")))
			return usage(err, "%s '%s': unknown unit '%s'; write bytes (1500000000) or use K, M, G or T (512M, 4G)", opt,
				     s, u);
		for (long i = 0; i <= k - units; i++)
			mult *= 1024;
	}
	if (digits_u64(s ? s : "", len, &v) < 0 || (mult > 1 && v > UINT64_MAX / mult))
		return usage(err, "%s '%s': expected a byte count such as 1500000000, 512M or 4G", opt, s ? s : "");
	if (v == 0)
		return usage(err, "%s '%s': the limit must be above 0", opt, s);
	*out = v * mult;
	return 0;
}

/* ================================================================ generated graphs */

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
		return usage(err, "%s '%s': unknown generator '%.*s'; use random:N, rmat:SCALE, grid:RxC or road:N", opt, spec,
			     (int)klen, spec);
	gen->kind = (enum cli_gen_kind)kind;

	/* The fields after KIND: */
	char buf[256], *field[4] = { 0 };
	int nf = 0;
	if (strlen(spec) >= sizeof buf)
		return usage(err, "%s: spec too long", opt);
	strcpy(buf, spec);
	for (char *p = colon ? buf + klen : NULL; p && nf < 4; nf++)
	{
		*p++ = '\0';
		field[nf] = p;
		p = strchr(p, ':');
	}
	static const int most[] = { 3, 3, 2, 1 };
	if (nf == 0 || nf > most[kind] || (nf == 4))
		return usage(err, "%s '%s': expected %s", opt, spec, gen_forms[kind]);

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
			return usage(err, "%s '%s': expected %s, e.g. grid:1024x1024", opt, spec, gen_forms[kind]);
		memcpy(r, field[0], (size_t)(x - field[0]));
		r[x - field[0]] = '\0';
		if ((rc = cli_parse_u32("R", r, 1, GRAPH_MAX_VERTICES, &gen->rows, &why)) == 0 &&
		    (rc = cli_parse_u32("C", x + 1, 1, GRAPH_MAX_VERTICES, &gen->cols, &why)) == 0 &&
		    (uint64_t)gen->rows * gen->cols > GRAPH_MAX_VERTICES)
			return usage(err, "%s '%s': %" PRIu32 " x %" PRIu32 " vertices, at most %" PRIu32 " in all", opt, spec,
				     gen->rows, gen->cols, GRAPH_MAX_VERTICES);
		wfield = 1;
		break;
	}
	}
	if (rc == 0 && nf > wfield && (rc = cli_parse_range("W1-W2", field[wfield], '-', 0, GRAPH_MAX_WEIGHT, &lo, &hi, &why)) == 0)
		gen->w_min = (uint32_t)lo, gen->w_max = (uint32_t)hi;
	if (rc < 0)
		return usage(err, "%s '%s': %s; the spec is %s", opt, spec, why.msg, gen_forms[kind]);
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
	return usage(err, "unknown generator %d", (int)g->kind);
}

/* ================================================================ sources */

/* k distinct vertices of 0..n-1: rejection against a bitmap when few, else the prefix of a
 * partial Fisher-Yates shuffle. The draws are part of the output's definition: a seed gives
 * the same sources in every version. */
static int random_sources(uint32_t n, uint64_t k, uint64_t seed, uint32_t *src, struct graph_error *err)
{
	uint64_t s = seed ^ 0x5eed5eed5eedULL;
	if (k * 4 < n)
	{
		uint8_t *seen = calloc(((size_t)n + 7) / 8, 1);
		if (!seen)
			return graph_set_error(err, -ENOMEM, "out of memory for a bitmap of %" PRIu32 " vertices", n);
		for (uint64_t i = 0; i < k;)
		{
			uint32_t v = (uint32_t)(graph_splitmix64(&s) % n);
			if (!(seen[v / 8] & (1u << (v % 8))))
			{
				seen[v / 8] |= (uint8_t)(1u << (v % 8));
				src[i++] = v;
			}
		}
		free(seen);
		return 0;
	}
	uint32_t *perm = malloc((size_t)n * sizeof *perm);
	if (!perm)
		return graph_set_error(err, -ENOMEM, "out of memory for a permutation of %" PRIu32 " vertices", n);
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint64_t i = 0; i < k; i++)
	{
		uint64_t j = i + graph_splitmix64(&s) % (n - i);
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		src[i] = perm[i];
	}
	free(perm);
	return 0;
}

/* "a,b,c": every item a vertex id, none empty, none twice. */
static int list_sources(const char *opt, const char *noun, const char *spec, uint32_t n, uint32_t *src, uint64_t *count,
			struct graph_error *err)
{
	uint8_t *seen = calloc(((size_t)n + 7) / 8, 1);
	if (!seen)
		return graph_set_error(err, -ENOMEM, "out of memory for a bitmap of %" PRIu32 " vertices", n);
	uint64_t k = 0;
	int rc = 0;
	for (const char *p = spec;; p++)
	{
		size_t len = strcspn(p, ",");
		uint64_t v;
		if (len == 0)
		{
			rc = usage(err, "%s '%s': item %" PRIu64 " is empty; list vertex ids like 0,5,9", opt, spec, k + 1);
			break;
		}
		if (digits_u64(p, len, &v) < 0 || v >= n)
		{
			rc = usage(err, "%s '%s': '%.*s' is not a vertex id 0..%" PRIu32, opt, spec, (int)(len > 40 ? 40 : len), p,
				   n - 1);
			break;
		}
		if (seen[v / 8] & (1u << (v % 8)))
		{
			rc = usage(err, "%s '%s': vertex %" PRIu64 " is listed twice; list each %s once", opt, spec, v, noun);
			break;
		}
		seen[v / 8] |= (uint8_t)(1u << (v % 8));
		src[k++] = (uint32_t)v;
		p += len;
		if (!*p)
			break;
	}
	free(seen);
	*count = k;
	return rc;
}

/* "file:PATH": vertex ids separated by blanks, tabs, line ends or commas, '#' comments to the
 * end of the line; each once, in this order. Errors name PATH:LINE. */
static int file_sources(const char *opt, const char *noun, const char *spec, uint32_t n, uint32_t **out, uint64_t *count,
			struct graph_error *err)
{
	const char *path = spec + 5;
	FILE *f = fopen(path, "rb");
	if (!f)
		return graph_set_error(err, -errno, "%s %s: cannot open %s: %s", opt, spec, path, strerror(errno));
	uint8_t *seen = calloc(((size_t)n + 7) / 8, 1);
	uint64_t k = 0, cap = 1024, line = 1;
	uint32_t *src = malloc(cap * sizeof *src);
	int rc = 0, c;
	char tok[24];
	size_t len = 0;
	if (!seen || !src)
		rc = graph_set_error(err, -ENOMEM, "%s %s: out of memory for a bitmap of %" PRIu32 " vertices", opt, spec, n);
	while (rc == 0)
	{
		c = getc(f);
		if (c == '#')
			while (c != EOF && c != '\n')
				c = getc(f);
		if (c == EOF || c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == ',')
		{
			uint64_t v;
			if (len && (len >= sizeof tok || digits_u64(tok, len, &v) < 0 || v >= n))
				rc = usage(err, "%s %s:%" PRIu64 ": '%.*s' is not a vertex id 0..%" PRIu32, opt, spec, line,
					   (int)(len < sizeof tok ? len : sizeof tok), tok, n - 1);
			else if (len && (seen[v / 8] & (1u << (v % 8))))
				rc = usage(err, "%s %s:%" PRIu64 ": vertex %" PRIu64 " is listed twice; list each %s once",
					   opt, spec, line, v, noun);
			else if (len)
			{
				if (k == cap)
				{
					uint32_t *p = realloc(src, (cap *= 2) * sizeof *src);
					if (!p)
					{
						rc = graph_set_error(err, -ENOMEM, "%s %s: out of memory for %" PRIu64 " %ss", opt, spec, cap, noun);
						break;
					}
					src = p;
				}
				seen[v / 8] |= (uint8_t)(1u << (v % 8));
				src[k++] = (uint32_t)v;
			}
			len = 0;
			line += c == '\n';
			if (c == EOF)
				break;
		}
		else if (len < sizeof tok)
			tok[len++] = (char)c;
		else
			len = sizeof tok; /* too long for an id: reported at its end */
	}
	if (rc == 0 && ferror(f))
		rc = graph_set_error(err, -EIO, "%s %s: read error", opt, spec);
	if (rc == 0 && k == 0)
		rc = usage(err, "%s %s: no vertex id in the file; write ids from 0, one a line or separated by blanks or "
			   "commas", opt, spec);
	fclose(f);
	free(seen);
	if (rc < 0)
	{
		free(src);
		return rc;
	}
	*out = src;
	*count = k;
	return 0;
}

int cli_sources(const char *spec, uint32_t n, uint64_t seed, uint32_t **out, uint64_t *count, struct graph_error *err)
{
	return cli_vertex_set("--sources", "source", spec, n, seed, out, count, err);
}

int cli_vertex_set(const char *opt, const char *noun, const char *spec, uint32_t n, uint64_t seed, uint32_t **out,
		   uint64_t *count, struct graph_error *err)
{
	uint64_t lo = 0, hi = n - 1, v;
	struct graph_error why;
	*out = NULL;
	*count = 0;
	if (!spec)
		spec = n <= 1024 ? "all" : "random:1024";
	if (!strncmp(spec, "file:", 5))
		return file_sources(opt, noun, spec, n, out, count, err);
	int list = strchr(spec, ',') != NULL, random = !strncmp(spec, "random:", 7), first = !strncmp(spec, "first:", 6);
	if (!*spec)
		return usage(err, "%s '': empty; use all, first:N, random:N, A-B or a,b,c", opt);
	if (list)
		v = 1 + (uint64_t)strlen(spec) / 2; /* items are at least one digit and a comma */
	else if (!strcmp(spec, "all"))
		v = n;
	else if (random)
	{
#ifdef TUCCOMPI_SIMGRID
		/* The simulated build times sets larger than its stand-in graphs (docs/simulation.md):
		 * random:K past the vertex count repeats the vertices' random order (nothing is computed). */
		if (cli_parse_u64("random:N", spec + 7, 1, UINT32_MAX, &v, &why) == 0 && v > n)
		{
			uint32_t *src = malloc(v * sizeof *src);
			if (!src)
				return graph_set_error(err, -ENOMEM, "out of memory for %" PRIu64 " %ss", v, noun);
			int rc = random_sources(n, n, seed, src, err);
			for (uint64_t i = n; rc == 0 && i < v; i++)
				src[i] = src[i % n];
			if (rc < 0)
			{
				free(src);
				return rc;
			}
			*out = src;
			*count = v;
			return 0;
		}
#endif
		if (cli_parse_u64("random:N", spec + 7, 1, n, &v, &why) < 0)
			return usage(err, "%s '%s': want random:K with 1 <= K <= %" PRIu32 " (the vertex count)", opt, spec, n);
	}
	else if (strchr(spec, '-'))
	{
		if (cli_parse_range("A-B", spec, '-', 0, n - 1, &lo, &hi, &why) < 0)
			return usage(err, "%s '%s': want A-B with 0 <= A <= B < %" PRIu32 " (vertex ids count from 0)", opt, spec, n);
		v = hi - lo + 1;
	}
	else if (first || digits_u64(spec, strlen(spec), &v) == 0)
	{
		/* "N" is "first:N": the first N vertices, not vertex N */
		if (first && digits_u64(spec + 6, strlen(spec + 6), &v) < 0)
			return usage(err, "%s '%s': want first:N, N an integer 1..%" PRIu32, opt, spec, n);
		if (v == 0 || v > n)
			return usage(err, "%s '%s': want 1 to %" PRIu32 " %ss (%s means the first N vertices, 0..N-1; "
				     "one vertex V alone is V-V)", opt, spec, n, noun, first ? "first:N" : "N");
		hi = v - 1;
	}
	else
		return usage(err, "%s '%s': use all, first:N, random:N, A-B or a,b,c (vertex ids count from 0)", opt, spec);
	uint32_t *src = malloc((v < n ? v : n) * sizeof *src + 1);
	if (!src)
		return graph_set_error(err, -ENOMEM, "out of memory for %" PRIu64 " %ss", v, noun);
	int rc = 0;
	if (list)
		rc = list_sources(opt, noun, spec, n, src, &v, err);
	else if (random)
		rc = random_sources(n, v, seed, src, err);
	else
		for (uint64_t i = 0; i < v; i++)
			src[i] = (uint32_t)(lo + i);
	if (rc < 0)
	{
		free(src);
		return rc;
	}
	*out = src;
	*count = v;
	return 0;
}

/* ================================================================ real weights */

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

/* ================================================================ outputs */

/* The folder of @p path ("." when it has none) into @p dir. */
static void folder_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* A name for comparisons that needs no file to exist: the real path of the nearest existing
 * folder of @p path, then the rest of it as given. "" when nothing resolves. */
static void canonical(const char *path, char *out, size_t len)
{
	char prefix[PATH_MAX], real[PATH_MAX];
	struct stat st;
	const char *rest = strrchr(path, '/');
	rest = rest ? rest + 1 : path;
	for (;;)
	{
		size_t plen = (size_t)(rest - path);
		snprintf(prefix, sizeof prefix, "%.*s", plen ? (int)plen : 1, plen ? path : ".");
		if (plen == 0 || stat(prefix, &st) == 0)
			break;
		const char *p = rest - 1; /* the '/' before rest: step back over one more component */
		while (p > path && p[-1] == '/')
			p--;
		while (p > path && p[-1] != '/')
			p--;
		rest = p;
	}
	if (!realpath(prefix, real))
		out[0] = '\0';
	else
		snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", rest);
}

/* Whether a and b name the same file: the same inode when both exist, else the same
 * canonical name. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
	canonical(a, ca, sizeof ca);
	canonical(b, cb, sizeof cb);
	return ca[0] && !strcmp(ca, cb);
}

/* The nearest folder of @p path that exists (path itself included) into @p out. */
static void existing_ancestor(const char *path, char *out, size_t len)
{
	struct stat st;
	snprintf(out, len, "%s", path);
	while (stat(out, &st) < 0)
	{
		char up[PATH_MAX];
		folder_of(out, up, sizeof up);
		if (!strcmp(up, out))
			break;
		snprintf(out, len, "%s", up);
	}
}

/* A folder the program will create (--trace DIR): a folder already, or creatable. */
static int check_new_dir(const struct cli_output *o, struct graph_error *err)
{
	char anc[PATH_MAX];
	struct stat st;
	if (stat(o->path, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : graph_set_error(err, -ENOTDIR, "%s %s: not a folder; name a folder", o->option, o->path);
	existing_ancestor(o->path, anc, sizeof anc);
	if (stat(anc, &st) < 0 || !S_ISDIR(st.st_mode))
		return graph_set_error(err, -ENOTDIR, "%s %s: %s is not a folder", o->option, o->path, anc);
	if (access(anc, W_OK | X_OK) < 0)
		return graph_set_error(err, -errno, "%s %s: cannot create it in %s (%s); name a writable place", o->option, o->path,
				 anc, strerror(errno));
	return 0;
}

/* Whether @p dir is one of the folders of outs[] that the program creates. */
static int will_create(const char *dir, const struct cli_output *outs, unsigned nout)
{
	char a[PATH_MAX + 256], b[PATH_MAX + 256], trimmed[PATH_MAX];
	canonical(dir, a, sizeof a);
	for (unsigned k = 0; k < nout; k++)
	{
		if (!outs[k].is_dir || !outs[k].path)
			continue;
		size_t len = strlen(outs[k].path);
		while (len > 1 && outs[k].path[len - 1] == '/')
			len--;
		snprintf(trimmed, sizeof trimmed, "%.*s", (int)len, outs[k].path);
		canonical(trimmed, b, sizeof b);
		if (a[0] && !strcmp(a, b))
			return 1;
	}
	return 0;
}

static int check_folder(const struct cli_output *o, const struct cli_output *outs, unsigned nout,
			struct graph_error *err)
{
	char dir[PATH_MAX];
	struct stat st;
	size_t len = strlen(o->path);
	if (len == 0)
		return usage(err, "%s '': empty file name", o->option);
	if (o->path[len - 1] == '/' || (stat(o->path, &st) == 0 && S_ISDIR(st.st_mode)))
		return graph_set_error(err, -EISDIR, "%s %s: is a folder; name a file in it", o->option, o->path);
	if (len + 32 >= PATH_MAX)
		return graph_set_error(err, -ENAMETOOLONG, "%s %s: name too long; use a shorter path", o->option, o->path);
	folder_of(o->path, dir, sizeof dir);
	if (stat(dir, &st) < 0 && errno == ENOENT && will_create(dir, outs, nout))
		return 0;
	if (stat(dir, &st) < 0)
		return graph_set_error(err, -errno, "%s %s: folder %s %s; create it first or name another folder", o->option,
				 o->path, dir, errno == ENOENT ? "does not exist" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return graph_set_error(err, -ENOTDIR, "%s %s: %s is not a folder", o->option, o->path, dir);
	if (access(dir, W_OK | X_OK) < 0)
		return graph_set_error(err, -errno, "%s %s: cannot write in folder %s (%s); name a writable folder", o->option,
				 o->path, dir, strerror(errno));
	return 0;
}

int cli_check_outputs(const struct cli_output *outs, unsigned nout, const char *const *inputs, unsigned nin,
		      struct graph_error *err)
{
	for (unsigned i = 0; i < nout; i++)
	{
		const struct cli_output *o = &outs[i];
		if (!o->path)
			continue;
		if (o->is_dir)
		{
			int rc = check_new_dir(o, err);
			if (rc < 0)
				return rc;
			continue;
		}
		if (!strcmp(o->path, "-"))
		{
			if (!o->stdout_ok)
				return usage(err, "%s -: standard output is not taken here; name a file", o->option);
			continue;
		}
		int rc = check_folder(o, outs, nout, err);
		if (rc < 0)
			return rc;
		for (unsigned k = 0; k < nin; k++)
			if (inputs[k] && strcmp(inputs[k], "-") && same_file(o->path, inputs[k]))
				return usage(err, "%s %s is the input %s: writing it would destroy the input; name another file",
					     o->option, o->path, inputs[k]);
		for (unsigned k = 0; k < i; k++)
			if (outs[k].path && !outs[k].is_dir && strcmp(outs[k].path, "-") && same_file(o->path, outs[k].path))
				return usage(err, "%s and %s both name %s; give each output its own file", outs[k].option,
					     o->option, o->path);
	}
	return 0;
}

/* ================================================================ memory */

/* The first number after @p key in the file, times @p unit; 0 if absent. */
static uint64_t file_value(const char *path, const char *key, uint64_t unit)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[256];
	uint64_t v = 0;
	size_t klen = strlen(key);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen))
		{
			char *end;
			unsigned long long x = strtoull(line + klen, &end, 10);
			v = end != line + klen ? (uint64_t)x * unit : 0;
			break;
		}
	fclose(f);
	return v;
}

/* This process's cgroup folder under the v2 hierarchy ("0::/path") or v1's memory
 * controller ("N:memory:/path"), into @p out; 0 if found. */
static int cgroup_dir(int v2, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -1;
	char line[1024];
	int found = -1;
	while (found < 0 && fgets(line, sizeof line, f))
	{
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		const char *controllers = c1 + 1, *path = c2 + 1;
		if (v2 ? (!strcmp(line, "0") && !*controllers) : (strstr(controllers, "memory") != NULL))
		{
			snprintf(out, len, "%s%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", path);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* Room left under the cgroup limit, or 0 when there is no limit. */
static uint64_t cgroup_room(void)
{
	static const struct
	{
		int v2;
		const char *limit, *usage, *stat, *inactive;
	} kinds[] = {
		{ 1, "memory.max", "memory.current", "memory.stat", "inactive_file " },
		{ 0, "memory.limit_in_bytes", "memory.usage_in_bytes", "memory.stat", "total_inactive_file " },
	};
	for (unsigned k = 0; k < 2; k++)
	{
		char dirs[2][PATH_MAX], path[2 * PATH_MAX + 64];
		int nd = 0;
		if (cgroup_dir(kinds[k].v2, dirs[nd], sizeof dirs[0]) == 0)
			nd++;
		snprintf(dirs[nd++], sizeof dirs[0], "%s", kinds[k].v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory");
		for (int d = 0; d < nd; d++)
		{
			snprintf(path, sizeof path, "%s/%s", dirs[d], kinds[k].limit);
			uint64_t limit = file_value(path, "", 1);
			if (!limit || limit >= (1ull << 60)) /* "max", or v1's "unlimited" */
				continue;
			snprintf(path, sizeof path, "%s/%s", dirs[d], kinds[k].usage);
			uint64_t used = file_value(path, "", 1);
			snprintf(path, sizeof path, "%s/%s", dirs[d], kinds[k].stat);
			uint64_t cache = file_value(path, kinds[k].inactive, 1);
			used = used > cache ? used - cache : 0;
			return limit > used ? limit - used : 1;
		}
	}
	return 0;
}

uint64_t cli_memory_available(const char **what)
{
	uint64_t avail = file_value("/proc/meminfo", "MemAvailable:", 1024), room = cgroup_room();
	*what = "available memory";
	if (room && (!avail || room < avail))
	{
		*what = "cgroup memory limit";
		return room;
	}
	return avail;
}

uint64_t cli_memory_limit(uint64_t option, const char **what)
{
	static char text[96];
	if (option)
	{
		*what = "--max-memory";
		return option;
	}
	const char *source;
	uint64_t avail = cli_memory_available(&source);
	snprintf(text, sizeof text, "%s; --max-memory changes it", source);
	*what = text;
	return avail;
}

/* ================================================================ progress */

int cli_progress_wanted(void)
{
	return isatty(1) || isatty(2);
}

void cli_progress_format(char *buf, size_t len, double done, uint64_t total, double elapsed_s, int approx)
{
	enum { WIDTH = 30 };
	char bar[WIDTH + 1], eta[32];
	int fill = total ? (int)(WIDTH * done / (double)total) : 0;
	for (int i = 0; i < WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[WIDTH] = '\0';
	double rate = elapsed_s > 0 ? done / elapsed_s : 0;
	/* No estimate before the first task is done: "ETA 0 s" would be a lie. */
	if (done > 0 && rate > 0)
		snprintf(eta, sizeof eta, "%.0f s", ((double)total - done) / rate);
	else
		snprintf(eta, sizeof eta, "--");
	snprintf(buf, len, "[%s] %s%.0f/%" PRIu64 " SSSP  %.1f SSSP/s  ETA %s   ", bar, approx ? "~" : "", done, total, rate,
		 eta);
}
