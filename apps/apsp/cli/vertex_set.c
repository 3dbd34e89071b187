/* The vertex sets of the tools' --sources and --targets (vertex_set.h). */
#include "vertex_set.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numbers.h"

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
			rc = cli_bad_arg(err, "%s '%s': item %" PRIu64 " is empty; list vertex ids like 0,5,9", opt, spec, k + 1);
			break;
		}
		if (cli_digits(p, len, &v) < 0 || v >= n)
		{
			rc = cli_bad_arg(err, "%s '%s': '%.*s' is not a vertex id 0..%" PRIu32, opt, spec, (int)(len > 40 ? 40 : len), p,
				   n - 1);
			break;
		}
		if (seen[v / 8] & (1u << (v % 8)))
		{
			rc = cli_bad_arg(err, "%s '%s': vertex %" PRIu64 " is listed twice; list each %s once", opt, spec, v, noun);
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
			if (len && (len >= sizeof tok || cli_digits(tok, len, &v) < 0 || v >= n))
				rc = cli_bad_arg(err, "%s %s:%" PRIu64 ": '%.*s' is not a vertex id 0..%" PRIu32, opt, spec, line,
					   (int)(len < sizeof tok ? len : sizeof tok), tok, n - 1);
			else if (len && (seen[v / 8] & (1u << (v % 8))))
				rc = cli_bad_arg(err, "%s %s:%" PRIu64 ": vertex %" PRIu64 " is listed twice; list each %s once",
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
		rc = cli_bad_arg(err, "%s %s: no vertex id in the file; write ids from 0, one a line or separated by blanks or "
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
		return cli_bad_arg(err, "%s '': empty; use all, first:N, random:N, A-B or a,b,c", opt);
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
			return cli_bad_arg(err, "%s '%s': want random:K with 1 <= K <= %" PRIu32 " (the vertex count)", opt, spec, n);
	}
	else if (strchr(spec, '-'))
	{
		if (cli_parse_range("A-B", spec, '-', 0, n - 1, &lo, &hi, &why) < 0)
			return cli_bad_arg(err, "%s '%s': want A-B with 0 <= A <= B < %" PRIu32 " (vertex ids count from 0)", opt, spec, n);
		v = hi - lo + 1;
	}
	else if (first || cli_digits(spec, strlen(spec), &v) == 0)
	{
		/* "N" is "first:N": the first N vertices, not vertex N */
		if (first && cli_digits(spec + 6, strlen(spec + 6), &v) < 0)
			return cli_bad_arg(err, "%s '%s': want first:N, N an integer 1..%" PRIu32, opt, spec, n);
		if (v == 0 || v > n)
			return cli_bad_arg(err, "%s '%s': want 1 to %" PRIu32 " %ss (%s means the first N vertices, 0..N-1; "
				     "one vertex V alone is V-V)", opt, spec, n, noun, first ? "first:N" : "N");
		hi = v - 1;
	}
	else
		return cli_bad_arg(err, "%s '%s': use all, first:N, random:N, A-B or a,b,c (vertex ids count from 0)", opt, spec);
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
