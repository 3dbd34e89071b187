/* The --betweenness and --edge-betweenness outputs of tuccompi-apsp (betweenness.h). .npy: NumPy's
 * format 1.0 (the magic, a little-endian header length, a dict padded to 64 bytes, then the
 * little-endian doubles), which numpy.load() reads as a float64 array of n (or m) values; .csv: a
 * header line and one "vertex,value" (or "u,v,value") line per vertex (arc, edge), values with 17
 * significant digits (they read back to the same doubles). */
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

/* One path's checks (@p opt: the option's name, @p cols: its CSV's columns). */
static int check_one(const char *opt, const char *cols, const char *path, int journal, const char *per_source,
		     struct graph_error *err)
{
	if (format_of(path) == FMT_NONE)
		return graph_set_error(err, -EINVAL, "%s %s: name a .npy (float64) or .csv (%s) file", opt, path, cols);
	if (journal)
		return graph_set_error(err, -EINVAL,
			    "%s %s: a betweenness run cannot be resumed from a journal (the journal holds each "
			    "source's summary, not its share of the sums); drop --journal",
			    opt, path);
	if (per_source)
		return graph_set_error(err, -EINVAL,
			    "%s %s: a betweenness run writes no distance rows, trees or matrices (only the sums "
			    "and the -o table); run %s separately",
			    opt, path, per_source);
	return 0;
}

int betweenness_check(const char *vpath, const char *epath, int journal, const char *per_source,
		      struct graph_error *err)
{
	int rc = vpath ? check_one("--betweenness", "vertex,betweenness", vpath, journal, per_source, err) : 0;
	if (rc == 0 && epath)
		rc = check_one("--edge-betweenness", "u,v,betweenness", epath, journal, per_source, err);
	return rc;
}

static void put_le64(unsigned char *p, uint64_t x)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(x >> (8 * i));
}

/* What is written: value(i) of the k values, i < k. */
struct values
{
	const struct tuccompi_exact *acc; /* the vertices', or the arcs' */
	const struct graph *g;            /* for the arcs: their reverses */
	int undirected, arcs;
};

/* Value i: a vertex's sum, or arc i's of tail u (undirected: the exact sum of both arcs of its edge,
 * halved); halving is exact. */
static double value_of(const struct values *x, uint64_t i, uint32_t u)
{
	struct tuccompi_exact s = x->acc[i];
	int64_t r = x->arcs && x->undirected ? graph_find_arc(x->g, x->g->col[i], u) : -1;
	if (r >= 0)
		tuccompi_exact_combine(&s, &x->acc[r]);
	return tuccompi_exact_value(&s) * (x->undirected ? 0.5 : 1.0);
}

static void write_npy(FILE *f, const struct values *x, uint64_t k)
{
	char dict[128];
	int len = snprintf(dict, sizeof dict, "{'descr': '<f8', 'fortran_order': False, 'shape': (%" PRIu64 ",), }", k);
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
	uint32_t u = 0;
	for (uint64_t i = 0; i < k;)
	{
		uint32_t c = 0;
		for (; c < 512 && i < k; c++, i++)
		{
			while (x->arcs && i >= x->g->rowptr[u + 1])
				u++;
			double v = value_of(x, i, u);
			uint64_t bits;
			memcpy(&bits, &v, 8);
			put_le64(buf + 8 * c, bits);
		}
		fwrite(buf, 8, c, f);
	}
}

static void write_csv(FILE *f, const struct values *x)
{
	if (!x->arcs)
	{
		fputs("vertex,betweenness\n", f);
		for (uint32_t v = 0; v < x->g->n; v++)
			fprintf(f, "%" PRIu32 ",%.17g\n", v, value_of(x, v, 0));
		return;
	}
	fputs("u,v,betweenness\n", f);
	for (uint32_t u = 0; u < x->g->n; u++)
		for (uint64_t a = x->g->rowptr[u]; a < x->g->rowptr[u + 1]; a++)
			if (!x->undirected || u < x->g->col[a])
				fprintf(f, "%" PRIu32 ",%" PRIu32 ",%.17g\n", u, x->g->col[a], value_of(x, a, u));
}

static int write_one(const char *opt, const char *path, const struct values *x, struct graph_error *err)
{
	struct outfile out;
	FILE *f;
	struct graph_error e;
	if (outfile_open(&out, path, &e) < 0 || !(f = outfile_stream(&out, &e)))
		return graph_set_error(err, -EIO, "%s %s", opt, e.msg);
	if (format_of(path) == FMT_NPY)
		write_npy(f, x, x->arcs ? x->g->m : x->g->n);
	else
		write_csv(f, x);
	if (outfile_commit(&out, &e) < 0)
		return graph_set_error(err, -EIO, "%s %s", opt, e.msg);
	return 0;
}

int betweenness_write(const char *vpath, const char *epath, const struct tuccompi_exact *acc, const struct graph *g,
		      int undirected, struct graph_error *err)
{
	const struct values vx = { acc, g, undirected, 0 }, ex = { acc + g->n, g, undirected, 1 };
	int rc = vpath ? write_one("--betweenness", vpath, &vx, err) : 0;
	return rc == 0 && epath ? write_one("--edge-betweenness", epath, &ex, err) : rc;
}
