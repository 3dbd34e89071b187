/* apps/apsp/graph/numtext.c against printf: the same bytes for "%" PRIu64, "%.4f", "%.12g" and "%.17g"
 * (the formats of the -o table and the --matrix and --betweenness CSVs) over the values the outputs
 * hold and beyond (random doubles of every scale, exact ties, integers, the fallback's range), and
 * a whole output formatted by several threads equal to one formatted line by line. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "numtext.h"
#include "testutil.h"

#define CHECK(c, ...)              \
	do                         \
	{                          \
		if (!(c))          \
			FAIL(__VA_ARGS__); \
	} while (0)

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint64_t next(void)
{
	uint64_t z = (state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static long checked, bad;

static void check_double(double x)
{
	static const struct
	{
		char kind;
		int prec;
	} forms[] = { { 'f', 4 }, { 'g', 12 }, { 'g', 17 }, { 'f', 0 }, { 'f', 9 }, { 'g', 1 }, { 'g', 6 } };
	for (unsigned k = 0; k < sizeof forms / sizeof forms[0]; k++)
	{
		char want[512], got[NUMTEXT_MAX + 1];
		snprintf(want, sizeof want, forms[k].kind == 'f' ? "%.*f" : "%.*g", forms[k].prec, x);
		if (strlen(want) > NUMTEXT_MAX)
			continue; /* the fallback cuts what no output holds */
		char *end = forms[k].kind == 'f' ? numtext_fixed(got, x, forms[k].prec) : numtext_g(got, x, forms[k].prec);
		*end = '\0';
		checked++;
		if (strcmp(want, got) && bad++ < 10)
			fprintf(stderr, "%%.%d%c of %a (%.17g): printf '%s', numtext '%s'\n", forms[k].prec, forms[k].kind, x, x,
				want, got);
	}
}

/* A line of a test output: "i,<i as %.4f of i/7>,<%.12g of 1/(i+1)>". */
static char *line(char *p, uint64_t i, const void *ctx)
{
	(void)ctx;
	p = numtext_u64(p, i);
	*p++ = ',';
	p = numtext_fixed(p, (double)i / 7, 4);
	*p++ = ',';
	p = numtext_g(p, 1.0 / (double)(i + 1), 12);
	*p++ = '\n';
	return p;
}

int main(void)
{
	/* integers */
	for (int i = 0; i < 200000; i++)
	{
		uint64_t v = i < 1000 ? (uint64_t)i : i == 1000 ? UINT64_MAX : next() >> (next() % 64);
		char want[32], got[32];
		snprintf(want, sizeof want, "%" PRIu64, v);
		*numtext_u64(got, v) = '\0';
		CHECK(!strcmp(want, got), "%%" PRIu64 " of %s: got %s", want, got);
	}
	/* doubles of every scale: random bits, the table's means (sum / count) and harmonic sums */
	for (int i = 0; i < 100000; i++)
	{
		uint64_t bits = next();
		double x;
		memcpy(&x, &bits, sizeof x);
		check_double(x);
		check_double(ldexp((double)(next() >> 11), (int)(next() % 140) - 120));
		check_double((double)(next() >> (next() % 40 + 24)) / (double)((next() >> 40) + 1));
		check_double((double)(next() >> 11) * 0x1p-92 + (double)(next() >> 34) * 0x1p-28);
	}
	/* exact ties of the last printed digit, and values next to them */
	for (int i = 0; i < 100000; i++)
	{
		double x = ldexp((double)(2 * (next() % 1000000) + 1), -(int)(next() % 12 + 1));
		check_double(x);
		check_double(nextafter(x, 0));
		check_double(nextafter(x, INFINITY));
	}
	for (double x = 0.5; x < 2e4; x += 0.25)
		check_double(x);
	static const double special[] = { 0.0, -0.0, 1.0, 0.5, 2.5, 1e-5, 9.99999999999995e-5, 0.00012345, 999999999999.5,
					  1e12, 9.9999999999995, 99999.99995, 0.03125, 1e18, 1e300, 5e-324, 2.2250738585072014e-308,
					  -1.5, INFINITY, -INFINITY, NAN, 4294967295.0, 123456789012345678.0 };
	for (unsigned i = 0; i < sizeof special / sizeof special[0]; i++)
		check_double(special[i]);
	CHECK(bad == 0, "%ld of %ld conversions differ from printf", bad, checked);
	printf("ok: %ld conversions, the same bytes as printf\n", checked);

	/* a whole output in parallel blocks equals it formatted line by line */
	const uint64_t n = 300007;
	char path[] = "/tmp/numtext_test.XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	close(fd);
	struct outfile out;
	struct graph_error err;
	CHECK(outfile_open(&out, path, &err) == 0, "outfile_open: %s", err.msg);
	CHECK(numtext_write(&out, "i,a,b\n", n, 64, line, NULL, 5, &err) == 0, "numtext_write: %s", err.msg);
	CHECK(outfile_commit(&out, &err) == 0, "outfile_commit: %s", err.msg);
	FILE *f = fopen(path, "r");
	CHECK(f != NULL, "reopen");
	char got[256], want[256];
	CHECK(fgets(got, sizeof got, f) && !strcmp(got, "i,a,b\n"), "the head");
	for (uint64_t i = 0; i < n; i++)
	{
		snprintf(want, sizeof want, "%" PRIu64 ",%.4f,%.12g\n", i, (double)i / 7, 1.0 / (double)(i + 1));
		CHECK(fgets(got, sizeof got, f) && !strcmp(got, want), "line %" PRIu64 ": '%s', want '%s'", i, got, want);
	}
	CHECK(fgetc(f) == EOF, "lines after the last");
	fclose(f);
	unlink(path);
	printf("ok: %" PRIu64 " lines formatted in parallel blocks, in order\n", n);
	return 0;
}
