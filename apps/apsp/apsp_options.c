/* tuccompi-apsp's options (apsp.h): every option once, in one table read by cli_options_parse()
 * and printed as --help, then the checks that need no runtime and the output paths' check. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <tuccompi.h>
#include <tuccompi_tune.h>

#include "../tool_version.h"
#include "apsp.h"
#include "betweenness.h"
#include "cli/memory.h"
#include "cli/numbers.h"
#include "cli/options.h"
#include "cli/out_paths.h"
#include "matrix.h"

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
	return cli_bad_arg(err, "--format '%s': use gr (DIMACS), mtx (Matrix Market), tgb (binary), edgelist or metis", v);
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
	return cli_bad_arg(err, "--engine: %s", why);
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
	CUSTOM("--engine", "E", opt_engine, "SSSP engine: auto (default), batched, crauser (the paper's), dial (weights 1..64), phast"),
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
		return cli_bad_arg(err, "one graph only: '%s' and '%s'", o->graph, a);
	o->graph = a;
	return 0;
}

/* Everything that can be checked without the runtime. */
static void check_args(struct options *o)
{
	struct graph_error err;
	int rc;
	if (o->graph && o->gen_spec)
		apsp_die(2, "give a GRAPH file or --gen, not both");
	if (strcmp(o->units, "cpu") && strcmp(o->units, "gpu") && strcmp(o->units, "all"))
		apsp_die(2, "--units wants cpu, gpu or all, not '%s'", o->units);
	if ((!strcmp(o->units, "gpu") && o->ngpu == 0) || (!strcmp(o->units, "cpu") && o->ncpu == 0))
		apsp_die(2, "--units %s with --n%s 0 leaves no unit to run on", o->units, o->units);
	if (!strcmp(o->units, "gpu") && !tuccompi_have_cuda())
		apsp_die(2, "--units gpu: this build has no CUDA support; use --units cpu or all");
	if (o->gen_spec && (rc = cli_gen_parse("--gen", o->gen_spec, &o->gen, &err)) < 0)
		apsp_die_err(rc, &err);
	if (!o->graph && !o->gen_spec)
		cli_gen_parse("--gen", o->gen_spec = "random:50000", &o->gen, &err); /* the demo */
	const char *what;
	uint64_t limit = cli_memory_limit(o->max_memory, &what), need = cli_gen_bytes(&o->gen);
	if (!o->graph && limit && need > limit)
		apsp_die(1, "--gen %s: generating it needs about %" PRIu64 " bytes, more than the limit of %" PRIu64 " (%s); use a "
		       "smaller graph", o->gen_spec, need, limit, what);
	if (o->format && !o->graph)
		apsp_die(2, "--format describes a GRAPH file; there is none");
	if (o->graph && !strcmp(o->graph, "-") && !graph_format_is_text(o->format))
		apsp_die(2, "GRAPH '-' (standard input) needs its format: --format gr, mtx, edgelist or metis");
	if (o->cache && !o->graph)
		apsp_die(2, "--cache keeps a copy of a GRAPH file; there is none (--gen graphs are not cached)");
	const char *per_source = o->rows ? "--rows" : o->pred ? "--pred" : o->targets ? "--targets" : NULL;
	if (o->betweenness && (rc = betweenness_check(o->betweenness, o->journal != NULL, per_source, &err)) < 0)
		apsp_die_err(rc, &err);
	if (o->resume && !o->journal)
		apsp_die(2, "--resume reads the journal of an earlier run: give it with --journal FILE");
	if (o->matrix && !o->targets)
		apsp_die(2, "--matrix FILE needs --targets SPEC (its columns); every vertex's distance is --rows FILE.npy");
	if (o->targets && !o->matrix)
		apsp_die(2, "--targets SPEC chooses the columns of --matrix FILE: give --matrix");
	if (o->matrix && (rc = matrix_check_name(o->matrix, &err)) < 0)
		apsp_die_err(rc, &err);
	size_t plen = o->pred ? strlen(o->pred) : 0;
	if (o->pred && (plen < 5 || strcasecmp(o->pred + plen - 4, ".npy")))
		apsp_die(2, "--pred %s: the trees are numpy's .npy (int32, -9999 where a vertex has no predecessor); name it "
		       "FILE.npy", o->pred);
	if (o->cache && !strcmp(o->graph, "-"))
		apsp_die(2, "--cache: standard input cannot be cached; read it without --cache");
	if (o->tune)
	{
		enum tuccompi_tune_mode m;
		if (tuccompi_tune_mode_parse(o->tune, &m) < 0)
			apsp_die(2, "--tune: %s", tuccompi_last_error());
		tuccompi_tune_set_mode(m);
	}
}

void apsp_parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	/* not the paper's MS: at a set's end a slow unit taking one of the last tasks would finish the set
	 * long after the others; MS-TAIL leaves those tasks to units fast enough to end first */
	o->policy = "ms-tail";
	o->units = "all";
	o->mk = 4;
	o->ncpu = o->ngpu = -1;
	o->real_scale = 1;
	o->demo = argc == 1;
	struct graph_error err;
	if (cli_options_parse(options_table, sizeof options_table / sizeof options_table[0], argc, argv, o, take_graph,
			      &err) < 0)
		apsp_die(2, "%s", err.msg);
	check_args(o);
}

/* Before any work, on every rank: each output can be created, and none is an input or
 * another output. */
void apsp_check_outputs(const struct options *o)
{
	const struct cli_output outs[] = {
		{ .option = "-o", .path = o->out, .stdout_ok = 1 }, { .option = "--rows", .path = o->rows },
		{ .option = "--betweenness", .path = o->betweenness },
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
		apsp_die_err(rc, &err);
}
