/* tuccompi-apsp's own pieces, shared by its files: the options (apsp_options.c: the table of
 * every option, --help, the checks before any work), what a run holds (tuccompi-apsp.c: load,
 * plan, run) and its outputs (apsp_outputs.c). */
#ifndef TUCCOMPI_APSP_APSP_H
#define TUCCOMPI_APSP_APSP_H

#include <pthread.h>
#include <stdint.h>
#include <tuccompi.h>

#include "cli/graphs.h"
#include "graph.h"
#include "rows.h"
#include "sssp.h"

#define PROG "tuccompi-apsp"

struct options
{
	const char *graph, *cache, *sources, *policy, *units, *tune, *trace, *out, *rows, *stats, *ch_cache, *journal;
	const char *betweenness, *targets, *matrix, *pred;
	const char *gen_spec; /* --gen as given */
	struct cli_gen gen;
	enum graph_format format;
	enum sssp_engine engine;
	uint64_t seed, max_memory;
	uint32_t delta;
	int ncpu, ngpu, quiet, verify, summary, demo, automk, mk, mk_given, resume, undirected;
	double real_scale;
	int real_round; /* --mtx-real-scale given: round real weights (with a warning) */
};

struct progress
{
	_Atomic uint64_t done;
	uint64_t total;
	double t0;
	int stop;
	pthread_t th;
};

/* Everything a run holds, from the graph to the finished task set. */
struct run
{
	const struct tuccompi_policy *policy;
	struct graph g;
	struct graph_read_info read_info; /* real weights rounded (said once the ranks are known) */
	struct sssp_graph view;
	double load_s, wall_s;
	uint32_t *src, *tgt; /* the sources; the targets (--targets) */
	uint64_t k, nt;
	struct sssp_plan *plan;
	struct sssp_args args;
	struct rows_file rows, pred;
	unsigned char *res; /* rank 0: k results of rsize bytes (summary, then the target columns) */
	int res_pinned;     /* res is registered with CUDA (tuccompi_memory_pin) */
	size_t rsize;
	struct tuccompi_exact *bc; /* --betweenness: the sums (rank 0) */
	struct tuccompi_taskset_desc desc;
	tuccompi_taskset_t ts;
	struct progress prog;
};

/** Whether this is rank 0 (where the results and the outputs are). */
static inline int apsp_rank0(void)
{
	return tuccompi_rank() == 0;
}

/** Result @p i on rank 0: its summary (the target columns follow it). */
static inline const struct sssp_summary *apsp_summary(const struct run *r, uint64_t i)
{
	return (const struct sssp_summary *)(r->res + i * r->rsize);
}

/** One line "tuccompi-apsp: ..." on stderr; temporary files removed; every rank ends (under
 *  mpirun, MPI_Abort) with exit status @p code. The tool's one way to fail. */
void apsp_die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/** A helper's error (struct graph_error): exit status 2 for a bad argument (-EINVAL), 1 otherwise. */
void apsp_die_err(int rc, const struct graph_error *err) __attribute__((noreturn));

/** The options of argv into @p o, checked as far as they can be without the runtime (exit 2 on
 *  a bad one; --help and --version print and exit 0). */
void apsp_parse_args(int argc, char **argv, struct options *o);
/** Before any work, on every rank: each output can be created, and none is an input or another
 *  output. */
void apsp_check_outputs(const struct options *o);
/** Collective: the outputs once the run is over. The exit status: 0, 1 when a distance
 *  overflowed (nothing written), 3 when --verify differs. */
int apsp_write_outputs(const struct options *o, struct run *r);

#endif
