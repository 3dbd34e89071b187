/* The distance matrix of tuccompi-apsp (see matrix.h). */
#include "matrix.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "numtext.h"
#include "outfile.h"
#include "rows.h" /* the .npy preamble */
#include "sssp_types.h"

/* Distances converted per fwrite of a .npy row (64 KiB on the stack). */
#define CHUNK 8192

static int has_suffix(const char *path, const char *sfx)
{
	size_t len = strlen(path), sl = strlen(sfx);
	return len > sl && !strcasecmp(path + len - sl, sfx);
}

int matrix_check_name(const char *path, struct graph_error *err)
{
	if (has_suffix(path, ".npy") || has_suffix(path, ".csv") || has_suffix(path, ".tsv"))
		return 0;
	return graph_set_error(err, -EINVAL,
			       "--matrix %s: the name says the format: FILE.npy (numpy, float64), FILE.csv or FILE.tsv (text, "
			       "'inf' where unreachable)", path);
}

static const uint32_t *cols_of(const void *results, size_t result_size, uint64_t i)
{
	return (const uint32_t *)((const char *)results + i * result_size + sizeof(struct sssp_summary));
}

static void write_npy(FILE *f, uint64_t k, uint32_t nt, const void *results, size_t result_size)
{
	unsigned char pre[NPY_PREAMBLE];
	double buf[CHUNK];
	rows_npy_preamble(pre, k, nt, ROWS_DIST);
	fwrite(pre, 1, sizeof pre, f);
	for (uint64_t i = 0; i < k; i++)
	{
		const uint32_t *c = cols_of(results, result_size, i);
		for (uint32_t j = 0; j < nt; j += CHUNK)
		{
			uint32_t len = nt - j < CHUNK ? nt - j : CHUNK;
			for (uint32_t x = 0; x < len; x++)
				buf[x] = c[j + x] == SSSP_INF ? INFINITY : (double)c[j + x];
			fwrite(buf, sizeof(double), len, f);
		}
	}
}

/* The text matrix: the header line, then a line per source (numtext.h: printf's bytes). */
struct text
{
	char sep;
	const uint32_t *src, *tgt;
	uint32_t nt;
	const void *results;
	size_t result_size;
};

/* A line of ids or distances: @p first, then the @p nt values of @p v, "inf" for SSSP_INF. */
static char *text_line_of(char *p, const struct text *t, const char *first, uint32_t id, const uint32_t *v)
{
	if (first)
		p = stpcpy(p, first);
	else
		p = numtext_u64(p, id);
	for (uint32_t j = 0; j < t->nt; j++)
	{
		*p++ = t->sep;
		if (v[j] == SSSP_INF)
			p = stpcpy(p, "inf");
		else
			p = numtext_u64(p, v[j]);
	}
	*p++ = '\n';
	return p;
}

static char *text_line(char *p, uint64_t i, const void *ctx)
{
	const struct text *t = ctx;
	return text_line_of(p, t, NULL, t->src[i], cols_of(t->results, t->result_size, i));
}

static int write_text(struct outfile *out, const struct text *t, uint64_t k, struct graph_error *err)
{
	size_t line_max = 11 * ((size_t)t->nt + 1) + 1;
	char *head = malloc(line_max + 1);
	if (!head)
	{
		outfile_abort(out);
		return graph_set_error(err, -ENOMEM, "%s: out of memory for a line of %" PRIu32 " targets", out->path, t->nt);
	}
	*text_line_of(head, t, "source", 0, t->tgt) = '\0';
	int rc = numtext_write(out, head, k, line_max, text_line, t, 0, err);
	free(head);
	return rc;
}

int matrix_write(const char *path, const uint32_t *src, uint64_t k, const uint32_t *tgt, uint32_t nt,
		 const void *results, size_t result_size, struct graph_error *err)
{
	struct outfile out;
	FILE *f;
	int rc = outfile_open(&out, path, err);
	if (rc < 0)
		return rc;
	if (!has_suffix(path, ".npy"))
	{
		struct text t = { has_suffix(path, ".tsv") ? '\t' : ',', src, tgt, nt, results, result_size };
		if ((rc = write_text(&out, &t, k, err)) < 0)
			return rc; /* aborted */
	}
	else if ((f = outfile_stream(&out, err)))
		write_npy(f, k, nt, results, result_size);
	else
	{
		outfile_abort(&out);
		return -EIO;
	}
	return outfile_commit(&out, err); /* the stream's errors are found here; the file is then removed */
}
