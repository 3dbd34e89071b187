/* The SSSP case study's environment variables, read one way (each is in the README's table): a value
 * that is not one the variable takes is ignored, with one line on stderr saying what it takes. The
 * engines' measurement knobs are not read from the environment: they are fields of the engines' knob
 * structs (batch_gpu.h, phast_gpu.h) that bench/ and the tests set. Read per call. C and C++. */
#ifndef TUCCOMPI_SSSP_ENV_H
#define TUCCOMPI_SSSP_ENV_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** A number from @p lo to @p hi, or @p dflt when the variable is unset or empty. */
static inline double sssp_env_number(const char *name, double dflt, double lo, double hi)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	char *end;
	double v = strtod(s, &end);
	if (*end || !(v >= lo && v <= hi))
	{
		fprintf(stderr, "sssp: ignoring %s=%s (it takes a number from %g to %g)\n", name, s, lo, hi);
		return dflt;
	}
	return v;
}

/** The index of the variable's value in @p choices (@p n words), or @p dflt when it is unset or empty. */
static inline int sssp_env_choice(const char *name, const char *const *choices, int n, int dflt)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	for (int i = 0; i < n; i++)
		if (!strcmp(s, choices[i]))
			return i;
	fprintf(stderr, "sssp: ignoring %s=%s (it takes", name, s);
	for (int i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? (i + 1 == n ? " or" : ",") : "", choices[i]);
	fprintf(stderr, ")\n");
	return dflt;
}

#endif
