/* Strict numbers of the tools' options: digits only, in a range, a message naming the option.
 *
 * Errors (every helper under cli/): 0, or a negative errno with one line in a struct graph_error
 * (what, where, how to fix); -EINVAL means a bad argument (exit status 2 in the tools). */
#ifndef TUCCOMPI_APSP_CLI_NUMBERS_H
#define TUCCOMPI_APSP_CLI_NUMBERS_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"

/** A bad argument: -EINVAL with its message in @p err (printf-style). */
#define cli_bad_arg(err, ...) graph_set_error(err, -EINVAL, __VA_ARGS__)

/** The @p len characters at @p s as a decimal integer: digits only, at most 20 of them, no
 *  overflow. 0 and *v, else -1. */
int cli_digits(const char *s, size_t len, uint64_t *v);

/** @p s as a decimal integer in [min, max]: digits only (no sign, blank or suffix).
 *  The message names @p opt: "--seed 'x': expected an integer 0..N". */
int cli_parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out, struct graph_error *err);
int cli_parse_u32(const char *opt, const char *s, uint32_t min, uint32_t max, uint32_t *out, struct graph_error *err);
/** A finite decimal number in [min, max]. */
int cli_parse_double(const char *opt, const char *s, double min, double max, double *out, struct graph_error *err);
/** "LO-HI" (or "LO:HI" when @p sep is ':') with min <= LO <= HI <= max. */
int cli_parse_range(const char *opt, const char *s, char sep, uint64_t min, uint64_t max, uint64_t *lo, uint64_t *hi,
		    struct graph_error *err);
/** A byte count: an integer with an optional unit K, M, G or T (powers of 1024, "KiB", "G",
 *  "GB" alike), e.g. 1500000000, 512M, 4G. Zero is refused. */
int cli_parse_bytes(const char *opt, const char *s, uint64_t *out, struct graph_error *err);

#endif
