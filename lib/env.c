/* The library's TUCCOMPI_* environment variables, read one way. A value a variable does not take is
 * an error that names the variable, the value and what it takes: tuccompi_init() checks every
 * variable of the library before it starts anything (_tuccompi_env_check), so a typo stops the run
 * at once instead of being ignored with a warning line that scrolls away, or read as something else
 * (TUCCOMPI_END_LOG=false turned the log on; TUCCOMPI_MS_ADAPT_RATE=fast read as 0, "always").
 * The readers below then parse the same way; a value they cannot parse (only possible when the
 * environment changed after tuccompi_init) gives the default. The README's environment table says
 * what each variable takes; tests/core/errors checks each refusal. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "taskset.h"
#include <tuccompi_tune.h>

static const char *env_value(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

int _tuccompi_env_flag_parse(const char *s)
{
	static const char *const on[] = { "1", "yes", "on", "true" }, *const off[] = { "0", "no", "off", "false" };
	for (unsigned i = 0; i < sizeof(on) / sizeof(on[0]); i++)
	{
		if (!strcasecmp(s, on[i]))
			return 1;
		if (!strcasecmp(s, off[i]))
			return 0;
	}
	return -1;
}

int _tuccompi_env_flag(const char *name, int dflt)
{
	const char *v = env_value(name);
	int f = v ? _tuccompi_env_flag_parse(v) : -1;
	return f < 0 ? dflt : f;
}

int _tuccompi_env_number(const char *name, double dflt, double lo, double hi, double *out)
{
	const char *v = env_value(name);
	*out = dflt;
	if (!v)
		return 0;
	char *end;
	errno = 0;
	double x = strtod(v, &end);
	while (end != v && isspace((unsigned char)*end))
		end++;
	if (end == v || *end || errno || !isfinite(x) || x < lo || x > hi)
		return _tuccompi_error(-EINVAL, "environment variable %s='%s' is not a number from %g to %g; fix or unset it",
				       name, v, lo, hi);
	*out = x;
	return 0;
}

int _tuccompi_env_int(const char *name, int min, int max, int *out)
{
	const char *v = env_value(name);
	if (!v)
		return 0;
	char *end;
	long x = strtol(v, &end, 10);
	if (*end || x < min || x > max)
		return _tuccompi_error(-EINVAL, "environment variable %s='%s' is not an integer in [%d, %d]; fix or unset it",
				       name, v, min, max);
	*out = (int)x;
	return 1;
}

int _tuccompi_env_retries(unsigned *per_unit, unsigned *per_set)
{
	int u = 2, s = 16, ret; /* the defaults the README gives */
	if ((ret = _tuccompi_env_int("TUCCOMPI_RETRIES_UNIT", 0, 1000000, &u)) >= 0)
		ret = _tuccompi_env_int("TUCCOMPI_RETRIES_SET", 0, 1000000, &s);
	*per_unit = (unsigned)u; /* the default where a value is refused */
	*per_set = (unsigned)s;
	return ret < 0 ? ret : 0;
}

/* The on/off variables of the library (the TUCCOMPI_SIM_* ones are read by the simulated build only). */
static const char *const flags[] = { "TUCCOMPI_VERBOSE",    "TUCCOMPI_NODE_SPLIT", "TUCCOMPI_END_LOG",
				     "TUCCOMPI_SIM_COMPUTE", "TUCCOMPI_SIM_NO_GPU", "TUCCOMPI_SIM_NOGPU_ODD" };

int _tuccompi_env_check(void)
{
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
	{
		const char *v = env_value(flags[i]);
		if (v && _tuccompi_env_flag_parse(v) < 0)
			return _tuccompi_error(-EINVAL,
					       "environment variable %s='%s' is not on or off: write 1 (or yes, on, true) or 0 "
					       "(or no, off, false), or unset it",
					       flags[i], v);
	}
	double x;
	int ret;
	if ((ret = _tuccompi_env_number("TUCCOMPI_PEER_TIMEOUT", 0, 0, 1e9, &x)) < 0 ||
	    (ret = _tuccompi_env_number("TUCCOMPI_MS_ADAPT_RATE", 0, 0, 1e12, &x)) < 0 ||
	    (ret = _tuccompi_env_number("TUCCOMPI_MS_FACTOR", 0, 0, 1e6, &x)) < 0 ||
	    (ret = _tuccompi_env_number("TUCCOMPI_MS_GROUP", 0, 0, 1e6, &x)) < 0 ||
	    (ret = _tuccompi_env_number("TUCCOMPI_SIM_GPU_BATCH", 0, 1, TUCCOMPI_MAX_BATCH, &x)) < 0)
		return ret;
	const char *tune = env_value("TUCCOMPI_TUNE");
	enum tuccompi_tune_mode m;
	if (tune && tuccompi_tune_mode_parse(tune, &m) < 0)
		return _tuccompi_error(-EINVAL, "environment variable TUCCOMPI_TUNE='%s' is not a tuning mode: write rules, "
						"empirical or cuda, or unset it",
				       tune);
	size_t bytes;
	if ((ret = tuccompi_pin_results_min(&bytes)) < 0 || (ret = _tuccompi_pin_shared_min(&bytes)) < 0)
		return ret;
	unsigned per_unit, per_set;
	if ((ret = _tuccompi_env_retries(&per_unit, &per_set)) < 0)
		return ret;
	struct _tuccompi_inject in;
	return _tuccompi_inject_parse(env_value("TUCCOMPI_FAULT_INJECT"), &in);
}
