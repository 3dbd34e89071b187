/* The SSSP case study's environment variables, read one way (each is in the README's table): a value
 * that is not one the variable takes is refused, with what it takes in the caller's message buffer,
 * and the engine that reads it fails to prepare (tuccompi-apsp exits saying so), as the library's own
 * variables stop tuccompi_init (lib/env.c). The engines' measurement knobs are not read from the
 * environment: they are fields of the engines' knob structs (batch_gpu.h, phast_gpu.h) that bench/ and
 * the tests set. Read per call. C and C++. */
#ifndef TUCCOMPI_SSSP_ENV_H
#define TUCCOMPI_SSSP_ENV_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** The number in variable @p name, from @p lo to @p hi, in *out (@p dflt when the variable is unset or
 *  empty): 0, or -EINVAL with what it takes in @p why. */
static inline int sssp_env_number(const char *name, double dflt, double lo, double hi, double *out, char *why,
				  size_t whylen)
{
	const char *s = getenv(name);
	*out = dflt;
	if (!s || !*s)
		return 0;
	char *end;
	double v = strtod(s, &end);
	if (end == s || *end || !(v >= lo && v <= hi))
	{
		snprintf(why, whylen, "environment variable %s='%s' is not a number from %g to %g; fix or unset it", name, s,
			 lo, hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

/** The index of the variable's value in @p choices (@p n words) in *out (@p dflt when it is unset or
 *  empty): 0, or -EINVAL with the choices in @p why. */
static inline int sssp_env_choice(const char *name, const char *const *choices, int n, int dflt, int *out, char *why,
				  size_t whylen)
{
	const char *s = getenv(name);
	*out = dflt;
	if (!s || !*s)
		return 0;
	for (int i = 0; i < n; i++)
		if (!strcmp(s, choices[i]))
		{
			*out = i;
			return 0;
		}
	int k = snprintf(why, whylen, "environment variable %s='%s' is not one of", name, s);
	for (int i = 0; i < n && k >= 0 && (size_t)k < whylen; i++)
		k += snprintf(why + k, whylen - (size_t)k, "%s %s", i ? (i + 1 == n ? " or" : ",") : "", choices[i]);
	if (k >= 0 && (size_t)k < whylen)
		snprintf(why + k, whylen - (size_t)k, "; fix or unset it");
	return -EINVAL;
}

/** TUCCOMPI_SSSP_KERNELS (paper or fused, default fused): 1 in *fused for the fused kernels, 0 for
 *  the paper's; -EINVAL with the choices in @p why (and the default in *fused). */
static inline int sssp_kernels_fused(int *fused, char *why, size_t whylen)
{
	static const char *const variants[] = { "paper", "fused" };
	return sssp_env_choice("TUCCOMPI_SSSP_KERNELS", variants, 2, 1, fused, why, whylen);
}

#endif
