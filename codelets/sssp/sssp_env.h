/* The SSSP engines' knobs for measurements (TUCCOMPI_SSSP_BATCH_*, TUCCOMPI_PHAST_*): an unsigned
 * decimal from the environment, or @p dflt when the variable is unset, empty or not a number.
 * Read per call, so that a test may change them between calls. */
#ifndef TUCCOMPI_SSSP_ENV_H
#define TUCCOMPI_SSSP_ENV_H

#include <stdlib.h>

static inline unsigned long sssp_env_ulong(const char *name, unsigned long dflt)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	return *end ? dflt : v;
}

#endif
