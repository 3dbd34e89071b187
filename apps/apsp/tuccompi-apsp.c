/* tuccompi-apsp: shortest paths from many sources of a large graph, one SSSP task per
 * source, on every CPU core and GPU of every rank (the TuCCompi paper's case study).
 * Run with no arguments for a small demo; --help for everything else.
 *
 * The path of a run (main): parse the options, check every output path, start the runtime,
 * load the graph (its memory checked against the limit first), choose the sources, prepare
 * the SSSP plan and its task set (plan_taskset, the one place that knows the plug-in), run,
 * write the outputs (the rows, trees and matrix only once no distance overflowed). Exit status: 0, 1 for
 * an input, output or run error, 2 for bad arguments, 3 when --verify finds a difference. */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <tuccompi.h>
#include <tuccompi_tune.h>
#include <unistd.h>

#include "apsp.h"
#include "cli/memory.h"
#include "cli/progress.h"
#include "cli/vertex_set.h"
#include "graph_view.h"
#include "outfile.h"

void apsp_die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	outfile_cleanup_now();
	if (tuccompi_nranks() > 1)
		tuccompi_abort(code);
	exit(code);
}

void apsp_die_err(int rc, const struct graph_error *err)
{
	apsp_die(rc == -EINVAL ? 2 : 1, "%s", err->msg);
}

/* ------------------------------------------------------------------ runtime */

/* The stream workers a GPU may have without --mk: each takes a core, so the node's cores less four (the
 * main thread, StarPU-MPI's, and room for CPU workers), and at least half of them: on a 16-core GPU
 * node, PHAST's own MK of 12. A GPU pass alone is latency-bound (each narrow level is a grid barrier and
 * a chain of dependent loads) and only overlapping passes fill the GPU, which is worth more than the CPU
 * workers those cores would hold. */
static int mk_core_cap(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	long cap = n - 4 > n / 2 ? n - 4 : n / 2;
	return cap > 0 ? (int)(cap < TUCCOMPI_MAX_MK ? cap : TUCCOMPI_MAX_MK) : 1;
}

static void start_runtime(const struct options *o, int *argc, char ***argv, struct run *r)
{
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.ncpus = strcmp(o->units, "gpu") ? o->ncpu : 0;
	conf.ncuda = strcmp(o->units, "cpu") ? o->ngpu : 0;
	conf.trace_dir = o->trace;
	conf.quiet = o->quiet;
	conf.mk = o->mk;
	/* --mk auto measures MK 1, 2, 4, 8 and 12 where the node's cores allow 12 stream workers */
	int cap = mk_core_cap();
	conf.mk_max = o->automk ? (cap < 8 ? 8 : cap > 12 ? 12 : cap) : o->mk;
	int ret = tuccompi_init(argc, argv, &conf);
	/* Without CPU workers, "no worker" means no GPU: say so rather than the library's
	 * general advice about StarPU's variables. */
	if ((ret == -ENODEV && !strcmp(o->units, "gpu")) ||
	    (ret == 0 && !strcmp(o->units, "gpu") && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0))
		apsp_die(1, "--units gpu: no GPU found (CUDA devices: 0); use --units cpu or all");
	if (ret < 0)
		apsp_die(1, "%s", tuccompi_last_error());
	if (!(r->policy = tuccompi_policy_by_name(o->policy)))
		apsp_die(2, "--policy: %s", tuccompi_last_error());
}

/* ------------------------------------------------------------------ graph and sources */

static void load_graph(const struct options *o, struct run *r)
{
	struct graph_error err = { "" };
	const char *what;
	uint64_t limit = cli_memory_limit(o->max_memory, &what);
	double t0 = tuccompi_wtime();
	int rc;
	if (o->graph)
	{
		if (!strcmp(o->graph, "-") && tuccompi_nranks() > 1)
			apsp_die(2, "GRAPH '-': standard input reaches rank 0 only; give every rank a file");
		struct graph_read_options ro = { .format = o->format, .real_scale = o->real_scale, .real_round = o->real_round,
						 .real_scale_what = "--mtx-real-scale", .info = &r->read_info, .max_bytes = limit,
						 .max_bytes_what = what };
		rc = o->cache ? graph_read_cached(o->graph, o->cache, &ro, &r->g, &err) : graph_read(o->graph, &ro, &r->g, &err);
		if (rc < 0)
			apsp_die(1, "%s", err.msg);
		if (err.msg[0]) /* a cache that could not be written: the run goes on without */
			fprintf(stderr, PROG ": warning: %s; the run goes on without it\n",
				err.msg + (strncmp(err.msg, "note: ", 6) ? 0 : 6));
	}
	else if ((rc = cli_gen_run(&o->gen, o->seed, &r->g, &err)) < 0)
		apsp_die(rc == -EINVAL ? 2 : 1, "--gen %s: %s", o->gen_spec, err.msg);
	if (o->undirected)
	{
		/* the available memory is measured with the graph in it: then only the new CSR counts */
		uint64_t more = graph_undirected_bytes(&r->g), need = o->max_memory ? graph_bytes(&r->g) + more : more;
		limit = cli_memory_limit(o->max_memory, &what);
		if (limit && need > limit)
			apsp_die(1, "--undirected: the graph with both directions of every arc needs about %" PRIu64 " bytes%s, more "
			       "than the limit of %" PRIu64 " (%s); use a smaller graph",
			    need, o->max_memory ? "" : " more", limit, what);
		if (graph_make_undirected(&r->g, &err) < 0)
			apsp_die(1, "--undirected: %s", err.msg);
	}
	r->load_s = tuccompi_wtime() - t0;
	r->view = apsp_graph_view(&r->g);
}

static void choose_sources(const struct options *o, struct run *r)
{
	struct graph_error err;
	int rc = cli_sources(o->sources ? o->sources : o->demo ? "random:256" : NULL, r->g.n, o->seed, &r->src, &r->k, &err);
	if (rc < 0)
		apsp_die_err(rc, &err);
	/* random targets: other draws than random sources of the same seed */
	if (o->targets &&
	    (rc = cli_vertex_set("--targets", "target", o->targets, r->g.n, o->seed ^ 0x7a26e7a26eULL, &r->tgt, &r->nt, &err)) < 0)
		apsp_die_err(rc, &err);
	if (o->pred && r->g.n > INT32_MAX)
		apsp_die(1, "--pred: the graph has %" PRIu32 " vertices; the trees' int32 ids hold at most %d", r->g.n, INT32_MAX);
	r->args.targets = r->tgt;
	r->args.ntargets = (uint32_t)r->nt;
	r->rsize = sssp_result_size(&r->args);
}

/* Once the ranks are known: what was loaded (rank 0), and room for the results. */
static void announce(const struct options *o, struct run *r)
{
	if (apsp_rank0())
		cli_warn_rounding(stderr, PROG, o->graph ? o->graph : "", &r->read_info, o->real_scale, "--mtx-real-scale");
	if (apsp_rank0() && !o->quiet)
	{
		fprintf(stderr, "graph: %" PRIu32 " vertices, %" PRIu64 " arcs%s, weights up to %" PRIu32 " (%.2f s to %s)\n",
			r->g.n, r->g.m, o->undirected ? " (undirected: both directions of each)" : "", r->g.max_w, r->load_s,
			o->graph ? "read" : "generate");
		if (o->demo)
			fprintf(stderr, "demo: %" PRIu64 " sources of a generated random graph (see --help for more)\n", r->k);
		/* "--sources 17" surprised users who meant vertex 17 */
		if (o->sources && *o->sources && o->sources[strspn(o->sources, "0123456789")] == '\0')
			fprintf(stderr, "sources: the first %" PRIu64 " vertices, 0..%" PRIu64 " (vertex %s alone is --sources %s-%s)\n",
				r->k, r->k - 1, o->sources, o->sources, o->sources);
	}
	const char *what;
	uint64_t limit = cli_memory_limit(o->max_memory, &what);
	if (apsp_rank0() && r->nt && limit && r->k * r->rsize > limit)
		apsp_die(1, "--matrix: %" PRIu64 " x %" PRIu64 " distances need %" PRIu64 " bytes on rank 0, more than the limit of %" PRIu64
		       " (%s); use fewer sources or targets, or several runs", r->k, r->nt, (uint64_t)(r->k * r->rsize), limit, what);
	/* the tasks write their results from the units' threads: their pages are faulted in here,
	 * on every core at once, not one page at a time on a GPU worker's path (with --matrix, the
	 * results are k x targets distances) */
	if (apsp_rank0() && !(r->res = cli_calloc_touched(r->k, r->rsize, 0)))
		apsp_die(1, "out of memory for %" PRIu64 " results of %zu bytes", r->k, r->rsize);
	/* and large ones (a matrix) registered with CUDA here, before the clock, by the rule the
	 * library would apply inside the set (TUCCOMPI_PIN_RESULTS), so that the GPUs copy the
	 * columns into place by DMA; a bad TUCCOMPI_PIN_RESULTS is reported by the set */
	size_t bytes = (size_t)r->k * r->rsize, min;
	if (apsp_rank0() && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0 && tuccompi_pin_results_min(&min) == 0 && min &&
	    bytes >= min)
		r->res_pinned = tuccompi_memory_pin(r->res, bytes) > 0;
}

/* ------------------------------------------------------------------ rows file */

/* Collective (rows.h); every rank ends on an error. */
static void rows_open(struct rows_file *rf, enum rows_kind kind, const char *path, const struct run *r,
		      const struct options *o)
{
	struct graph_error err;
	/* a journaled run's partial rows carry the graph's key, so that --resume knows them */
	uint64_t key = o->journal ? sssp_graph_hash(&r->view) | 1 : 0;
	if (rows_file_open(rf, kind, path, r->g.n, r->src, r->k, o->journal != NULL, key, o->resume, &err) < 0)
		apsp_die(1, "%s", err.msg);
}

static int write_pred(uint64_t id, uint32_t source, const int32_t *pred, uint32_t n, void *ctx)
{
	return rows_file_write_pred(id, source, pred, n, ctx);
}

static int write_row(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx)
{
	return rows_file_write(id, source, dist, n, ctx);
}

/* ------------------------------------------------------------------ the task set */

static void on_done(uint64_t id, const void *result, void *arg)
{
	(void)id;
	(void)result;
	struct progress *p = arg;
	p->done++;
}

/* MK, decided once with the GPU's memory (sssp_plan_fit_gpu): --mk, or the engine's own (at most
 * the default --mk), lowered until the graph and MK workspaces fit in the GPU; the CPU units alone
 * (with a warning) if even one does not. (--mk auto then measures, run_taskset.) */
static void fit_gpu_memory(const struct options *o, struct run *r)
{
	uint64_t total = 0;
	if (!sssp_plan_uses_cuda(r->plan) || tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0)
		return;
	if (tuccompi_unit_memory(TUCCOMPI_UNIT_CUDA, &total, NULL) < 0)
		total = 0; /* unknown: not limited */
	struct sssp_gpu_fit fit;
	int asked = o->mk_given ? o->mk : 0;
	/* StarPU and CUDA keep some of the GPU's memory for themselves */
	if (sssp_plan_fit_gpu(r->plan, asked, o->mk, total / 10 * 9, o->rows || o->pred, &fit) < 0)
	{
		if (fit.why[0])
			apsp_die(1, "%s", fit.why);
		apsp_die(1, "--units gpu: the graph needs %.1f GB of GPU memory and the GPU has %.1f GB; use --units all or cpu",
		    fit.need / 1e9, total / 1e9);
	}
	if (!fit.mk)
	{
		if (apsp_rank0())
			fprintf(stderr, PROG ": warning: the graph needs %.1f GB of GPU memory and the GPU has %.1f GB: running on "
					"the CPU cores only\n", fit.need / 1e9, total / 1e9);
		return;
	}
	if (fit.lowered && apsp_rank0())
		fprintf(stderr, PROG ": warning: MK %d to fit the GPU's memory (%.1f GB of %.1f GB)\n", fit.mk, fit.need / 1e9,
			total / 1e9);
	tuccompi_set_mk(fit.mk);
}

/* The SSSP plug-in's options for this run's graph, sources and outputs. */
static struct sssp_options plan_options(const struct options *o, const struct run *r)
{
	struct sssp_options so = {
		.engine = o->engine,
		.cpu = strcmp(o->units, "gpu") != 0,
		.cuda = strcmp(o->units, "cpu") != 0,
		.nsources = r->k,
		.ch_cache = o->ch_cache,
		.delta = o->delta,
		.ntargets = (uint32_t)r->nt,
		.verbose = !o->quiet && apsp_rank0(),
		.betweenness = o->betweenness != NULL,
	};
	/* half the limit check_run_memory() holds the workers' workspaces to (the cgroup's, --max-memory) */
	const char *limit_what;
	so.cpu_memory = cli_memory_limit(o->max_memory, &limit_what) / 2;
	return so;
}

/* The stream workers per GPU are made at tuccompi_init: without --mk, as many as the engine's own MK
 * (PHAST's 12), judged from the graph before the plan is made (sssp_plan_mk_ahead), and at least the
 * default --mk, at most mk_core_cap(). A graph from standard input under a launcher of several
 * processes is read after the runtime starts (to be refused there): the default --mk. */
static void mk_ahead(struct options *o, const struct run *r)
{
	if (o->mk_given || !strcmp(o->units, "cpu"))
		return;
	struct sssp_options so = plan_options(o, r);
	so.verbose = 0;
	int mk = sssp_plan_mk_ahead(&r->view, &so), cap = mk_core_cap();
	if (mk > cap)
		mk = cap;
	if (mk > o->mk)
		o->mk = mk;
}

/* The one place that knows the SSSP plug-in: the engine's plan for this graph and sources,
 * and the task set it fills (plug-in, shared graph buffers, rows). */
static void plan_taskset(const struct options *o, struct run *r)
{
	struct sssp_options so = plan_options(o, r);
	char why[512];
	if (sssp_plan_create(&r->view, &so, &r->plan, why, sizeof why) < 0)
		apsp_die(1, "%s", why);
	if (o->betweenness && apsp_rank0() && !(r->args.betweenness = r->bc = calloc(r->g.n, sizeof(*r->bc))))
		apsp_die(1, "out of memory for the betweenness of %" PRIu32 " vertices", r->g.n);
	fit_gpu_memory(o, r);
	if (o->rows)
	{
		rows_open(&r->rows, ROWS_DIST, o->rows, r, o);
		r->args.row = write_row;
		r->args.row_ctx = &r->rows;
	}
	if (o->pred)
	{
		rows_open(&r->pred, ROWS_PRED, o->pred, r, o);
		r->args.pred = write_pred;
		r->args.pred_ctx = &r->pred;
	}
	r->args.harmonic = o->out || o->verify; /* the table's column (PHAST pays for it) */
	if (sssp_plan_taskset(r->plan, r->src, r->k, &r->args, &r->desc) < 0)
		apsp_die(1, "%s", tuccompi_last_error());
	r->desc.results = r->res;
	r->desc.root = 0;
	r->desc.on_done = on_done;
	r->desc.on_done_arg = &r->prog;
	if (o->journal)
	{
		/* the journal belongs to this graph, these sources and the options that decide the results */
		uint64_t key = sssp_graph_hash(&r->view) ^ 0x6a09e667f3bcc908ULL;
		for (uint64_t i = 0; i < r->k; i++)
			key = (key ^ r->src[i]) * 0x100000001b3ULL;
		key = (key ^ (uint64_t)o->engine) * 0x100000001b3ULL;
		key = (key ^ (uint64_t)(o->rows != NULL)) * 0x100000001b3ULL;
		key = (key ^ (uint64_t)(o->pred != NULL) ^ (uint64_t)r->args.harmonic << 1) * 0x100000001b3ULL;
		key = (key ^ r->nt) * 0x100000001b3ULL;
		for (uint64_t i = 0; i < r->nt; i++)
			key = (key ^ r->tgt[i]) * 0x100000001b3ULL;
		r->desc.journal = o->journal;
		r->desc.journal_key = key;
		r->desc.resume = o->resume;
	}
}

/* The run's memory on this rank: the graph and every CPU worker's workspaces (StarPU keeps
 * one set per worker), against the limit, before the first task allocates them. */
static void check_run_memory(const struct options *o, const struct run *r)
{
	const struct tuccompi_plugin *p = r->desc.plugin;
	uint64_t ws = 0, workers = p->cpu || p->cpu_batch ? (uint64_t)tuccompi_unit_count(TUCCOMPI_UNIT_CPU) : 0;
	for (unsigned k = 0; k < p->nworkspaces; k++)
		ws += p->workspace_size[k];
	ws += r->desc.reduce.size; /* each worker's partial sums (--betweenness) */
	const char *what;
	uint64_t limit = cli_memory_limit(o->max_memory, &what), need = graph_bytes(&r->g) + workers * ws;
	/* The available memory is measured now, with the graph already in it. */
	if (limit && (o->max_memory ? need : workers * ws) > limit)
		apsp_die(1, "the run needs about %" PRIu64 " bytes (graph %" PRIu64 ", %" PRIu64 " CPU workers x %" PRIu64
		       " bytes of workspace), more than the limit of %" PRIu64 " (%s); use fewer CPU workers (--ncpu) or "
		       "--units gpu",
		    need, graph_bytes(&r->g), workers, ws, limit, what);
}

static void *progress_thread(void *arg)
{
	struct progress *p = arg;
	int nr = tuccompi_nranks();
	char line[160];
	for (;;) /* at least one line, however short the run */
	{
		/* Rank 0 sees its own tasks; with several ranks, scale by the ranks for an estimate. */
		double est = (double)p->done * (nr > 1 ? nr : 1);
		cli_progress_format(line, sizeof line, est < (double)p->total ? est : (double)p->total, p->total,
				    tuccompi_wtime() - p->t0, nr > 1);
		fprintf(stderr, "\r%s", line);
		if (__atomic_load_n(&p->stop, __ATOMIC_RELAXED))
			break;
		struct timespec nap = { 0, 200000000 };
		nanosleep(&nap, NULL);
	}
	fprintf(stderr, "\r%*s\r", 90, "");
	return NULL;
}

static void run_taskset(const struct options *o, struct run *r)
{
	const struct tuccompi_plugin *p = r->desc.plugin;
	if (o->automk && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0 && (p->cuda || p->cuda_batch))
	{
		static const int cands[] = { 1, 2, 4, 8, 12 }; /* those above the stream workers made are skipped */
		int best;
		if (tuccompi_tune_mk(&r->desc, cands, 5, 16, &best) < 0)
			apsp_die(1, "--mk auto: %s", tuccompi_last_error());
		if (!o->quiet)
			fprintf(stderr, "rank %d: MK = %d (measured or from %s)\n", tuccompi_rank(), best, tuccompi_tune_db_path());
	}
	r->prog.done = 0;
	r->prog.total = r->k;
	int show = apsp_rank0() && !o->quiet && cli_progress_wanted();
	/* The ranks come here at different times (each reads the graph and prepares its engine, which
	 * takes longer on a rank without a GPU): the clock starts when all are here, so that the rate is
	 * the task set's, not the slowest rank's start-up. */
	if (tuccompi_nranks() > 1 && tuccompi_barrier() < 0)
		apsp_die(1, "waiting for the other ranks before the run: %s", tuccompi_last_error());
	r->prog.t0 = tuccompi_wtime();
	if (show)
		pthread_create(&r->prog.th, NULL, progress_thread, &r->prog);
	int ret = tuccompi_parallel(r->policy, &r->desc, &r->ts);
	if (ret == 0)
		ret = tuccompi_wait(r->ts);
	r->wall_s = tuccompi_wtime() - r->prog.t0;
	if (show)
	{
		__atomic_store_n(&r->prog.stop, 1, __ATOMIC_RELAXED);
		pthread_join(r->prog.th, NULL);
	}
	if (ret < 0)
		apsp_die(1, "%s", tuccompi_last_error());
	uint64_t resumed = tuccompi_taskset_resumed(r->ts);
	if (o->resume && apsp_rank0() && !o->quiet)
		fprintf(stderr, "resumed: %" PRIu64 " source(s) from the journal %s, %" PRIu64 " computed now\n", resumed,
			o->journal, r->k - resumed);
}

static void finish(struct run *r)
{
	if (r->ts)
		tuccompi_taskset_destroy(r->ts);
	if (r->res_pinned)
		tuccompi_memory_unpin(r->res, (size_t)r->k * r->rsize);
	sssp_plan_taskset_done(r->plan, &r->desc);
	sssp_plan_free(r->plan);
	if (tuccompi_finalize() < 0)
		apsp_die(1, "%s", tuccompi_last_error());
	graph_free(&r->g);
	free(r->src);
	free(r->tgt);
	free(r->res);
	free(r->bc);
}

int main(int argc, char **argv)
{
	struct options o;
	struct run r;
	memset(&r, 0, sizeof r);
	outfile_cleanup_install();
	sssp_set_tmp_hooks(outfile_register, outfile_unregister); /* the CH cache's temporary file */
	apsp_parse_args(argc, argv, &o);
	apsp_check_outputs(&o);
	/* The graph before the runtime: bad inputs fail fast, and the stream workers are sized for the
	 * engine (mk_ahead). Standard input reaches rank 0 only: with several ranks it is refused once
	 * the ranks are known (load_graph), with one it is read first like a file. */
	int early = !o.graph || strcmp(o.graph, "-") || tuccompi_launched_ranks() == 1;
	if (early)
		load_graph(&o, &r), choose_sources(&o, &r), mk_ahead(&o, &r);
	start_runtime(&o, &argc, &argv, &r);
	if (!early)
		load_graph(&o, &r), choose_sources(&o, &r);
	announce(&o, &r);
	plan_taskset(&o, &r);
	check_run_memory(&o, &r);
	run_taskset(&o, &r);
	int code = apsp_write_outputs(&o, &r);
	/* the outputs are in place: the journal has served */
	tuccompi_barrier();
	if (o.journal && apsp_rank0() && code != 1 && tuccompi_journal_remove(o.journal) < 0)
		fprintf(stderr, PROG ": warning: %s\n", tuccompi_last_error());
	finish(&r);
	return code;
}
