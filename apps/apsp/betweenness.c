/* The --betweenness output of tuccompi-apsp (betweenness.h). .npy: NumPy's format 1.0 (the magic,
 * a little-endian header length, a dict padded to 64 bytes, then the little-endian doubles), which
 * numpy.load() reads as a float64 array of n values; .csv: a header line and one "vertex,value" line
 * per vertex, values with 17 significant digits (they read back to the same doubles). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "betweenness.h"
#include "numtext.h"
#include "outfile.h"

enum format
{
	FMT_NONE,
	FMT_NPY,
	FMT_CSV,
};

static enum format format_of(const char *path)
{
	size_t len = strlen(path);
	if (len > 4 && !strcasecmp(path + len - 4, ".npy"))
		return FMT_NPY;
	if (len > 4 && !strcasecmp(path + len - 4, ".csv"))
		return FMT_CSV;
	return FMT_NONE;
}

int betweenness_check(const char *path, int journal, const char *per_source, struct graph_error *err)
{
	if (format_of(path) == FMT_NONE)
		return graph_set_error(err, -EINVAL, "--betweenness %s: name a .npy (float64) or .csv (vertex,betweenness) file", path);
	if (journal)
		return graph_set_error(err, -EINVAL,
			    "--betweenness %s: a betweenness run cannot be resumed from a journal (the journal holds each "
			    "source's summary, not its share of the sums); drop --journal",
			    path);
	if (per_source)
		return graph_set_error(err, -EINVAL,
			    "--betweenness %s: a betweenness run writes no distance rows, trees or matrices (only the sums "
			    "and the -o table); run %s separately",
			    path, per_source);
	return 0;
}

static void put_le64(unsigned char *p, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(x >> (8 * i));
}

static int write_npy(FILE *f, const struct tuccompi_exact *acc, uint32_t n, double scale)
{
	char dict[128];
	int len = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (%" PRIu32 ",), }", n);
	/* magic (6) + version (2) + length (2) + dict + spaces + '\n': a multiple of 64 */
	int pad = 64 - (10 + len + 1) % 64;
	if (pad == 64)
		pad = 0;
	unsigned char head[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0 };
	uint16_t hlen = (uint16_t)(len + pad + 1);
	head[8] = (unsigned char)(hlen & 0xff);
	head[9] = (unsigned char)(hlen >> 8);
	fwrite(head, 1, 10, f);
	fwrite(dict, 1, (size_t)len, f);
	for (int i = 0; i < pad; i++)
		fputc(' ', f);
	fputc('\n', f);
	unsigned char buf[8 * 512];
	for (uint32_t v = 0; v < n;)
	{
		uint32_t k = 0;
		for (; k < 512 && v < n; k++, v++)
		{
			double x = tuccompi_exact_value(&acc[v]) * scale;
			uint64_t bits;
			memcpy(&bits, &x, 8);
			put_le64(buf + 8 * k, bits);
		}
		fwrite(buf, 8, k, f);
	}
	return 0;
}

/* The CSV: "%" PRIu32 ",%.17g\n" a vertex (numtext.h: printf's bytes). */
struct csv
{
	const struct tuccompi_exact *acc;
	double scale;
};

static char *csv_line(char *p, uint64_t v, const void *ctx)
{
	const struct csv *c = ctx;
	p = numtext_u64(p, v);
	*p++ = ',';
	p = numtext_g(p, tuccompi_exact_value(&c->acc[v]) * c->scale, 17);
	*p++ = '\n';
	return p;
}

int betweenness_write(const char *path, const struct tuccompi_exact *acc, uint32_t n, double scale,
		      struct graph_error *err)
{
	enum format fmt = format_of(path);
	struct outfile out;
	FILE *f;
	if (outfile_open(&out, path, err) < 0)
		return -EIO;
	if (fmt == FMT_CSV)
	{
		struct csv c = { acc, scale };
		if (numtext_write(&out, "vertex,betweenness\n", n, 21 + NUMTEXT_MAX + 2, csv_line, &c, 0, err) < 0)
			return -EIO; /* aborted */
	}
	else if ((f = outfile_stream(&out, err)))
		write_npy(f, acc, n, scale);
	else
	{
		outfile_abort(&out);
		return -EIO;
	}
	return outfile_commit(&out, err) < 0 ? -EIO : 0;
}
