/* The distance matrix of tuccompi-apsp (see matrix.h). */
#include "matrix.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

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

static void write_text(FILE *f, char sep, const uint32_t *src, uint64_t k, const uint32_t *tgt, uint32_t nt,
		       const void *results, size_t result_size)
{
	fputs("source", f);
	for (uint32_t j = 0; j < nt; j++)
		fprintf(f, "%c%" PRIu32, sep, tgt[j]);
	fputc('\n', f);
	for (uint64_t i = 0; i < k; i++)
	{
		const uint32_t *c = cols_of(results, result_size, i);
		fprintf(f, "%" PRIu32, src[i]);
		for (uint32_t j = 0; j < nt; j++)
			if (c[j] == SSSP_INF)
				fprintf(f, "%cinf", sep);
			else
				fprintf(f, "%c%" PRIu32, sep, c[j]);
		fputc('\n', f);
	}
}

int matrix_write(const char *path, const uint32_t *src, uint64_t k, const uint32_t *tgt, uint32_t nt,
		 const void *results, size_t result_size, struct graph_error *err)
{
	struct outfile out;
	FILE *f;
	int rc = outfile_open(&out, path, err);
	if (rc < 0)
		return rc;
	if (!(f = outfile_stream(&out, err)))
	{
		outfile_abort(&out);
		return -EIO;
	}
	if (has_suffix(path, ".npy"))
		write_npy(f, k, nt, results, result_size);
	else
		write_text(f, has_suffix(path, ".tsv") ? '\t' : ',', src, k, tgt, nt, results, result_size);
	return outfile_commit(&out, err); /* the stream's errors are found here; the file is then removed */
}
