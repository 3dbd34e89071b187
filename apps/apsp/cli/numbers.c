/* Strict numbers of the tools' options (numbers.h). */
#include "numbers.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Digits only, at most 20 of them, no overflow: 0 and *v, else -1. */
int cli_digits(const char *s, size_t len, uint64_t *v)
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
	if (!s || cli_digits(s, strlen(s), &v) < 0 || v < min || v > max)
		return cli_bad_arg(err, "%s '%s': expected an integer %" PRIu64 "..%" PRIu64, opt, s ? s : "", min, max);
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
		return cli_bad_arg(err, "%s '%s': expected a number %g..%g", opt, s ? s : "", min, max);
	*out = v;
	return 0;
}

int cli_parse_range(const char *opt, const char *s, char sep, uint64_t min, uint64_t max, uint64_t *lo, uint64_t *hi,
		    struct graph_error *err)
{
	const char *mid = s ? strchr(s, sep) : NULL;
	uint64_t a, b;
	if (!mid || cli_digits(s, (size_t)(mid - s), &a) < 0 || cli_digits(mid + 1, strlen(mid + 1), &b) < 0 || a < min ||
	    b > max)
		return cli_bad_arg(err, "%s '%s': expected LO%cHI, integers %" PRIu64 "..%" PRIu64, opt, s ? s : "", sep, min, max);
	if (a > b)
		return cli_bad_arg(err, "%s '%s': LO is above HI", opt, s);
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
			return cli_bad_arg(err, "%s '%s': unknown unit '%s'; write bytes (1500000000) or use K, M, G or T (512M, 4G)", opt,
				     s, u);
		for (long i = 0; i <= k - units; i++)
			mult *= 1024;
	}
	if (cli_digits(s ? s : "", len, &v) < 0 || (mult > 1 && v > UINT64_MAX / mult))
		return cli_bad_arg(err, "%s '%s': expected a byte count such as 1500000000, 512M or 4G", opt, s ? s : "");
	if (v == 0)
		return cli_bad_arg(err, "%s '%s': the limit must be above 0", opt, s);
	*out = v * mult;
	return 0;
}
