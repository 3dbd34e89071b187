/* tuccompi-apsp: shortest paths from many sources of a large graph, one SSSP task per
 * source, on every CPU core and GPU of every rank (the TuCCompi paper's case study).
 * Run with no arguments for a small demo; --help for everything else.
 *
 * The path of a run (main): parse the options, check every output path, start the runtime,
 * load the graph (its memory checked against the limit first), choose the sources, prepare
 * the SSSP plan and its task set (plan_taskset, the one place that knows the plug-in), run,
 * write the outputs (the rows file only once no distance overflowed). Exit status: 0, 1 for
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
#include "sssp.h"

#define PROG "tuccompi-apsp"

static const char usage_head[] =
	"Usage: " PROG " [OPTION]... [GRAPH]\n"
	"Shortest paths from many sources of a graph, one task per source, on all CPU cores and GPUs\n"
	"(run under mpirun for several nodes). Without arguments: a small demo on a generated graph.\n"
	"\n"
	"Graph (a file, or --gen):\n"
	"  GRAPH                  .gr (DIMACS shortest path), .mtx (Matrix Market), .tgb (binary cache);\n"
	"                         '-' reads standard input (one rank only; needs --format)\n"
	"  --format gr|mtx|tgb    the format of GRAPH, when its name does not say it\n"
	"  --cache FILE           keep a binary copy of the parsed GRAPH in FILE, reuse it when newer\n"
	"  --gen SPEC             generate the graph; SPEC is one of\n";
static const char usage_tail[] =
	"  --seed S               seed of generators and random sources (default 1)\n"
	"  --mtx-real-scale X     multiply real Matrix Market weights by X before rounding (default 1)\n"
	"  --max-memory BYTES     refuse graphs that need more memory (e.g. 48G; default: the available\n"
	"                         memory or the cgroup's limit), checked from the file's header first\n"
	"\n"
	"Sources (default: random:1024, or all vertices when there are fewer):\n"
	"  --sources all | N | random:N | A-B | a,b,c   (vertex ids count from 0, each once)\n"
	"\n"
	"How to run:\n"
	"  --engine E             SSSP engine: auto (default), batched, crauser (the paper's), phast\n"
	"  --ch-cache FILE        phast: keep the contraction hierarchy in FILE, reuse it when valid\n"
	"  --delta N              batched GPU engine: bucket width (default: from the graph)\n"
	"  --policy P             eq1, eq2, ms (the paper's), ms-tail (default: MS that leaves the\n"
	"                         last tasks to faster units and ranks), or a StarPU policy (dmda,\n"
	"                         lws, eager, ...)\n"
	"  --units cpu|gpu|all    which implementations to use (default all)\n"
	"  --mk N|auto            SSSPs at once per GPU (default 4; auto: measure, remember in the\n"
	"                         tuning database)\n"
	"  --tune rules|empirical|cuda   how GPU launch geometry is chosen (default rules)\n"
	"  --ncpu N, --ngpu N     CPU workers / GPUs per node (default: all)\n"
	"  --trace DIR            record an FxT trace; DIR/paje.trace opens in ViTE\n"
	"  --verify K             recompute K sources on the root with the CPU code and compare\n"
	"  --journal FILE         record finished sources durably in FILE.rank-R as the run goes, so\n"
	"                         that a killed run can be resumed (removed once the outputs exist)\n"
	"  --resume               with --journal: run only the sources the journal does not hold; the\n"
	"                         same outputs, byte for byte, as an uninterrupted run\n"
	"\n"
	"Output (on rank 0; every path is checked before the run, on every rank):\n"
	"  -o FILE                per-source table: source, reached, eccentricity, sum, mean of finite\n"
	"                         distances; CSV, or TSV when FILE ends in .tsv; '-' for stdout (then\n"
	"                         stdout carries the table only)\n"
	"  --rows FILE            full distance rows (binary: see docs/apsp.md), needs a shared file\n"
	"                         system across nodes\n"
	"  --betweenness FILE     betweenness centrality of every vertex, summed over the sources (Brandes;\n"
	"                         unnormalised: with --sources all, networkx's betweenness_centrality(G,\n"
	"                         normalized=False, weight=\"weight\")), as .npy (float64) or .csv\n"
	"                         (vertex,betweenness); not with --journal or --rows\n"
	"  --stats FILE           per-unit statistics as CSV (tasks, busy/idle time, transfers)\n"
	"  --summary              print the run summary: tasks, busy and idle time per unit, shares\n"
	"                         of the run in transfers and cross-rank messages\n"
	"  -q, --quiet            no progress bar or report\n"
	"  -h, --help             this text\n"
	"  --version              the versions of this program and of the library\n"
	"\n"
	"Examples:\n"
	"  " PROG " --gen random:1049088 --sources random:4096 --policy ms --mk 4\n"
	"  mpirun -n 2 " PROG " road.gr --cache road.tgb --sources 0-999 -o ecc.csv\n"
	"  zcat road.gr.gz | " PROG " - --format gr --sources 0-99 -o - > ecc.csv\n";

struct options
{
	const char *graph, *cache, *sources, *policy, *units, *tune, *trace, *out, *rows, *stats, *ch_cache, *journal;
	const char *betweenness;
	const char *gen_spec; /* --gen as given */
	struct cli_gen gen;
	enum graph_format format;
	enum sssp_engine engine;
	uint64_t seed, max_memory;
	uint32_t delta;
	int ncpu, ngpu, quiet, verify, summary, demo, automk, mk, mk_given, resume;
	double real_scale;
};

struct progress
{
	_Atomic uint64_t done;
	uint64_t total;
	double t0;
	int stop;
	pthread_t th;
};

struct rows_file
{
	struct outfile out;
	uint64_t data_off;
	int partial; /* journaled run: PATH.partial, kept across kills for --resume */
};

/* Everything a run holds, from the graph to the finished task set. */
struct run
{
	const struct tuccompi_policy *policy;
	struct graph g;
	struct sssp_graph view;
	double load_s, wall_s;
	uint32_t *src;
	uint64_t k;
	struct sssp_plan *plan;
	struct sssp_args args;
	struct rows_file rows;
	struct sssp_summary *res;
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

static const char *need_arg(int *i, int argc, char **argv)
{
	if (*i + 1 >= argc)
		die(2, "option %s needs a value (see --help)", argv[*i]);
	return argv[++*i];
}

/* The field of an option whose value is kept as given, or NULL. */
static const char **string_field(const char *a, struct options *o)
{
	static const struct
	{
		const char *name;
		size_t off;
	} strings[] = {
		{ "--cache", offsetof(struct options, cache) },     { "--gen", offsetof(struct options, gen_spec) },
		{ "--sources", offsetof(struct options, sources) }, { "--policy", offsetof(struct options, policy) },
		{ "--units", offsetof(struct options, units) },     { "--tune", offsetof(struct options, tune) },
		{ "--trace", offsetof(struct options, trace) },     { "-o", offsetof(struct options, out) },
		{ "--output", offsetof(struct options, out) },      { "--rows", offsetof(struct options, rows) },
		{ "--stats", offsetof(struct options, stats) },     { "--ch-cache", offsetof(struct options, ch_cache) },
		{ "--journal", offsetof(struct options, journal) }, { "--betweenness", offsetof(struct options, betweenness) },
	};
	for (unsigned k = 0; k < sizeof strings / sizeof strings[0]; k++)
		if (!strcmp(a, strings[k].name))
			return (const char **)((char *)o + strings[k].off);
	return NULL;
}

static void take_value(const char *a, const char *v, struct options *o)
{
	struct graph_error err;
	uint64_t x = 0;
	int rc = 0;
	if (!strcmp(a, "--seed"))
		rc = cli_parse_u64(a, v, 0, UINT64_MAX, &o->seed, &err);
	else if (!strcmp(a, "--mtx-real-scale"))
		rc = cli_parse_double(a, v, 1e-300, 1e300, &o->real_scale, &err);
	else if (!strcmp(a, "--max-memory"))
		rc = cli_parse_bytes(a, v, &o->max_memory, &err);
	else if (!strcmp(a, "--delta"))
		rc = cli_parse_u32(a, v, 1, UINT32_MAX, &o->delta, &err);
	else if (!strcmp(a, "--ncpu") || !strcmp(a, "--ngpu") || !strcmp(a, "--verify"))
	{
		rc = cli_parse_u64(a, v, 0, 100000, &x, &err);
		*(!strcmp(a, "--ncpu") ? &o->ncpu : !strcmp(a, "--ngpu") ? &o->ngpu : &o->verify) = (int)x;
	}
	else if (!strcmp(a, "--mk"))
	{
		if (!(o->automk = !strcmp(v, "auto")))
			rc = cli_parse_u64(a, v, 1, TUCCOMPI_MAX_MK, &x, &err);
		o->mk = o->automk ? 4 : (int)x;
		o->mk_given = 1;
	}
	else if (!strcmp(a, "--format"))
	{
		static const char *const names[] = { "gr", "mtx", "tgb" };
		static const enum graph_format formats[] = { GRAPH_FORMAT_DIMACS, GRAPH_FORMAT_MTX, GRAPH_FORMAT_BINARY };
		for (unsigned k = 0; k < 3 && !o->format; k++)
			if (!strcmp(v, names[k]))
				o->format = formats[k];
		if (!o->format)
			die(2, "--format '%s': use gr (DIMACS), mtx (Matrix Market) or tgb (binary)", v);
	}
	else if (!strcmp(a, "--engine"))
	{
		if (sssp_engine_parse(v, &o->engine, err.msg, sizeof err.msg) < 0)
			die(2, "--engine: %s", err.msg);
	}
	else
		die(2, "unknown option '%s' (see --help)", a);
	if (rc < 0)
		die_err(rc, &err);
}

/* Options take_value() parses. */
static int has_value(const char *a)
{
	static const char *const with[] = { "--seed", "--mtx-real-scale", "--max-memory", "--delta", "--ncpu", "--ngpu",
					    "--verify", "--mk", "--format", "--engine" };
	for (unsigned k = 0; k < sizeof with / sizeof with[0]; k++)
		if (!strcmp(a, with[k]))
			return 1;
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
	if (o->graph && !strcmp(o->graph, "-") && o->format != GRAPH_FORMAT_DIMACS && o->format != GRAPH_FORMAT_MTX)
		die(2, "GRAPH '-' (standard input) needs its format: --format gr or --format mtx");
	if (o->cache && !o->graph)
		die(2, "--cache keeps a copy of a GRAPH file; there is none (--gen graphs are not cached)");
	if (o->resume && !o->journal)
		die(2, "--resume reads the journal of an earlier run: give it with --journal FILE");
	if (o->betweenness && (rc = betweenness_check(o->betweenness, o->journal != NULL, o->rows != NULL, &err)) < 0)
		die_err(rc, &err);
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
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		{
			fputs(usage_head, stdout);
			fputs(cli_gen_help, stdout);
			fputs(usage_tail, stdout);
			exit(0);
		}
		if (!strcmp(a, "--version"))
		{
			tool_print_version(PROG);
			exit(0);
		}
		const char **field = string_field(a, o);
		if (!strcmp(a, "--summary"))
			o->summary = 1;
		else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			o->quiet = 1;
		else if (!strcmp(a, "--resume"))
			o->resume = 1;
		else if (field)
			*field = need_arg(&i, argc, argv);
		else if (a[0] == '-' && a[1])
			take_value(a, has_value(a) ? need_arg(&i, argc, argv) : NULL, o);
		else if (o->graph)
			die(2, "one graph only: '%s' and '%s'", o->graph, a);
		else
			o->graph = a;
	}
	check_args(o);
}

/* Before any work, on every rank: each output can be created, and none is an input or
 * another output. */
static void check_outputs(const struct options *o)
{
	const struct cli_output outs[] = {
		{ .option = "-o", .path = o->out, .stdout_ok = 1 }, { .option = "--rows", .path = o->rows },
		{ .option = "--stats", .path = o->stats },          { .option = "--cache", .path = o->cache },
		{ .option = "--ch-cache", .path = o->ch_cache },    { .option = "--trace", .path = o->trace, .is_dir = 1 },
		{ .option = "--journal", .path = o->journal },    { .option = "--betweenness", .path = o->betweenness },
	};
	const char *inputs[] = { o->graph };
	struct graph_error err;
	int rc = cli_check_outputs(outs, sizeof outs / sizeof outs[0], inputs, 1, &err);
	if (rc < 0)
		die_err(rc, &err);
}

/* ------------------------------------------------------------------ runtime */

static void start_runtime(const struct options *o, int *argc, char ***argv, struct run *r)
{
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.ncpus = strcmp(o->units, "gpu") ? o->ncpu : 0;
	conf.ncuda = strcmp(o->units, "cpu") ? o->ngpu : 0;
	conf.trace_dir = o->trace;
	conf.quiet = o->quiet;
	conf.mk = o->mk;
	conf.mk_max = o->automk ? 8 : o->mk;
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
		struct graph_read_options ro = { .format = o->format, .real_scale = o->real_scale, .max_bytes = limit,
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
	r->load_s = cli_now() - t0;
	r->view = apsp_graph_view(&r->g);
}

static void choose_sources(const struct options *o, struct run *r)
{
	struct graph_error err;
	int rc = cli_sources(o->sources ? o->sources : o->demo ? "random:256" : NULL, r->g.n, o->seed, &r->src, &r->k, &err);
	if (rc < 0)
		die_err(rc, &err);
}

/* Once the ranks are known: what was loaded (rank 0), and room for the results. */
static void announce(const struct options *o, struct run *r)
{
	if (rank0() && !o->quiet)
	{
		fprintf(stderr, "graph: %" PRIu32 " vertices, %" PRIu64 " arcs, weights up to %" PRIu32 " (%.2f s to %s)\n",
			r->g.n, r->g.m, r->g.max_w, r->load_s, o->graph ? "read" : "generate");
		if (o->demo)
			fprintf(stderr, "demo: %" PRIu64 " sources of a generated random graph (see --help for more)\n", r->k);
	}
	if (rank0() && !(r->res = calloc(r->k, sizeof(*r->res))))
		die(1, "out of memory for %" PRIu64 " results", r->k);
}

/* ------------------------------------------------------------------ rows file */

/* Binary rows: a 32-byte header ("TCCROWS1", n, number of sources, 8 reserved bytes),
 * the sources (uint32 each), then one row of n uint32 distances per source in the order
 * of the sources. Every rank writes its rows in place into the same temporary file (rank
 * 0's name); rank 0 renames it once every rank succeeded and no distance overflowed. */
static int write_row(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx)
{
	struct rows_file *rf = ctx;
	(void)source;
	size_t len = (size_t)n * sizeof(uint32_t);
	off_t off = (off_t)(rf->data_off + id * len);
	const char *p = (const char *)dist;
	while (len)
	{
		ssize_t w = pwrite(rf->out.fd, p, len, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
		off += w;
	}
	return 0;
}

static int all_ok(int ok)
{
	int64_t v = ok;
	return tuccompi_allreduce_i64(&v, 1, TUCCOMPI_OP_AND) < 0 ? 0 : (int)v;
}

static int rows_error(struct graph_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rows_error(struct graph_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return code;
}

/* A journaled run writes PATH.partial, which survives kills and signals (unlike a temporary
 * file) so that --resume goes on writing it: rows of finished sources are in it before the
 * journal records them. */
static int rows_open_partial(struct rows_file *rf, const char *path, const struct run *r, int resume, int create,
			     struct graph_error *err)
{
	size_t len = strlen(path) + 16;
	rf->partial = 1;
	rf->out.path = path;
	rf->out.slot = -1;
	rf->out.f = NULL;
	if (!(rf->out.tmp = malloc(len)))
		return rows_error(err, -ENOMEM, "%s: out of memory", path);
	snprintf(rf->out.tmp, len, "%s.partial", path);
	if (!create)
	{
		rf->out.fd = open(rf->out.tmp, O_WRONLY | O_CLOEXEC);
		return rf->out.fd < 0 ? rows_error(err, -errno, "cannot open %s: %s", rf->out.tmp, strerror(errno)) : 0;
	}
	unsigned char hdr[32] = "TCCROWS1", have[32];
	memcpy(hdr + 8, &r->g.n, 4);
	memcpy(hdr + 16, &r->k, 8);
	uint64_t total = rf->data_off + r->k * (uint64_t)r->g.n * 4;
	if (resume)
	{
		/* the rows of the resumed sources are there already: same header and sources, or nothing */
		int fd = open(rf->out.tmp, O_RDWR | O_CLOEXEC);
		uint32_t *src = malloc(r->k * 4 + 4);
		int same = fd >= 0 && src && pread(fd, have, 32, 0) == 32 && !memcmp(have, hdr, 32) &&
			   pread(fd, src, r->k * 4, 32) == (ssize_t)(r->k * 4) && !memcmp(src, r->src, r->k * 4);
		free(src);
		if (fd >= 0 && !same)
			close(fd);
		if (!same)
			return rows_error(err, -ESTALE,
					       "--resume: %s is missing or belongs to another run; run again without --resume",
					       rf->out.tmp);
		rf->out.fd = fd;
		return 0;
	}
	rf->out.fd = open(rf->out.tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (rf->out.fd < 0 || pwrite(rf->out.fd, hdr, 32, 0) != 32 ||
	    pwrite(rf->out.fd, r->src, r->k * 4, 32) != (ssize_t)(r->k * 4) || ftruncate(rf->out.fd, (off_t)total) < 0)
		return rows_error(err, -errno, "cannot write %s (%" PRIu64 " bytes): %s", rf->out.tmp, total,
				       strerror(errno));
	return 0;
}

static void rows_open(struct rows_file *rf, const char *path, const struct run *r, const struct options *o)
{
	struct graph_error err = { "" };
	long pid = (long)getpid();
	tuccompi_bcast(&pid, sizeof(pid), 0); /* one temporary name on every rank: rank 0's */
	rf->data_off = 32 + r->k * sizeof(uint32_t);
	int ok = 1;
	if (rank0())
	{
		if (o->journal)
			ok = rows_open_partial(rf, path, r, o->resume, 1, &err) == 0;
		else
		{
			unsigned char hdr[32] = "TCCROWS1";
			uint64_t total = rf->data_off + r->k * (uint64_t)r->g.n * 4;
			memcpy(hdr + 8, &r->g.n, 4);
			memcpy(hdr + 16, &r->k, 8);
			ok = outfile_open_pid(&rf->out, path, pid, 1, &err) == 0;
			if (ok && (pwrite(rf->out.fd, hdr, 32, 0) != 32 ||
				   pwrite(rf->out.fd, r->src, r->k * 4, 32) != (ssize_t)(r->k * 4) ||
				   ftruncate(rf->out.fd, (off_t)total) < 0))
			{
				snprintf(err.msg, sizeof err.msg, "cannot write %s (%" PRIu64 " bytes): %s", rf->out.tmp, total,
					 strerror(errno));
				outfile_abort(&rf->out);
				ok = 0;
			}
		}
	}
	if (!all_ok(ok))
		die(1, "--rows: %s", err.msg[0] ? err.msg : "rank 0 could not create the rows file");
	tuccompi_barrier();
	if (!rank0())
		ok = (o->journal ? rows_open_partial(rf, path, r, 0, 0, &err) : outfile_open_pid(&rf->out, path, pid, 0, &err)) ==
		     0;
	if (!all_ok(ok))
		die(1, "--rows %s: not every rank can open it (a file system shared by all nodes is needed)", path);
}

/* A journaled run's rows: synced and closed by every rank; rank 0 renames them into place
 * (keep), or removes them. */
static void rows_close_partial(struct rows_file *rf, const char *path, int ok, int keep)
{
	if (fsync(rf->out.fd) < 0)
		ok = 0;
	close(rf->out.fd);
	ok = all_ok(ok);
	if (rank0() && (!keep || !ok || rename(rf->out.tmp, path) < 0))
	{
		int e = errno;
		unlink(rf->out.tmp);
		if (keep)
			die(1, "--rows %s: writing the rows failed (%s); nothing was left behind", path,
			    ok ? strerror(e) : "a rank could not write");
	}
	free(rf->out.tmp);
	rf->out.tmp = NULL;
}

/* Collective. With @p keep, the rows become the file (or the run fails with a message);
 * without, the temporary file is removed. */
static void rows_close(struct rows_file *rf, const char *path, int ok, int keep)
{
	struct graph_error err = { "" };
	if (rf->partial)
	{
		rows_close_partial(rf, path, ok, keep);
		return;
	}
	ok = outfile_close(&rf->out, &err) == 0 && ok;
	ok = all_ok(ok);
	if (!rank0())
	{
		outfile_forget(&rf->out);
		return;
	}
	if (!keep || !ok)
		outfile_abort(&rf->out);
	if (keep && (!ok || outfile_rename(&rf->out, &err) < 0))
		die(1, "--rows %s: writing the rows failed (%s); nothing was left behind", path,
		    err.msg[0] ? err.msg : "a rank could not write");
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
	if (sssp_plan_fit_gpu(r->plan, asked, o->mk, total / 10 * 9, o->rows != NULL, &fit) < 0)
		die(1, "--units gpu: the graph needs %.1f GB of GPU memory and the GPU has %.1f GB; use --units all or cpu",
		    fit.need / 1e9, total / 1e9);
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

/* The one place that knows the SSSP plug-in: the engine's plan for this graph and sources,
 * and the task set it fills (plug-in, shared graph buffers, rows). */
static void plan_taskset(const struct options *o, struct run *r)
{
	struct sssp_options so = {
		.engine = o->engine,
		.cpu = strcmp(o->units, "gpu") != 0,
		.cuda = strcmp(o->units, "cpu") != 0,
		.nsources = r->k,
		.ch_cache = o->ch_cache,
		.delta = o->delta,
		.verbose = !o->quiet && rank0(),
		.betweenness = o->betweenness != NULL,
	};
	char why[512];
	if (sssp_plan_create(&r->view, &so, &r->plan, why, sizeof why) < 0)
		die(1, "%s", why);
	if (o->betweenness && rank0() && !(r->args.betweenness = r->bc = calloc(r->g.n, sizeof(*r->bc))))
		die(1, "out of memory for the betweenness of %" PRIu32 " vertices", r->g.n);
	fit_gpu_memory(o, r);
	if (o->rows)
	{
		rows_open(&r->rows, o->rows, r, o);
		r->args.row = write_row;
		r->args.row_ctx = &r->rows;
	}
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
		static const int cands[] = { 1, 2, 4, 8 };
		int best;
		if (tuccompi_tune_mk(&r->desc, cands, 4, 16, &best) < 0)
			die(1, "--mk auto: %s", tuccompi_last_error());
		if (!o->quiet)
			fprintf(stderr, "rank %d: MK = %d (measured or from %s)\n", tuccompi_rank(), best, tuccompi_tune_db_path());
	}
	r->prog.done = 0;
	r->prog.total = r->k;
	int show = rank0() && !o->quiet && cli_progress_wanted();
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
	fprintf(f, "source%creached%ceccentricity%csum%cmean\n", sep, sep, sep, sep);
	for (uint64_t i = 0; i < r->k; i++)
	{
		const struct sssp_summary *s = &r->res[i];
		double mean = s->reached > 1 ? (double)s->sum / (double)(s->reached - 1) : 0;
		fprintf(f, "%u%c%u%c%u%c%" PRIu64 "%c%.4f\n", r->src[i], sep, s->reached, sep, s->ecc, sep, s->sum, sep, mean);
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
	fprintf(stderr, "first sources (use -o FILE for the whole table):\n");
	fprintf(stderr, "  source  reached  eccentricity  mean distance\n");
	for (uint64_t i = 0; i < n; i++)
		fprintf(stderr, "  %6u  %7u  %12u  %13.3f\n", r->src[i], r->res[i].reached, r->res[i].ecc,
			r->res[i].reached > 1 ? (double)r->res[i].sum / (r->res[i].reached - 1) : 0.0);
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
		const struct sssp_summary *got = &r->res[i];
		sssp_dijkstra(&r->view, r->src[i], dist, heap, pos, &ref);
		if (ref.sum != got->sum || ref.ecc != got->ecc || ref.reached != got->reached)
		{
			bad++;
			fprintf(stderr, "verify: source %u differs: reached %u/%u ecc %u/%u sum %" PRIu64 "/%" PRIu64 "\n",
				r->src[i], got->reached, ref.reached, got->ecc, ref.ecc, got->sum, ref.sum);
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
		if (r->res[i].overflow)
			over = (int64_t)i;
	tuccompi_bcast(&over, sizeof over, 0);
	if (o->rows)
		rows_close(&r->rows, o->rows, !r->args.row_error, over < 0);
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
	if (o->summary)
		tuccompi_taskset_print_summary(r->ts, stderr);
	struct graph_error err;
	if (o->betweenness && betweenness_write(o->betweenness, r->bc, r->g.n, 1.0, &err) < 0)
		die(1, "--betweenness %s", err.msg);
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
	sssp_plan_taskset_done(r->plan, &r->desc);
	sssp_plan_free(r->plan);
	if (tuccompi_finalize() < 0)
		die(1, "%s", tuccompi_last_error());
	graph_free(&r->g);
	free(r->src);
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
	/* The graph before the runtime: bad inputs fail fast. Standard input reaches rank 0 only:
	 * it is read once the ranks are known. */
	int early = !o.graph || strcmp(o.graph, "-");
	if (early)
		load_graph(&o, &r), choose_sources(&o, &r);
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
