/* CSR construction and checks. graph_from_arcs is a counting sort by source followed by a
 * per-row sort by target, so it stays linear for 10^8 arcs and never sorts the whole list. */
#include "graph_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int graph_set_error(struct graph_error *err, int rc, const char *fmt, ...)
{
	if (err)
	{
		char msg[sizeof err->msg]; /* the arguments may quote err->msg itself */
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
		memcpy(err->msg, msg, sizeof msg);
	}
	return rc;
}

int graph_io_error(struct graph_error *err, const char *path, const char *what, int e)
{
	return graph_set_error(err, -e, "%s: %s: %s", path, what, strerror(e));
}

int graph_alloc(struct graph *g, uint32_t n, uint64_t m, struct graph_error *err)
{
	/* +1: malloc(0) may return NULL, which would read as a failure. */
	if (m > SIZE_MAX / sizeof(uint32_t) - 1 ||
	    (!g->rowptr && !(g->rowptr = malloc(((size_t)n + 1) * sizeof *g->rowptr))) ||
	    !(g->col = malloc((size_t)(m + 1) * sizeof *g->col)) || !(g->w = malloc((size_t)(m + 1) * sizeof *g->w)) ||
	    !(g->min_out = malloc(((size_t)n + 1) * sizeof *g->min_out)))
	{
		graph_free(g);
		return graph_set_error(err, -ENOMEM,
				       "out of memory: the graph (%" PRIu32 " vertices, %" PRIu64
				       " arcs) needs %" PRIu64 " bytes; use a machine with more memory or a smaller graph",
				       n, m, graph_bytes_for(n, m));
	}
	g->n = n;
	g->m = m;
	return 0;
}

uint64_t graph_bytes_for(uint32_t n, uint64_t m)
{
	return ((uint64_t)n + 1) * sizeof(uint64_t) + (uint64_t)n * sizeof(uint32_t) + m * 2 * sizeof(uint32_t);
}

uint64_t graph_build_bytes(uint64_t n, uint64_t m)
{
	/* Arc list (src, dst, w) and, when the arcs do not come sorted, the CSR beside it. Counts
	 * from a header are below 2^32 and 2^56: no overflow. */
	return 12 * m + (n + 1) * sizeof(uint64_t) + n * sizeof(uint32_t) + 8 * m;
}

uint64_t graph_bytes(const struct graph *g)
{
	return g->rowptr ? graph_bytes_for(g->n, g->m) : 0;
}

void graph_free(struct graph *g)
{
	free(g->rowptr);
	free(g->col);
	free(g->w);
	free(g->min_out);
	memset(g, 0, sizeof *g);
}

/* Rows up to this length use insertion sort; longer ones (R-MAT hubs) a radix sort. */
#define SHORT_ROW 64

static void sort_short_row(uint32_t *col, uint32_t *w, uint64_t len)
{
	for (uint64_t i = 1; i < len; i++)
	{
		uint32_t c = col[i], x = w[i];
		uint64_t j = i;
		for (; j > 0 && col[j - 1] > c; j--)
		{
			col[j] = col[j - 1];
			w[j] = w[j - 1];
		}
		col[j] = c;
		w[j] = x;
	}
}

/* LSD radix sort on the target, 8 bits a pass, over the bytes that vertex ids can use.
 * tmp holds 2*len entries. */
static void sort_long_row(uint32_t *col, uint32_t *w, uint64_t len, unsigned id_bytes, uint64_t *tmp)
{
	uint64_t *a = tmp, *b = tmp + len;
	for (uint64_t i = 0; i < len; i++)
		a[i] = (uint64_t)col[i] << 32 | w[i];
	for (unsigned pass = 0; pass < id_bytes; pass++)
	{
		unsigned shift = 32 + 8 * pass;
		uint64_t count[256] = {0};
		for (uint64_t i = 0; i < len; i++)
			count[(a[i] >> shift) & 0xff]++;
		if (count[(a[0] >> shift) & 0xff] == len)
			continue; /* all keys share this digit */
		uint64_t sum = 0;
		for (unsigned d = 0; d < 256; d++)
		{
			uint64_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (uint64_t i = 0; i < len; i++)
			b[count[(a[i] >> shift) & 0xff]++] = a[i];
		uint64_t *t = a;
		a = b;
		b = t;
	}
	for (uint64_t i = 0; i < len; i++)
	{
		col[i] = (uint32_t)(a[i] >> 32);
		w[i] = (uint32_t)a[i];
	}
}

/* Sort each row by target, merge equal targets keeping the lightest arc, and compute min_out
 * and max_w. On entry rowptr[u+1] is the end of row u in col/w and rows follow one another
 * from 0; longest is the longest row. */
static int finish_rows(struct graph *g, uint64_t longest, struct graph_error *err)
{
	uint64_t *tmp = NULL;
	if (longest > SHORT_ROW && !(tmp = malloc(2 * longest * sizeof *tmp)))
	{
		graph_free(g);
		return graph_set_error(err, -ENOMEM, "out of memory: %" PRIu64 " bytes to sort a row of %" PRIu64 " arcs",
				       2 * longest * (uint64_t)sizeof *tmp, longest);
	}
	unsigned id_bytes = 1;
	while (id_bytes < 4 && (uint64_t)g->n > (1ull << (8 * id_bytes)))
		id_bytes++;

	uint32_t *col = g->col, *w = g->w, max_w = 0;
	uint64_t out = 0, start = 0;
	for (uint32_t u = 0; u < g->n; u++)
	{
		uint64_t end = g->rowptr[u + 1], len = end - start, first = out;
		if (len > SHORT_ROW)
			sort_long_row(col + start, w + start, len, id_bytes, tmp);
		else
			sort_short_row(col + start, w + start, len);
		for (uint64_t e = start; e < end; e++)
		{
			if (out > first && col[out - 1] == col[e])
			{
				if (w[e] < w[out - 1])
					w[out - 1] = w[e];
				continue;
			}
			col[out] = col[e];
			w[out] = w[e];
			out++;
		}
		uint32_t lo = GRAPH_INF;
		for (uint64_t e = first; e < out; e++)
		{
			lo = w[e] < lo ? w[e] : lo;
			max_w = w[e] > max_w ? w[e] : max_w;
		}
		g->min_out[u] = lo;
		g->rowptr[u + 1] = out;
		start = end;
	}
	free(tmp);
	g->m = out;
	g->max_w = max_w;

	/* Give back what merging freed; a failed shrink keeps the larger block. */
	uint32_t *p;
	if ((p = realloc(g->col, (size_t)(out + 1) * sizeof *p)))
		g->col = p;
	if ((p = realloc(g->w, (size_t)(out + 1) * sizeof *p)))
		g->w = p;
	return 0;
}

/* graph_from_arcs; with own, the three arrays are the caller's to give up: they are freed,
 * and when the arcs come sorted by source (as DIMACS files and most generators give them),
 * dst and w become the CSR arrays in place, which saves their memory and copying. */
static int from_arcs(uint32_t n, uint64_t m, uint32_t *src, uint32_t *dst, uint32_t *w, int own, struct graph *g,
		     struct graph_error *err)
{
	memset(g, 0, sizeof *g);
	int rc = 0;
	uint64_t *rowptr = NULL;
	if (n > GRAPH_MAX_VERTICES)
	{
		rc = graph_set_error(err, -EINVAL, "%" PRIu32 " vertices: at most %" PRIu32 " are supported", n,
				     GRAPH_MAX_VERTICES);
		goto out;
	}

	/* Count arcs per source into rowptr[u+1], checking every arc on the way. */
	if (!(rowptr = calloc((size_t)n + 1, sizeof *rowptr)))
	{
		rc = graph_set_error(err, -ENOMEM, "out of memory: %" PRIu64 " bytes for the row offsets of %" PRIu32
				     " vertices", ((uint64_t)n + 1) * sizeof *rowptr, n);
		goto out;
	}
	uint64_t kept = 0;
	int sorted = 1;
	for (uint64_t e = 0; e < m; e++)
	{
		if (src[e] >= n || dst[e] >= n || w[e] > GRAPH_MAX_WEIGHT)
		{
			free(rowptr);
			if (w[e] > GRAPH_MAX_WEIGHT)
				rc = graph_set_error(err, -EINVAL, "arc %" PRIu64 ": weight %" PRIu32 " above the maximum %u", e,
						     w[e], GRAPH_MAX_WEIGHT);
			else
				rc = graph_set_error(err, -EINVAL, "arc %" PRIu64 ": %" PRIu32 " -> %" PRIu32
						     " has a vertex out of range 0..%" PRIu32, e, src[e], dst[e], n - 1);
			goto out;
		}
		if (src[e] != dst[e])
		{
			rowptr[src[e] + 1]++;
			kept++;
		}
		if (e > 0 && src[e] < src[e - 1])
			sorted = 0;
	}
	g->rowptr = rowptr;
	g->n = n;

	uint64_t longest = 0;
	if (own && sorted && kept > 0)
	{
		/* Rows are already in place once self-loops are squeezed out. */
		uint64_t k = 0;
		for (uint64_t e = 0; e < m; e++)
			if (src[e] != dst[e])
			{
				dst[k] = dst[e];
				w[k] = w[e];
				k++;
			}
		g->col = dst;
		g->w = w;
		g->m = kept;
		dst = w = NULL;
		if (!(g->min_out = malloc(((size_t)n + 1) * sizeof *g->min_out)))
		{
			graph_free(g);
			rc = graph_set_error(err, -ENOMEM, "out of memory: the graph (%" PRIu32 " vertices, %" PRIu64
					     " arcs) needs %" PRIu64 " bytes", n, kept, graph_bytes_for(n, kept));
			goto out;
		}
		for (uint32_t u = 0; u < n; u++)
		{
			longest = rowptr[u + 1] > longest ? rowptr[u + 1] : longest;
			rowptr[u + 1] += rowptr[u];
		}
	}
	else
	{
		if ((rc = graph_alloc(g, n, kept, err)) < 0)
			goto out;
		/* rowptr[u+1] = start of row u; the scatter moves it to the end of row u. */
		uint64_t sum = 0;
		for (uint32_t u = 0; u < n; u++)
		{
			uint64_t c = rowptr[u + 1];
			rowptr[u + 1] = sum;
			sum += c;
			longest = c > longest ? c : longest;
		}
		for (uint64_t e = 0; e < m; e++)
		{
			if (src[e] == dst[e])
				continue;
			uint64_t p = rowptr[src[e] + 1]++;
			g->col[p] = dst[e];
			g->w[p] = w[e];
		}
	}
	if (own)
	{
		free(src);
		free(dst);
		free(w);
		own = 0;
	}
	rc = finish_rows(g, longest, err);
out:
	if (own)
	{
		free(src);
		free(dst);
		free(w);
	}
	return rc;
}

int graph_from_arcs(uint32_t n, uint64_t m, const uint32_t *src, const uint32_t *dst, const uint32_t *w,
		    struct graph *g, struct graph_error *err)
{
	/* Not owned: the arrays are only read. */
	return from_arcs(n, m, (uint32_t *)src, (uint32_t *)dst, (uint32_t *)w, 0, g, err);
}

int graph_from_owned_arcs(uint32_t n, uint64_t m, uint32_t *src, uint32_t *dst, uint32_t *w, struct graph *g,
			  struct graph_error *err)
{
	return from_arcs(n, m, src, dst, w, 1, g, err);
}

uint64_t graph_undirected_bytes(const struct graph *g)
{
	return ((uint64_t)g->n + 1) * sizeof(uint64_t) + ((uint64_t)g->n + 1) * sizeof(uint32_t) +
	       (2 * g->m + 1) * 2 * sizeof(uint32_t);
}

int graph_make_undirected(struct graph *g, struct graph_error *err)
{
	struct graph h;
	memset(&h, 0, sizeof h);
	uint32_t n = g->n;
	uint64_t m2 = 2 * g->m, longest = 0;
	if (!(h.rowptr = calloc((size_t)n + 1, sizeof *h.rowptr)) || !(h.col = malloc((size_t)(m2 + 1) * sizeof *h.col)) ||
	    !(h.w = malloc((size_t)(m2 + 1) * sizeof *h.w)) || !(h.min_out = malloc(((size_t)n + 1) * sizeof *h.min_out)))
	{
		graph_free(&h);
		return graph_set_error(err, -ENOMEM, "out of memory: the undirected graph (%" PRIu32 " vertices, up to %" PRIu64
				       " arcs) needs %" PRIu64 " bytes beside the graph; use a machine with more memory",
				       n, m2, graph_undirected_bytes(g));
	}
	h.n = n;
	h.m = m2;
	/* Row u gets u's arcs and the reverse of the arcs into u. rowptr[u+1] counts, then is the
	 * start of row u, then (after the scatter) its end, as finish_rows() wants. */
	for (uint32_t u = 0; u < n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			h.rowptr[u + 1]++;
			h.rowptr[g->col[e] + 1]++;
		}
	uint64_t sum = 0;
	for (uint32_t u = 0; u < n; u++)
	{
		uint64_t c = h.rowptr[u + 1];
		h.rowptr[u + 1] = sum;
		sum += c;
		longest = c > longest ? c : longest;
	}
	for (uint32_t u = 0; u < n; u++)
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint32_t v = g->col[e];
			uint64_t p = h.rowptr[u + 1]++, q = h.rowptr[v + 1]++;
			h.col[p] = v;
			h.w[p] = g->w[e];
			h.col[q] = u;
			h.w[q] = g->w[e];
		}
	int rc = finish_rows(&h, longest, err); /* frees h when it fails */
	if (rc < 0)
		return rc;
	graph_free(g);
	*g = h;
	return 0;
}

int graph_validate(const struct graph *g, struct graph_error *err)
{
#define BAD(...) graph_set_error(err, -EINVAL, "invalid graph: " __VA_ARGS__)
	if (g->n > GRAPH_MAX_VERTICES)
		return BAD("%" PRIu32 " vertices, at most %" PRIu32 " are supported", g->n, GRAPH_MAX_VERTICES);
	if (!g->rowptr || !g->min_out || (g->m && (!g->col || !g->w)))
		return BAD("missing arrays");
	if (g->rowptr[0] != 0)
		return BAD("rowptr[0] = %" PRIu64 ", not 0", g->rowptr[0]);
	if (g->rowptr[g->n] != g->m)
		return BAD("rowptr[n] = %" PRIu64 " but m = %" PRIu64, g->rowptr[g->n], g->m);
	uint32_t max_w = 0;
	for (uint32_t u = 0; u < g->n; u++)
	{
		uint64_t b = g->rowptr[u], e = g->rowptr[u + 1];
		if (e < b || e > g->m)
			return BAD("row %" PRIu32 " spans %" PRIu64 "..%" PRIu64 " (m = %" PRIu64 ")", u, b, e, g->m);
		uint32_t lo = GRAPH_INF;
		for (uint64_t k = b; k < e; k++)
		{
			uint32_t v = g->col[k];
			if (v >= g->n)
				return BAD("arc %" PRIu32 " -> %" PRIu32 ": target out of range 0..%" PRIu32, u, v, g->n - 1);
			if (v == u)
				return BAD("self-loop on %" PRIu32, u);
			if (k > b && g->col[k - 1] >= v)
				return BAD("row %" PRIu32 " not strictly sorted: %" PRIu32 " then %" PRIu32, u, g->col[k - 1], v);
			if (g->w[k] > GRAPH_MAX_WEIGHT)
				return BAD("arc %" PRIu32 " -> %" PRIu32 ": weight %" PRIu32 " above the maximum %u", u, v,
					   g->w[k], GRAPH_MAX_WEIGHT);
			if (g->w[k] < lo)
				lo = g->w[k];
			if (g->w[k] > max_w)
				max_w = g->w[k];
		}
		if (g->min_out[u] != lo)
			return BAD("min_out[%" PRIu32 "] = %" PRIu32 " but the lightest arc weighs %" PRIu32, u, g->min_out[u],
				   lo);
	}
	if (g->max_w != max_w)
		return BAD("max_w = %" PRIu32 " but the heaviest arc weighs %" PRIu32, g->max_w, max_w);
	return 0;
#undef BAD
}
