/* Numbers as text for the large text outputs (the graph writers; tuccompi-apsp's -o table, --matrix
 * CSV and --betweenness CSV):
 * the same bytes as printf's "%" PRIu64, "%.Nf" and "%.Ng" (glibc: the exact binary value, rounded
 * half to even), made with integer arithmetic instead of printf's general path, and whole outputs
 * formatted by several threads at once, in blocks, written in order.
 *
 * The doubles are converted exactly: x = m 2^e (m < 2^53) times a power of ten is an integer of at
 * most 128 bits for the values the outputs hold; a value out of that range (or negative, or not
 * finite) goes through snprintf, so that every value gives printf's bytes. */
#ifndef TUCCOMPI_APSP_NUMTEXT_H
#define TUCCOMPI_APSP_NUMTEXT_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "outfile.h"

/** Longest text of one number below: printf's own is cut there, which only values far beyond those
 *  of the outputs reach (a "%.4f" of 10^35, a "%.17g" is at most 24 characters). */
#define NUMTEXT_MAX 40

/** "%" PRIu64 of @p v at @p p; returns the end (no NUL). */
char *numtext_u64(char *p, uint64_t v);

/** "%.<prec>f" of @p x at @p p (prec 0..9); returns the end (no NUL). */
char *numtext_fixed(char *p, double x, int prec);

/** "%.<prec>g" of @p x at @p p (prec 1..17); returns the end (no NUL). */
char *numtext_g(char *p, double x, int prec);

/** Writes line @p i of an output at @p p (at most the max_line bytes given to numtext_write);
 *  returns the end. Called from several threads at once. */
typedef char *(*numtext_line_func)(char *p, uint64_t i, const void *ctx);

/** Lines 0..@p nlines-1 made by @p line (each at most @p max_line bytes), formatted in blocks by up to
 *  @p nthreads threads (0: the machine's cores, at most 16) and written in order after @p head (may
 *  be NULL): to @p out (outfile_write) or, when @p out is NULL, to standard output. 0, or a negative
 *  errno with the message (the outfile is then aborted, as outfile_write does). */
int numtext_write(struct outfile *out, const char *head, uint64_t nlines, size_t max_line, numtext_line_func line,
		  const void *ctx, unsigned nthreads, struct graph_error *err);

#endif
