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
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <tuccompi.h>
#include <tuccompi_tune.h>
#include <unistd.h>

#include "../tool_version.h"
#include "betweenness.h"
#include "cli.h"
#include "graph.h"
#include "matrix.h"
#include "rows.h"
#include "sssp.h"

#define PROG "tuccompi-apsp"

static const char usage_head[] =
	"Usage: " PROG " [OPTION]... [GRAPH]\n"
	"Shortest paths from many sources of a graph, one task per source, on all CPU cores and GPUs\n"
	"(run under mpirun for several nodes). Without arguments: a small demo on a generated graph.\n";
static const char usage_tail[] =
	"\n"
	"Examples:\n"
	"  " PROG " --gen random:1049088 --sources random:4096 --policy ms --mk 4\n"
	"  mpirun -n 2 " PROG " road.gr --cache road.tgb --sources 0-999 -o ecc.csv\n"
	"  " PROG " USA-road-d.NY.gr.gz --sources 0-99 -o - > ecc.csv   # gzipped as downloaded\n"
	"  " PROG " roads.csv --undirected --sources first:100 --rows d.npy   # numpy.load(\"d.npy\")\n"
	"  " PROG " road.gr --sources file:origins.txt --targets file:destinations.txt --matrix od.csv\n"
	"  " PROG " road.gr --sources 0-9 --rows d.npy --pred p.npy   # scipy's return_predecessors\n";

struct options
{
	const char *graph, *cache, *sources, *policy, *units, *tune, *trace, *out, *rows, *stats, *ch_cache, *journal;
	const char *betweenness, *edges, *targets, *matrix, *pred;
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

static int rank0(void)
{
	return tuccompi_rank() == 0;
}

/* One line on stderr; temporary files removed; every rank ends (under mpirun, MPI_Abort). */
static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
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

/* A helper's error: exit status 2 for a bad argument, 1 otherwise. */
static void die_err(int rc, const struct graph_error *err)
{
	die(rc == -EINVAL ? 2 : 1, "%s", err->msg);
}

/* ------------------------------------------------------------------ options */

static void print_usage(void);

static int opt_help(const char *name, const char *v, void *opts, struct graph_error *err)
{
	print_usage();
	exit(0);
}

static int opt_version(const char *name, const char *v, void *opts, struct graph_error *err)
{
	tool_print_version(PROG);
	exit(0);
}

static int opt_mk(const char *name, const char *v, void *opts, struct graph_error *err)
{
	struct options *o = opts;
	uint64_t x = 0;
	int rc = 0;
	if (!(o->automk = !strcmp(v, "auto")))
		rc = cli_parse_u64(name, v, 1, TUCCOMPI_MAX_MK, &x, err);
	o->mk = o->automk ? 4 : (int)x;
	o->mk_given = 1;
	return rc;
}

static int opt_format(const char *name, const char *v, void *opts, struct graph_error *err)
{
	static const char *const names[] = { "gr", "mtx", "tgb", "edgelist", "metis" };
	static const enum graph_format formats[] = { GRAPH_FORMAT_DIMACS, GRAPH_FORMAT_MTX, GRAPH_FORMAT_BINARY,
						     GRAPH_FORMAT_EDGELIST, GRAPH_FORMAT_METIS };
	struct options *o = opts;
	for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
		if (!strcmp(v, names[k]))
		{
			o->format = formats[k];
			return 0;
		}
	snprintf(err->msg, sizeof err->msg, "--format '%s': use gr (DIMACS), mtx (Matrix Market), tgb (binary), edgelist or metis", v);
	return -EINVAL;
}

static int opt_real_scale(const char *name, const char *v, void *opts, struct graph_error *err)
{
	struct options *o = opts;
	o->real_round = 1;
	return cli_parse_double(name, v, 1e-300, 1e300, &o->real_scale, err);
}

static int opt_engine(const char *name, const char *v, void *opts, struct graph_error *err)
{
	struct options *o = opts;
	char why[400];
	if (sssp_engine_parse(v, &o->engine, why, sizeof why) == 0)
		return 0;
	snprintf(err->msg, sizeof err->msg, "--engine: %s", why);
	return -EINVAL;
}

#define OFF(field) offsetof(struct options, field)
#define SECTION(text) { .kind = CLI_OPT_SECTION, .help = text }
#define STRING(opt, value, field, text) { opt, NULL, value, CLI_OPT_STRING, OFF(field), .help = text }
#define FLAG(opt, field, text) { opt, NULL, NULL, CLI_OPT_FLAG, OFF(field), .help = text }
#define CUSTOM(opt, value, fn, text) { opt, NULL, value, CLI_OPT_CUSTOM, .parse = fn, .help = text }

/* Every option, once: its name, its value, where it goes, its help. */
static const struct cli_option options_table[] = {
	SECTION("Graph (a file, or --gen; vertex ids count from 0 everywhere, see --sources):"),
	{ .kind = CLI_OPT_TEXT, .label = "GRAPH",
	  .help = ".gr (DIMACS shortest path), .mtx (Matrix Market), .tgb (binary cache),\n"
		  ".edges .el .txt .csv .tsv (edge list: 'U V' or 'U V W' a line, blanks,\n"
		  "tabs or one comma, ids from 0, weight 1 when missing, '#' and '%'\n"
		  "comments), .graph .metis (METIS), each gzipped too (.gr.gz); '-' reads\n"
		  "standard input (one rank only; needs --format)" },
	CUSTOM("--format", "gr|mtx|tgb|edgelist|metis", opt_format, "the format of GRAPH, when its name does not say it"),
	STRING("--cache", "FILE", cache, "keep a binary copy of the parsed GRAPH in FILE, reuse it when newer"),
	STRING("--gen", "SPEC", gen_spec, "generate the graph; SPEC is one of"),
	{ .kind = CLI_OPT_TEXT, .help = cli_gen_help },
	FLAG("--undirected", undirected,
	     "every arc also in the other direction (any GRAPH format, and --gen);\n"
	     "opposite arcs of different weights keep the lighter one both ways"),
	{ "--seed", NULL, "S", CLI_OPT_U64, OFF(seed), .min = 0, .max = UINT64_MAX,
	  .help = "seed of generators and random sources (default 1)" },
	CUSTOM("--mtx-real-scale", "X", opt_real_scale,
	       "real weights (Matrix Market real, decimal edge-list weights) are\n"
	       "integers or refused; with this option they are multiplied by X and\n"
	       "rounded to integers, with a warning that says how many were rounded\n"
	       "and by how much (e.g. 100 keeps two decimals; distances then come\n"
	       "multiplied by X; 1 rounds them as they are)"),
	{ "--max-memory", NULL, "BYTES", CLI_OPT_BYTES, OFF(max_memory),
	  .help = "refuse graphs that need more memory (e.g. 48G; default: the available\n"
		  "memory or the cgroup's limit), checked from the file's header first" },

	SECTION("Sources (default: random:1024, or all vertices when there are fewer):"),
	{ "--sources", NULL, "SPEC", CLI_OPT_STRING, OFF(sources),
	  .label = "--sources all | first:N | random:N | A-B | a,b,c | file:PATH",
	  .help = "vertex ids count from 0, here and in every output: vertex 1 of a\n"
		  ".gr or .mtx file (they count from 1) is vertex 0 here; an edge list's\n"
		  "ids are used as they are. first:N (also written N): vertices 0..N-1,\n"
		  "the first N, not vertex N; one vertex V alone: V-V (17-17) or a list;\n"
		  "a,b,c: these, in this order (each once); file:PATH: such a list in a\n"
		  "file (blanks, line ends or commas between ids, '#' comments); the\n"
		  "outputs keep the order" },
	STRING("--targets", "SPEC", targets,
	       "the columns of --matrix, in the syntax of --sources and in its order\n"
	       "(random:N draws other vertices than --sources random:N)"),

	SECTION("How to run:"),
	CUSTOM("--engine", "E", opt_engine, "SSSP engine: auto (default), batched, crauser (the paper's), dial (weights 1..64), phast;\nwith --betweenness, the traversals it runs on (dial: dial-brandes)"),
	STRING("--ch-cache", "FILE", ch_cache, "phast: keep the contraction hierarchy in FILE, reuse it when valid"),
	{ "--delta", NULL, "N", CLI_OPT_U32, OFF(delta), .min = 1, .max = UINT32_MAX,
	  .help = "batched GPU engine: bucket width (default: from the graph)" },
	STRING("--policy", "P", policy,
	       "eq1, eq2, ms (the paper's), ms-tail (default: MS that leaves the\n"
	       "last tasks to faster units and ranks), or a StarPU policy (dmda,\n"
	       "lws, eager, ...)"),
	STRING("--units", "cpu|gpu|all", units, "which implementations to use (default all)"),
	CUSTOM("--mk", "N|auto", opt_mk,
	       "SSSPs at once per GPU (default: the engine's, 12 for phast, 4 or\n"
	       "2 for the others; auto: measure, remember in the tuning database)"),
	STRING("--tune", "rules|empirical|cuda", tune, "how GPU launch geometry is chosen (default rules)"),
	{ "--ncpu", NULL, "N", CLI_OPT_INT, OFF(ncpu), .min = 0, .max = 100000, .label = "--ncpu N, --ngpu N",
	  .help = "CPU workers / GPUs per node (default: all)" },
	{ "--ngpu", NULL, "N", CLI_OPT_INT, OFF(ngpu), .min = 0, .max = 100000 },
	STRING("--trace", "DIR", trace, "record an FxT trace; DIR/paje.trace opens in ViTE"),
	{ "--verify", NULL, "K", CLI_OPT_INT, OFF(verify), .min = 0, .max = 100000,
	  .help = "recompute K sources on the root with the CPU code and compare" },
	STRING("--journal", "FILE", journal,
	       "record finished sources durably in FILE.rank-R as the run goes, so\n"
	       "that a killed run can be resumed (removed once the outputs exist)"),
	FLAG("--resume", resume,
	     "with --journal: run only the sources the journal does not hold; the\n"
	     "same outputs, byte for byte, as an uninterrupted run"),

	SECTION("Output (on rank 0; every path is checked before the run, on every rank):"),
	{ "-o", "--output", "FILE", CLI_OPT_STRING, OFF(out),
	  .help = "per-source table: source (its id, from 0), reached, eccentricity,\n"
		  "sum, mean of finite distances, harmonic (the sum of 1/d over the\n"
		  "vertices reached at d > 0: harmonic closeness); CSV, or TSV when\n"
		  "FILE ends in .tsv; '-' for stdout (then stdout carries the table only)" },
	STRING("--rows", "FILE", rows,
	       "full distance rows, |S| x n in the order of --sources: FILE.npy is\n"
	       "numpy's format (float64, inf where unreachable; numpy.load reads\n"
	       "it), another name the binary format of docs/apsp.md; needs a\n"
	       "shared file system across nodes"),
	STRING("--betweenness", "FILE", betweenness,
	       "betweenness centrality of every vertex, summed over the sources\n"
	       "(Brandes; unnormalised: with --sources all, networkx's\n"
	       "betweenness_centrality(G, normalized=False, weight=\"weight\")), as\n"
	       ".npy (float64) or .csv (vertex,betweenness); not with --journal, --rows,\n"
	       "--pred or --targets"),
	STRING("--edge-betweenness", "FILE", edges,
	       "the same for every arc: networkx's edge_betweenness_centrality(G,\n"
	       "normalized=False, weight=\"weight\"), as .npy (float64, in the order of\n"
	       "the graph's arcs) or .csv (u,v,betweenness); with --undirected each\n"
	       "edge's (networkx's undirected value: half its two arcs' sum; the .csv\n"
	       "one line per edge, u < v)"),
	STRING("--matrix", "FILE", matrix,
	       "the |S| x |T| distances from --sources to --targets (an OD matrix):\n"
	       "FILE.npy (float64, inf where unreachable: scipy's dijkstra(G,\n"
	       "indices=S)[:, T]) or FILE.csv / FILE.tsv (a header of target ids,\n"
	       "a first column of source ids, 'inf'); no full rows are made"),
	STRING("--pred", "FILE.npy", pred,
	       "each source's shortest-path tree: |S| x n int32, the vertex before\n"
	       "each on a shortest path, -9999 for the source and unreachable ones\n"
	       "(scipy's dijkstra(..., return_predecessors=True)); found on the\n"
	       "host from each full row (docs/apsp.md: what it costs); needs a\n"
	       "shared file system across nodes"),
	STRING("--stats", "FILE", stats, "per-unit statistics as CSV (tasks, busy/idle time, transfers)"),
	FLAG("--summary", summary,
	     "print the run summary: tasks, busy and idle time per unit, shares\n"
	     "of the run in transfers and cross-rank messages"),
	{ "-q", "--quiet", NULL, CLI_OPT_FLAG, OFF(quiet), .label = "-q, --quiet", .help = "no progress bar or report" },
	{ "-h", "--help", NULL, CLI_OPT_CUSTOM, .parse = opt_help, .label = "-h, --help", .help = "this text" },
	CUSTOM("--version", NULL, opt_version, "the versions of this program and of the library"),
};

static void print_usage(void)
{
	fputs(usage_head, stdout);
	cli_options_help(options_table, sizeof options_table / sizeof options_table[0], stdout);
	fputs(usage_tail, stdout);
}

static int take_graph(const char *a, void *opts, struct graph_error *err)
{
	struct options *o = opts;
	if (o->graph)
	{
		snprintf(err->msg, sizeof err->msg, "one graph only: '%s' and '%s'", o->graph, a);
		return -EINVAL;
	}
	o->graph = a;
	return 0;
}

/* Everything that can be checked without the runtime. */
static void check_args(struct options *o)
{
	struct graph_error err;
	int rc;
	if (o->graph && o->gen_spec)
		die(2, "give a GRAPH file or --gen, not both");
	if (strcmp(o->units, "cpu") && strcmp(o->units, "gpu") && strcmp(o->units, "all"))
		die(2, "--units wants cpu, gpu or all, not '%s'", o->units);
	if ((!strcmp(o->units, "gpu") && o->ngpu == 0) || (!strcmp(o->units, "cpu") && o->ncpu == 0))
		die(2, "--units %s with --n%s 0 leaves no unit to run on", o->units, o->units);
	if (!strcmp(o->units, "gpu") && !tuccompi_have_cuda())
		die(2, "--units gpu: this build has no CUDA support; use --units cpu or all");
	if (o->gen_spec && (rc = cli_gen_parse("--gen", o->gen_spec, &o->gen, &err)) < 0)
		die_err(rc, &err);
	if (!o->graph && !o->gen_spec)
		cli_gen_parse("--gen", o->gen_spec = "random:50000", &o->gen, &err); /* the demo */
	const char *what;
	uint64_t limit = cli_memory_limit(o->max_memory, &what), need = cli_gen_bytes(&o->gen);
	if (!o->graph && limit && need > limit)
		die(1, "--gen %s: generating it needs about %" PRIu64 " bytes, more than the limit of %" PRIu64 " (%s); use a "
		       "smaller graph", o->gen_spec, need, limit, what);
	if (o->format && !o->graph)
		die(2, "--format describes a GRAPH file; there is none");
	if (o->graph && !strcmp(o->graph, "-") && !graph_format_is_text(o->format))
		die(2, "GRAPH '-' (standard input) needs its format: --format gr, mtx, edgelist or metis");
	if (o->cache && !o->graph)
		die(2, "--cache keeps a copy of a GRAPH file; there is none (--gen graphs are not cached)");
	const char *per_source = o->rows ? "--rows" : o->pred ? "--pred" : o->targets ? "--targets" : NULL;
	if ((rc = betweenness_check(o->betweenness, o->edges, o->journal != NULL, per_source, &err)) < 0)
		die_err(rc, &err);
	if (o->resume && !o->journal)
		die(2, "--resume reads the journal of an earlier run: give it with --journal FILE");
	if (o->matrix && !o->targets)
		die(2, "--matrix FILE needs --targets SPEC (its columns); every vertex's distance is --rows FILE.npy");
	if (o->targets && !o->matrix)
		die(2, "--targets SPEC chooses the columns of --matrix FILE: give --matrix");
	if (o->matrix && (rc = matrix_check_name(o->matrix, &err)) < 0)
		die_err(rc, &err);
	size_t plen = o->pred ? strlen(o->pred) : 0;
	if (o->pred && (plen < 5 || strcasecmp(o->pred + plen - 4, ".npy")))
		die(2, "--pred %s: the trees are numpy's .npy (int32, -9999 where a vertex has no predecessor); name it "
		       "FILE.npy", o->pred);
	if (o->cache && !strcmp(o->graph, "-"))
		die(2, "--cache: standard input cannot be cached; read it without --cache");
	if (o->tune)
	{
		enum tuccompi_tune_mode m;
		if (tuccompi_tune_mode_parse(o->tune, &m) < 0)
			die(2, "--tune: %s", tuccompi_last_error());
		tuccompi_tune_set_mode(m);
	}
}

static void parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->policy = "ms-tail"; /* docs/apsp.md: why not the paper's MS */
	o->units = "all";
	o->mk = 4;
	o->ncpu = o->ngpu = -1;
	o->real_scale = 1;
	o->demo = argc == 1;
	struct graph_error err;
	if (cli_options_parse(options_table, sizeof options_table / sizeof options_table[0], argc, argv, o, take_graph,
			      &err) < 0)
		die(2, "%s", err.msg);
	check_args(o);
}

/* Before any work, on every rank: each output can be created, and none is an input or
 * another output. */
static void check_outputs(const struct options *o)
{
	const struct cli_output outs[] = {
		{ .option = "-o", .path = o->out, .stdout_ok = 1 }, { .option = "--rows", .path = o->rows },
		{ .option = "--betweenness", .path = o->betweenness }, { .option = "--edge-betweenness", .path = o->edges },
		{ .option = "--stats", .path = o->stats },          { .option = "--cache", .path = o->cache },
		{ .option = "--ch-cache", .path = o->ch_cache },    { .option = "--trace", .path = o->trace, .is_dir = 1 },
		{ .option = "--journal", .path = o->journal },      { .option = "--matrix", .path = o->matrix },
		{ .option = "--pred", .path = o->pred },
	};
	const char *inputs[] = { o->graph, o->sources && !strncmp(o->sources, "file:", 5) ? o->sources + 5 : NULL,
				 o->targets && !strncmp(o->targets, "file:", 5) ? o->targets + 5 : NULL };
	struct graph_error err;
	int rc = cli_check_outputs(outs, sizeof outs / sizeof outs[0], inputs, 3, &err);
	if (rc < 0)
		die_err(rc, &err);
}

/* ------------------------------------------------------------------ runtime */

/* The stream workers a GPU may have without --mk: each takes a core, so the node's cores less four (the
 * main thread, StarPU-MPI's, and room for CPU workers), and at least half of them. On the 16-core GPU
 * nodes that is 12: PHAST's own MK, which the GPU alone and every unit both ran faster at than at 8
 * with the four CPU workers it displaces (docs/apsp.md, "PHAST at MK 12"). */
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
		die(1, "--units gpu: no GPU found (CUDA devices: 0); use --units cpu or all");
	if (ret < 0)
		die(1, "%s", tuccompi_last_error());
	if (!(r->policy = tuccompi_policy_by_name(o->policy)))
		die(2, "--policy: %s", tuccompi_last_error());
}

/* ------------------------------------------------------------------ graph and sources */

static void load_graph(const struct options *o, struct run *r)
{
	struct graph_error err = { "" };
	const char *what;
	uint64_t limit = cli_memory_limit(o->max_memory, &what);
	double t0 = cli_now();
	int rc;
	if (o->graph)
	{
		if (!strcmp(o->graph, "-") && tuccompi_nranks() > 1)
			die(2, "GRAPH '-': standard input reaches rank 0 only; give every rank a file");
		struct graph_read_options ro = { .format = o->format, .real_scale = o->real_scale, .real_round = o->real_round,
						 .real_scale_what = "--mtx-real-scale", .info = &r->read_info, .max_bytes = limit,
						 .max_bytes_what = what };
		rc = o->cache ? graph_read_cached(o->graph, o->cache, &ro, &r->g, &err) : graph_read(o->graph, &ro, &r->g, &err);
		if (rc < 0)
			die(1, "%s", err.msg);
		if (err.msg[0]) /* a cache that could not be written: the run goes on without */
			fprintf(stderr, PROG ": warning: %s; the run goes on without it\n",
				err.msg + (strncmp(err.msg, "note: ", 6) ? 0 : 6));
	}
	else if ((rc = cli_gen_run(&o->gen, o->seed, &r->g, &err)) < 0)
		die(rc == -EINVAL ? 2 : 1, "--gen %s: %s", o->gen_spec, err.msg);
	if (o->undirected)
	{
		/* the available memory is measured with the graph in it: then only the new CSR counts */
		uint64_t more = graph_undirected_bytes(&r->g), need = o->max_memory ? graph_bytes(&r->g) + more : more;
		limit = cli_memory_limit(o->max_memory, &what);
		if (limit && need > limit)
			die(1, "--undirected: the graph with both directions of every arc needs about %" PRIu64 " bytes%s, more "
			       "than the limit of %" PRIu64 " (%s); use a smaller graph",
			    need, o->max_memory ? "" : " more", limit, what);
		if (graph_make_undirected(&r->g, &err) < 0)
			die(1, "--undirected: %s", err.msg);
	}
	r->load_s = cli_now() - t0;
	r->view = apsp_graph_view(&r->g);
}

static void choose_sources(const struct options *o, struct run *r)
{
	struct graph_error err;
	int rc = cli_sources(o->sources ? o->sources : o->demo ? "random:256" : NULL, r->g.n, o->seed, &r->src, &r->k, &err);
	if (rc < 0)
		die_err(rc, &err);
	/* random targets: other draws than random sources of the same seed */
	if (o->targets &&
	    (rc = cli_vertex_set("--targets", "target", o->targets, r->g.n, o->seed ^ 0x7a26e7a26eULL, &r->tgt, &r->nt, &err)) < 0)
		die_err(rc, &err);
	if (o->pred && r->g.n > INT32_MAX)
		die(1, "--pred: the graph has %" PRIu32 " vertices; the trees' int32 ids hold at most %d", r->g.n, INT32_MAX);
	r->args.targets = r->tgt;
	r->args.ntargets = (uint32_t)r->nt;
	r->rsize = sssp_result_size(&r->args);
}

/* Once the ranks are known: what was loaded (rank 0), and room for the results. */
static void announce(const struct options *o, struct run *r)
{
	if (rank0())
		cli_warn_rounding(stderr, PROG, o->graph ? o->graph : "", &r->read_info, o->real_scale, "--mtx-real-scale");
	if (rank0() && !o->quiet)
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
	if (rank0() && r->nt && limit && r->k * r->rsize > limit)
		die(1, "--matrix: %" PRIu64 " x %" PRIu64 " distances need %" PRIu64 " bytes on rank 0, more than the limit of %" PRIu64
		       " (%s); use fewer sources or targets, or several runs", r->k, r->nt, (uint64_t)(r->k * r->rsize), limit, what);
	/* the tasks write their results from the units' threads: their pages are faulted in here,
	 * on every core at once, not one page at a time on a GPU worker's path (with --matrix, the
	 * results are k x targets distances; docs/apsp.md, what the outputs cost) */
	if (rank0() && !(r->res = cli_calloc_touched(r->k, r->rsize, 0)))
		die(1, "out of memory for %" PRIu64 " results of %zu bytes", r->k, r->rsize);
	/* and large ones (a matrix) registered with CUDA here, before the clock, by the rule the
	 * library would apply inside the set (TUCCOMPI_PIN_RESULTS), so that the GPUs copy the
	 * columns into place by DMA; a bad TUCCOMPI_PIN_RESULTS is reported by the set */
	size_t bytes = (size_t)r->k * r->rsize, min;
	if (rank0() && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0 && tuccompi_pin_results_min(&min) == 0 && min &&
	    bytes >= min)
		r->res_pinned = tuccompi_memory_pin(r->res, bytes) > 0;
}

/* Result i on rank 0: its summary (the target columns follow it). */
static const struct sssp_summary *summary_of(const struct run *r, uint64_t i)
{
	return (const struct sssp_summary *)(r->res + i * r->rsize);
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
		die(1, "%s", err.msg);
}

static int write_pred(uint64_t id, uint32_t source, const int32_t *pred, uint32_t n, void *ctx)
{
	return rows_file_write_pred(id, source, pred, n, ctx);
}

static int write_row(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx)
{
	return rows_file_write(id, source, dist, n, ctx);
}

/* Collective. With @p keep, the rows become the file (or the run fails with a message);
 * without, the temporary file is removed. */
static void rows_close(struct rows_file *rf, int ok, int keep)
{
	struct graph_error err;
	if (rows_file_close(rf, ok, keep, &err) < 0)
		die(1, "%s", err.msg);
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
			die(1, "%s", fit.why);
		die(1, "--units gpu: the graph needs %.1f GB of GPU memory and the GPU has %.1f GB; use --units all or cpu",
		    fit.need / 1e9, total / 1e9);
	}
	if (!fit.mk)
	{
		if (rank0())
			fprintf(stderr, PROG ": warning: the graph needs %.1f GB of GPU memory and the GPU has %.1f GB: running on "
					"the CPU cores only\n", fit.need / 1e9, total / 1e9);
		return;
	}
	if (fit.lowered && rank0())
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
		.verbose = !o->quiet && rank0(),
		.betweenness = o->betweenness || o->edges,
		.edge_betweenness = o->edges != NULL,
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
		die(1, "%s", why);
	size_t nbc = (size_t)r->g.n + (o->edges ? r->g.m : 0); /* the vertices' sums, then the arcs' */
	if ((o->betweenness || o->edges) && rank0() && !(r->args.betweenness = r->bc = calloc(nbc, sizeof(*r->bc))))
		die(1, "out of memory for the betweenness of %" PRIu32 " vertices", r->g.n);
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
		die(1, "%s", tuccompi_last_error());
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
		die(1, "the run needs about %" PRIu64 " bytes (graph %" PRIu64 ", %" PRIu64 " CPU workers x %" PRIu64
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
				    cli_now() - p->t0, nr > 1);
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
			die(1, "--mk auto: %s", tuccompi_last_error());
		if (!o->quiet)
			fprintf(stderr, "rank %d: MK = %d (measured or from %s)\n", tuccompi_rank(), best, tuccompi_tune_db_path());
	}
	r->prog.done = 0;
	r->prog.total = r->k;
	int show = rank0() && !o->quiet && cli_progress_wanted();
	/* The ranks come here at different times (each reads the graph and prepares its engine; a rank
	 * without a GPU came noticeably later, docs/apsp.md): the clock starts when all are here, so that
	 * the rate is the task set's, not the slowest rank's start-up. */
	if (tuccompi_nranks() > 1 && tuccompi_barrier() < 0)
		die(1, "waiting for the other ranks before the run: %s", tuccompi_last_error());
	r->prog.t0 = cli_now();
	if (show)
		pthread_create(&r->prog.th, NULL, progress_thread, &r->prog);
	int ret = tuccompi_parallel(r->policy, &r->desc, &r->ts);
	if (ret == 0)
		ret = tuccompi_wait(r->ts);
	r->wall_s = cli_now() - r->prog.t0;
	if (show)
	{
		__atomic_store_n(&r->prog.stop, 1, __ATOMIC_RELAXED);
		pthread_join(r->prog.th, NULL);
	}
	if (ret < 0)
		die(1, "%s", tuccompi_last_error());
	uint64_t resumed = tuccompi_taskset_resumed(r->ts);
	if (o->resume && rank0() && !o->quiet)
		fprintf(stderr, "resumed: %" PRIu64 " source(s) from the journal %s, %" PRIu64 " computed now\n", resumed,
			o->journal, r->k - resumed);
}

/* ------------------------------------------------------------------ outputs */

static void write_table(const char *path, const struct run *r)
{
	size_t len = strlen(path);
	char sep = len > 4 && !strcmp(path + len - 4, ".tsv") ? '\t' : ',';
	struct outfile out;
	struct graph_error err;
	FILE *f = stdout;
	if (strcmp(path, "-") && (outfile_open(&out, path, &err) < 0 || !(f = outfile_stream(&out, &err))))
		die(1, "-o %s", err.msg);
	fprintf(f, "source%creached%ceccentricity%csum%cmean%charmonic\n", sep, sep, sep, sep, sep);
	for (uint64_t i = 0; i < r->k; i++)
	{
		const struct sssp_summary *s = summary_of(r, i);
		double mean = s->reached > 1 ? (double)s->sum / (double)(s->reached - 1) : 0;
		fprintf(f, "%u%c%u%c%u%c%" PRIu64 "%c%.4f%c%.12g\n", r->src[i], sep, s->reached, sep, s->ecc, sep, s->sum, sep,
			mean, sep, s->harmonic);
	}
	if (f == stdout ? fflush(f) != 0 || ferror(f) : outfile_commit(&out, &err) < 0)
		die(1, "writing %s failed: %s (nothing was left behind)", path, f == stdout ? strerror(errno) : err.msg);
}

/* The library writes the CSV atomically; it goes to a registered temporary name first so
 * that a signal cannot leave it half-way, then takes the final name. */
static void write_stats(const char *path, tuccompi_taskset_t ts)
{
	struct outfile out;
	struct graph_error err;
	if (outfile_open(&out, path, &err) < 0 || outfile_close(&out, &err) < 0)
		die(1, "--stats %s", err.msg);
	if (tuccompi_taskset_write_csv(ts, out.tmp) < 0)
	{
		outfile_abort(&out);
		die(1, "--stats: %s", tuccompi_last_error());
	}
	if (outfile_rename(&out, &err) < 0)
		die(1, "--stats %s", err.msg);
}

static void report(const struct run *r)
{
	struct tuccompi_taskset_stats st;
	tuccompi_taskset_get_stats(r->ts, &st);
	uint64_t cpu_tasks = 0, gpu_tasks = 0;
	double cpu_busy = 0, gpu_busy = 0;
	int ncpu = 0, ngpu = 0;
	char mk[32] = "";
	for (int u = 0; u < st.nunits; u++)
		if (st.units[u].kind == TUCCOMPI_UNIT_CUDA)
			gpu_tasks += st.units[u].ntasks, gpu_busy += st.units[u].busy_s, ngpu++;
		else
			cpu_tasks += st.units[u].ntasks, cpu_busy += st.units[u].busy_s, ncpu++;
	if (ngpu) /* MK means nothing to a CPU-only run */
		snprintf(mk, sizeof mk, "MK %d, ", tuccompi_get_mk());
	fprintf(stderr, "%" PRIu64 " SSSP in %.3f s: %.1f SSSP/s (policy %s, %s%d rank(s), %d CPU + %d GPU units)\n", r->k,
		r->wall_s, (double)r->k / r->wall_s, r->policy->name, mk, tuccompi_nranks(), ncpu, ngpu);
	fprintf(stderr, "  engine:    %s (%s)\n", sssp_engine_name(sssp_plan_engine(r->plan)), sssp_plan_reason(r->plan));
	if (gpu_tasks)
		fprintf(stderr, "  GPUs:      %" PRIu64 " SSSP, %.3f ms per SSSP per stream\n", gpu_tasks,
			1e3 * gpu_busy / (double)gpu_tasks);
	if (cpu_tasks)
		fprintf(stderr, "  CPU cores: %" PRIu64 " SSSP, %.1f ms per SSSP per core\n", cpu_tasks,
			1e3 * cpu_busy / (double)cpu_tasks);
	for (int k = 0; k < tuccompi_nranks(); k++)
		fprintf(stderr, "  rank %d: %" PRIu64 " SSSP\n", k, st.tasks_per_rank[k]);
	if (tuccompi_nranks() > 1)
		fprintf(stderr, "  cross-rank communication: %.4f s on rank 0 (%.3f%% of the run)\n", st.comm_s,
			100.0 * st.comm_s / r->wall_s);
}

/* Without -o: a taste of the table, on stderr. */
static void first_sources(const struct run *r)
{
	uint64_t n = r->k < 5 ? r->k : 5;
	fprintf(stderr, "first sources (ids from 0; use -o FILE for the whole table):\n");
	fprintf(stderr, "  source  reached  eccentricity  mean distance\n");
	for (uint64_t i = 0; i < n; i++)
	{
		const struct sssp_summary *s = summary_of(r, i);
		fprintf(stderr, "  %6u  %7u  %12u  %13.3f\n", r->src[i], s->reached, s->ecc,
			s->reached > 1 ? (double)s->sum / (s->reached - 1) : 0.0);
	}
}

/* How to avoid distances of 2^31 and more, for the input at hand. */
static const char *overflow_hint(const struct options *o)
{
	size_t len = o->graph ? strlen(o->graph) : 0;
	if (!o->graph)
		return "generate smaller weights: the W1-W2 field of --gen";
	if (o->format == GRAPH_FORMAT_MTX || (!o->format && len > 4 && !strcasecmp(o->graph + len - 4, ".mtx")))
		return "scale them down, e.g. --mtx-real-scale 0.01";
	return "scale the weights of the graph file down";
}

/* --verify: K sources recomputed by the CPU Dijkstra; the number that differ. */
static uint64_t verify(int count, const struct run *r)
{
	uint32_t *dist = malloc((size_t)r->g.n * 4), *heap = malloc((size_t)r->g.n * 4), *pos = malloc((size_t)r->g.n * 4);
	if (!dist || !heap || !pos)
		die(1, "--verify: out of memory for 3 x %" PRIu32 " distances", r->g.n);
	uint64_t step = r->k / (uint64_t)count ? r->k / (uint64_t)count : 1, bad = 0, checked = 0;
	for (uint64_t i = 0; i < r->k && checked < (uint64_t)count; i += step, checked++)
	{
		struct sssp_summary ref;
		const struct sssp_summary *got = summary_of(r, i);
		sssp_dijkstra(&r->view, r->src[i], dist, heap, pos, &ref);
		if (ref.sum != got->sum || ref.ecc != got->ecc || ref.reached != got->reached || ref.harmonic != got->harmonic)
		{
			bad++;
			fprintf(stderr, "verify: source %u differs: reached %u/%u ecc %u/%u sum %" PRIu64 "/%" PRIu64
					" harmonic %.17g/%.17g\n",
				r->src[i], got->reached, ref.reached, got->ecc, ref.ecc, got->sum, ref.sum, got->harmonic, ref.harmonic);
		}
	}
	fprintf(stderr, "verify: %" PRIu64 " source(s) recomputed on the CPU, %" PRIu64 " differ\n", checked, bad);
	free(dist);
	free(heap);
	free(pos);
	return bad;
}

/* Collective. The exit status: 0, 1 when a distance overflowed, 3 when --verify differs. */
static int write_outputs(const struct options *o, struct run *r)
{
	/* The overflow check comes first: a rows file with wrong distances must never take its name. */
	int64_t over = -1;
	for (uint64_t i = 0; rank0() && i < r->k && over < 0; i++)
		if (summary_of(r, i)->overflow)
			over = (int64_t)i;
	tuccompi_bcast(&over, sizeof over, 0);
	if (o->rows)
		rows_close(&r->rows, !r->args.row_error, over < 0);
	if (o->pred)
		rows_close(&r->pred, !r->args.pred_error, over < 0);
	if (over >= 0)
	{
		if (rank0())
			fprintf(stderr, PROG ": distances from source %u reach 2^31: the weights are too large for 32-bit "
					"distances; %s (no output was written)\n", r->src[over], overflow_hint(o));
		return 1;
	}
	if (!rank0())
		return 0;
	if (!o->quiet)
		report(r);
	if (o->stats)
		write_stats(o->stats, r->ts);
	struct graph_error err;
	if (r->bc && betweenness_write(o->betweenness, o->edges, r->bc, &r->g, o->undirected, &err) < 0)
		die(1, "%s", err.msg);
	if (o->summary)
		tuccompi_taskset_print_summary(r->ts, stderr);
	if (o->matrix && matrix_write(o->matrix, r->src, r->k, r->tgt, (uint32_t)r->nt, r->res, r->rsize, &err) < 0)
		die(1, "--matrix %s", err.msg);
	if (o->out)
		write_table(o->out, r);
	else if (!o->quiet)
		first_sources(r);
	return o->verify && verify(o->verify, r) ? 3 : 0;
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
		die(1, "%s", tuccompi_last_error());
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
	parse_args(argc, argv, &o);
	check_outputs(&o);
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
	int code = write_outputs(&o, &r);
	/* the outputs are in place: the journal has served */
	tuccompi_barrier();
	if (o.journal && rank0() && code != 1 && tuccompi_journal_remove(o.journal) < 0)
		fprintf(stderr, PROG ": warning: %s\n", tuccompi_last_error());
	finish(&r);
	return code;
}
