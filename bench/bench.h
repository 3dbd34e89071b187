/* What the benchmark programs share, written once (as GAPBS's benchmark.h): the clock
 * (tuccompi_wtime), one way to fail (bench_die: "PROGRAM: what" on stderr, exit 2), numbers and knobs
 * from the command line, a graph from a file or a generator spec (the tools' own syntax,
 * apps/apsp/cli.h), random draws, and a CUDA call check. Header-only, for C, C++ and CUDA; set
 * bench_name first thing in main. */
#ifndef TUCCOMPI_BENCH_H
#define TUCCOMPI_BENCH_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "cli.h"
#include "graph.h"
#ifdef __cplusplus
}
#endif

/* The program's name in its messages. */
static const char *bench_name = "bench";

/* One line "PROGRAM: what" on stderr, exit status 2 (bad usage or a failed step). */
__attribute__((noreturn, format(printf, 1, 2))) static inline void bench_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: ", bench_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

/* Seconds on the library's monotonic clock. */
static inline double bench_now(void)
{
	return tuccompi_wtime();
}

/* The value of option @p opt: an integer from @p lo to @p hi, or bench_die. */
static inline uint64_t bench_uint(const char *opt, const char *s, uint64_t lo, uint64_t hi)
{
	struct graph_error err;
	uint64_t v;
	if (cli_parse_u64(opt, s, lo, hi, &v, &err) < 0)
		bench_die("%s", err.msg);
	return v;
}

/* A graph from @p file (any format graph_read takes) or else the generator spec @p gen (random:N,
 * rmat:SCALE, grid:RxC, road:N with their options: cli_gen_help), deterministic for @p seed. */
static inline void bench_load(const char *file, const char *gen, uint64_t seed, struct graph *g)
{
	struct graph_error err;
	memset(&err, 0, sizeof(err));
	if (file)
	{
		if (graph_read(file, NULL, g, &err) < 0)
			bench_die("%s", err.msg);
		return;
	}
	struct cli_gen spec;
	if (cli_gen_parse("--gen", gen, &spec, &err) < 0 || cli_gen_run(&spec, seed, g, &err) < 0)
		bench_die("%s", err.msg);
}

/* An engine knob that --knob NAME=VALUE sets (a field of the engine's knob struct). */
struct bench_knob
{
	const char *name;
	uint32_t *value;
};

/* Set the knobs of @p spec, "NAME=VALUE[,NAME=VALUE...]", from the @p n of @p table. */
static inline void bench_knobs(const struct bench_knob *table, unsigned n, const char *spec)
{
	char buf[256];
	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf))
		bench_die("--knob %s: too long", spec);
	for (char *item = strtok(buf, ","); item; item = strtok(NULL, ","))
	{
		char *eq = strchr(item, '=');
		unsigned k = 0;
		if (eq)
			*eq = '\0';
		while (k < n && strcmp(table[k].name, item))
			k++;
		if (!eq || k == n)
		{
			fprintf(stderr, "%s: --knob %s: expected NAME=VALUE with NAME one of", bench_name, spec);
			for (unsigned i = 0; i < n; i++)
				fprintf(stderr, " %s", table[i].name);
			fputc('\n', stderr);
			exit(2);
		}
		*table[k].value = (uint32_t)bench_uint("--knob", eq + 1, 0, UINT32_MAX);
	}
}

/* The next number of a splitmix64 sequence (sources drawn the same way on every run). */
static inline uint64_t bench_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A CUDA source always has the CUDA check; a C source has it once it includes tuccompi_cuda.h. */
#ifdef __CUDACC__
#include <tuccompi_cuda.h>
#endif
#ifdef TUCCOMPI_CUDA_H
/* A CUDA runtime call that must succeed: the line of TUCCOMPI_CUDA_CHECK (tuccompi_cuda.h), its
 * prefix this place of the source, "FILE:LINE: CALL: CUDA's error string", then bench_die. */
static inline void bench_cuda(cudaError_t e, const char *file, int line, const char *call)
{
	char where[256], why[768];
	snprintf(where, sizeof(where), "%s:%d", file, line);
	if (tuccompi_cuda_error(e, where, call, why, sizeof(why)) < 0)
		bench_die("%s", why);
}
#define BENCH_CUDA(call) bench_cuda((call), __FILE__, __LINE__, #call)
#endif

#endif
