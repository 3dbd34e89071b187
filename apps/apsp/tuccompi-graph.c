/* tuccompi-graph: look at, convert and generate the graphs of the APSP application.
 * Exit status: 0 success, 1 input or output error, 2 bad arguments. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <tuccompi.h>

#include "../tool_version.h"
#include "cli/graphs.h"
#include "cli/memory.h"
#include "cli/numbers.h"
#include "cli/out_paths.h"
#include "graph.h"
#include "outfile.h"

#define PROG "tuccompi-graph"

static const char usage_main[] =
	"usage: " PROG " COMMAND [ARGS]\n"
	"\n"
	"Look at, convert and generate directed graphs with non-negative integer weights.\n"
	"\n"
	"Commands:\n"
	"  info FILE               vertices, arcs, degrees, weights, isolated vertices; for a .co\n"
	"                          file, its coordinates' extent\n"
	"  convert IN OUT          rewrite IN as OUT, in the format OUT's name says\n"
	"  gen SPEC -o OUT         generate a graph (" PROG " gen --help)\n"
	"\n"
	"Files, by name ('-' reads standard input: give --format):\n"
	"  .gr    DIMACS shortest-path text: 'p sp VERTICES ARCS', then 'a FROM TO WEIGHT' (1-based)\n"
	"  .mtx   Matrix Market coordinate matrix (read only); symmetric gives both arcs\n"
	"  .tgb   this tool's binary form: checksummed, loads far faster than text\n"
	"  .co    DIMACS coordinates: 'p aux sp co VERTICES', then 'v ID X Y' (read only)\n"
	"  .edges .el .txt .csv .tsv   edge list: 'FROM TO' or 'FROM TO WEIGHT' a line (blanks, tabs\n"
	"         or one comma; written with commas for .csv, tabs for .tsv), ids from 0 used as\n"
	"         given (vertices = largest id + 1), weight 1 when missing, '#' or '%' comments\n"
	"  .graph .metis  METIS: 'VERTICES EDGES [FMT [NCON]]', then a line of neighbours per vertex\n"
	"         (1-based; each followed by its edge's weight when FMT ends in 1; vertex weights and\n"
	"         sizes skipped), every edge listed at both ends, '%' comments; written for\n"
	"         undirected graphs only (--undirected makes one), weights left out when all are 1\n"
	"  .gz    any of the text files gzipped (road.gr.gz, g.csv.gz, road.co.gz): read as they\n"
	"         are, inflated as they are read (gzipped standard input too); written gzipped\n"
	"         (gzip -1) when OUT's name ends in .gz (not .tgb: it is read as it is)\n"
	"\n"
	"Options of info and convert:\n"
	"  --format gr|mtx|tgb|edgelist|metis  the input's format, when its name does not say it\n"
	"  --coords FILE.co     info: also read the graph's coordinates and check they match it\n"
	"  --undirected         every arc also in the other direction (the lighter weight of\n"
	"                       opposite arcs both ways)\n"
	"  --real-scale X       real weights (Matrix Market real, decimal edge-list weights) that are\n"
	"                       not integers are refused; with this option they are multiplied by X\n"
	"                       and rounded, with a warning saying how many and by how much\n"
	"  --pattern-weight W   weight of the arcs of a pattern Matrix Market file (default 1)\n"
	"  --max-memory BYTES   refuse inputs that need more memory (e.g. 8G; default: the available\n"
	"                       memory or the cgroup's limit), checked from the header first\n"
	"  --version            the versions of this program and of the library\n"
	"\n"
	"Example: " PROG " convert USA-road-d.NY.gr ny.tgb && " PROG " info ny.tgb\n"
	"Exit status: 0 success, 1 input or output error, 2 bad arguments.\n";

static const char usage_gen_head[] =
	"usage: " PROG " gen SPEC [OPTIONS] -o OUT\n"
	"\n"
	"SPEC (the same as tuccompi-apsp --gen):\n";
static const char usage_gen_tail[] =
	"\n"
	"Options:\n"
	"  --seed S           random seed (default 1); a seed always gives the same graph, and\n"
	"                     tuccompi-apsp --gen SPEC --seed S the same one\n"
	"  --abc A,B,C        rmat: quadrant probabilities (default Graph500's 0.57,0.19,0.19)\n"
	"  --max-memory BYTES refuse specs that need more memory (default: the available memory)\n"
	"  -o OUT             output: .gr (DIMACS text), .tgb (binary) or an edge list (.edges,\n"
	"                     .el, .txt, .csv, .tsv)\n"
	"\n"
	"Self-loops and repeated arcs are dropped, so a graph can have a few arcs less\n"
	"than drawn. The older form 'gen random -n N --degree MIN:MAX --weights MIN:MAX' (and rmat\n"
	"--scale/--edgefactor, grid --rows/--cols) still works and prints the SPEC it stands for.\n"
	"Example: " PROG " gen random:1049088:1-9:1-10 -o paper.tgb\n";

/* Bad arguments: one line, exit 2. */
static void __attribute__((noreturn, format(printf, 1, 2))) usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, PROG ": ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(2);
}

/* A helper's error: exit 2 for a bad argument, 1 otherwise. */
static void __attribute__((noreturn)) fail(int rc, const struct graph_error *err)
{
	fprintf(stderr, PROG ": %s\n", err->msg);
	exit(rc == -EINVAL ? 2 : 1);
}

static void __attribute__((noreturn)) fail_io(const struct graph_error *err)
{
	fail(-EIO, err);
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

/* Before any work: the output format comes from the name (before a final .gz, which gzips a
 * text format), the path can be created and is not the input. */
static void check_output(const char *path, const char *input)
{
	enum graph_format f;
	struct graph_error err;
	if (graph_output_format(path, &f, &err) < 0)
		usage_error("%s", err.msg);
	struct cli_output out = { .option = "output", .path = path };
	int rc = cli_check_outputs(&out, 1, &input, input ? 1 : 0, &err);
	if (rc < 0)
		fail(rc, &err);
}

/* Write g, named by check_output, and free it. */
static void write_graph(struct graph *g, const char *path)
{
	struct graph_error err;
	int rc = graph_write(g, path, &err);
	graph_free(g);
	if (rc < 0)
		fail_io(&err);
}

/* ------------------------------------------------------------------ info and convert */

struct read_args;
static void read_graph(const struct read_args *a, const char *path, struct graph *g);

struct read_args
{
	struct graph_read_options opt;
	uint64_t max_memory;
	int undirected;
	const char *coords;
	char *files[2];
};

static void read_args(int argc, char **argv, int nfiles, const char *usage, struct read_args *a)
{
	static const struct option longopts[] = { { "real-scale", required_argument, NULL, 'r' },
						  { "pattern-weight", required_argument, NULL, 'p' },
						  { "format", required_argument, NULL, 'f' },
						  { "coords", required_argument, NULL, 'c' },
						  { "max-memory", required_argument, NULL, 'm' },
						  { "undirected", no_argument, NULL, 'u' },
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	memset(a, 0, sizeof *a);
	struct graph_error err;
	opterr = 0;
	optind = 1;
	int c, rc = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1)
	{
		switch (c)
		{
		case 'r':
			rc = cli_parse_double("--real-scale", optarg, 1e-300, 1e300, &a->opt.real_scale, &err);
			a->opt.real_round = 1;
			break;
		case 'p':
			rc = cli_parse_u32("--pattern-weight", optarg, 1, GRAPH_MAX_WEIGHT, &a->opt.pattern_weight, &err);
			break;
		case 'f':
			a->opt.format = !strcmp(optarg, "gr")	      ? GRAPH_FORMAT_DIMACS
					: !strcmp(optarg, "mtx")      ? GRAPH_FORMAT_MTX
					: !strcmp(optarg, "tgb")      ? GRAPH_FORMAT_BINARY
					: !strcmp(optarg, "edgelist") ? GRAPH_FORMAT_EDGELIST
					: !strcmp(optarg, "metis")    ? GRAPH_FORMAT_METIS
								      : GRAPH_FORMAT_AUTO;
			if (!a->opt.format)
				usage_error("--format '%s': use gr (DIMACS), mtx (Matrix Market), tgb (binary), edgelist or metis",
					    optarg);
			break;
		case 'c':
			if (nfiles != 1)
				usage_error("--coords is an option of info");
			a->coords = optarg;
			break;
		case 'm':
			rc = cli_parse_bytes("--max-memory", optarg, &a->max_memory, &err);
			break;
		case 'u':
			a->undirected = 1;
			break;
		case 'h':
			fputs(usage_main, stdout);
			exit(0);
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
		default:
			usage_error("unknown option '%s' (see " PROG " --help)", argv[optind - 1]);
		}
		if (rc < 0)
			fail(rc, &err);
	}
	if (argc - optind != nfiles)
		usage_error("%s takes %s (see " PROG " --help)", argv[0], usage);
	for (int i = 0; i < nfiles; i++)
		a->files[i] = argv[optind + i];
	if (!strcmp(a->files[0], "-") && !graph_format_is_text(a->opt.format))
		usage_error("'-' (standard input) needs its format: --format gr, mtx, edgelist or metis");
	a->opt.max_bytes = cli_memory_limit(a->max_memory, &a->opt.max_bytes_what);
	a->opt.real_scale_what = "--real-scale";
}

/* Read @p path as the options say (--undirected included), or exit with the reader's message. */
static void read_graph(const struct read_args *a, const char *path, struct graph *g)
{
	struct graph_error err;
	struct graph_read_info info;
	struct graph_read_options opt = a->opt;
	opt.info = &info;
	if (graph_read(path, &opt, g, &err) < 0)
		fail_io(&err);
	cli_warn_rounding(stderr, PROG, path, &info, opt.real_scale ? opt.real_scale : 1, "--real-scale");
	if (!a->undirected)
		return;
	const char *what;
	uint64_t more = graph_undirected_bytes(g), limit = cli_memory_limit(a->max_memory, &what);
	uint64_t need = a->max_memory ? graph_bytes(g) + more : more;
	if (limit && need > limit)
	{
		fprintf(stderr, PROG ": --undirected: the graph with both directions of every arc needs about %" PRIu64
				" bytes%s, more than the limit of %" PRIu64 " (%s); use a smaller graph\n",
			need, a->max_memory ? "" : " more", limit, what);
		exit(1);
	}
	if (graph_make_undirected(g, &err) < 0)
		fail_io(&err);
}

static void print_coords(const struct graph_coords *c)
{
	printf("coordinates  %" PRIu32 " vertices\n", c->n);
	printf("x            %" PRId32 "..%" PRId32 "\n", c->min_x, c->max_x);
	printf("y            %" PRId32 "..%" PRId32 "\n", c->min_y, c->max_y);
}

static int info_coords(const char *path, const struct graph_read_options *opt)
{
	struct graph_coords c;
	struct graph_error err;
	if (graph_read_coords(path, opt, &c, &err) < 0)
		fail_io(&err);
	printf("file         %s\n", path);
	print_coords(&c);
	graph_coords_free(&c);
	return 0;
}

static int cmd_info(int argc, char **argv)
{
	struct read_args a;
	read_args(argc, argv, 1, "one FILE", &a);
	const char *path = a.files[0];
	if (has_suffix(path, ".co") || has_suffix(path, ".co.gz"))
		return info_coords(path, &a.opt);
	struct graph g;
	struct graph_error err;
	double t0 = tuccompi_wtime();
	read_graph(&a, path, &g);
	double t = tuccompi_wtime() - t0;
	struct graph_coords c = { 0 };
	if (a.coords && graph_read_coords(a.coords, &a.opt, &c, &err) < 0)
		fail_io(&err);
	if (a.coords && c.n != g.n)
	{
		fprintf(stderr, PROG ": %s has %" PRIu32 " vertices but %s has %" PRIu32 "; they are not of the same graph\n",
			a.coords, c.n, path, g.n);
		return 1;
	}

	uint32_t *indeg = calloc((size_t)g.n + 1, sizeof *indeg);
	if (!indeg)
	{
		fprintf(stderr, PROG ": out of memory for %" PRIu32 " in-degrees\n", g.n);
		graph_free(&g);
		return 1;
	}
	for (uint64_t e = 0; e < g.m; e++)
		indeg[g.col[e]]++;
	uint64_t out_min = UINT64_MAX, out_max = 0, in_min = UINT64_MAX, in_max = 0, isolated = 0, sinks = 0;
	uint32_t w_min = GRAPH_INF;
	for (uint32_t u = 0; u < g.n; u++)
	{
		uint64_t d = g.rowptr[u + 1] - g.rowptr[u];
		out_min = d < out_min ? d : out_min;
		out_max = d > out_max ? d : out_max;
		in_min = indeg[u] < in_min ? indeg[u] : in_min;
		in_max = indeg[u] > in_max ? indeg[u] : in_max;
		sinks += d == 0;
		isolated += d == 0 && indeg[u] == 0;
		w_min = g.min_out[u] < w_min ? g.min_out[u] : w_min;
	}
	free(indeg);
	double avg = (double)g.m / g.n;
	printf("file         %s\n", path);
	printf("vertices     %" PRIu32 "\n", g.n);
	printf("arcs         %" PRIu64 "\n", g.m);
	printf("out-degree   min %" PRIu64 ", avg %.2f, max %" PRIu64 "\n", out_min, avg, out_max);
	printf("in-degree    min %" PRIu64 ", avg %.2f, max %" PRIu64 "\n", in_min, avg, in_max);
	if (g.m)
		printf("weights      %" PRIu32 "..%" PRIu32 "\n", w_min, g.max_w);
	else
		printf("weights      none (no arcs)\n");
	printf("isolated     %" PRIu64 " (no arc in or out)\n", isolated);
	printf("no out-arc   %" PRIu64 "\n", sinks);
	printf("memory       %.1f MB in CSR form\n", graph_bytes(&g) / 1e6);
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && t > 0)
		printf("read in      %.3f s (%.0f MB/s, %.1f M arcs/s)\n", t, st.st_size / t / 1e6, g.m / t / 1e6);
	if (a.coords)
		print_coords(&c);
	graph_coords_free(&c);
	graph_free(&g);
	return 0;
}

static int cmd_convert(int argc, char **argv)
{
	struct read_args a;
	read_args(argc, argv, 2, "IN and OUT", &a);
	check_output(a.files[1], a.files[0]);
	struct graph g;
	read_graph(&a, a.files[0], &g);
	write_graph(&g, a.files[1]);
	return 0;
}

/* ------------------------------------------------------------------ gen */

/* The older form "gen KIND [-n N] [--degree A:B] ...": its options, by generator. */
struct old_form
{
	const char *kind; /* NULL: a SPEC was given */
	int used;         /* an option of the older form was given */
};

static void old_option(int c, const char *arg, struct cli_gen *gen, struct old_form *old)
{
	static const char *const owner[] = { ['n'] = "random", ['d'] = "random", ['s'] = "rmat", ['e'] = "rmat",
					     ['R'] = "grid",   ['C'] = "grid",   ['w'] = NULL };
	static const char *const names[] = { ['n'] = "-n",	   ['d'] = "--degree", ['s'] = "--scale",  ['e'] = "--edgefactor",
					     ['R'] = "--rows", ['C'] = "--cols",   ['w'] = "--weights" };
	const char *name = names[c];
	struct graph_error err;
	uint64_t lo, hi;
	int rc = 0;
	if (!old->kind)
		usage_error("%s belongs to the older form 'gen %s ...'; with a SPEC, put it in the SPEC (see " PROG " gen --help)",
			    name, owner[c] ? owner[c] : "random");
	if (owner[c] && strcmp(owner[c], old->kind))
		usage_error("%s is an option of 'gen %s', not of 'gen %s'", name, owner[c], old->kind);
	old->used = 1;
	switch (c)
	{
	case 'n':
		rc = cli_parse_u32("-n", arg, 1, GRAPH_MAX_VERTICES, &gen->n, &err);
		break;
	case 'd':
		if ((rc = cli_parse_range("--degree", arg, ':', 0, UINT32_MAX - 1, &lo, &hi, &err)) == 0)
			gen->deg_min = (uint32_t)lo, gen->deg_max = (uint32_t)hi;
		break;
	case 's':
		rc = cli_parse_u64("--scale", arg, 1, 31, &lo, &err);
		gen->scale = (unsigned)lo;
		break;
	case 'e':
		rc = cli_parse_u64("--edgefactor", arg, 1, UINT32_MAX, &lo, &err);
		gen->edgefactor = (unsigned)lo;
		break;
	case 'R':
		rc = cli_parse_u32("--rows", arg, 1, UINT32_MAX, &gen->rows, &err);
		break;
	case 'C':
		rc = cli_parse_u32("--cols", arg, 1, UINT32_MAX, &gen->cols, &err);
		break;
	case 'w':
		if ((rc = cli_parse_range("--weights", arg, ':', 0, GRAPH_MAX_WEIGHT, &lo, &hi, &err)) == 0)
			gen->w_min = (uint32_t)lo, gen->w_max = (uint32_t)hi;
		break;
	}
	if (rc < 0)
		fail(rc, &err);
}

/* The SPEC, or the older form's kind with its defaults (the paper's graph, scale 20, 1024 x 1024). */
static void gen_start(const char *arg, struct cli_gen *gen, struct old_form *old)
{
	static const char *const old_defaults[][2] = { { "random", "random:1049088" },
						       { "rmat", "rmat:20" },
						       { "grid", "grid:1024x1024" } };
	struct graph_error err;
	int rc;
	old->kind = NULL;
	for (int k = 0; k < 3; k++)
		if (!strcmp(arg, old_defaults[k][0]))
		{
			old->kind = old_defaults[k][0];
			arg = old_defaults[k][1];
		}
	if ((rc = cli_gen_parse("gen", arg, gen, &err)) < 0)
		fail(rc, &err);
}

static int cmd_gen(int argc, char **argv)
{
	static const struct option longopts[] = { { "degree", required_argument, NULL, 'd' },
						  { "scale", required_argument, NULL, 's' },
						  { "edgefactor", required_argument, NULL, 'e' },
						  { "abc", required_argument, NULL, 'a' },
						  { "rows", required_argument, NULL, 'R' },
						  { "cols", required_argument, NULL, 'C' },
						  { "weights", required_argument, NULL, 'w' },
						  { "seed", required_argument, NULL, 'S' },
						  { "max-memory", required_argument, NULL, 'm' },
						  { "help", no_argument, NULL, 'h' },
						  { NULL, 0, NULL, 0 } };
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
	{
		if (argc < 2)
			usage_error("gen needs a SPEC such as random:1000, rmat:16, grid:100x100 (see " PROG " gen --help)");
		fputs(usage_gen_head, stdout);
		fputs(cli_gen_help, stdout);
		fputs(usage_gen_tail, stdout);
		exit(0);
	}
	struct cli_gen gen;
	struct old_form old;
	gen_start(argv[1], &gen, &old);
	uint64_t seed = 1, max_memory = 0;
	const char *out = NULL;
	struct graph_error err;
	int c, rc = 0;
	opterr = 0;
	optind = 1;
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, ":n:o:h", longopts, NULL)) != -1)
	{
		switch (c)
		{
		case 'a':
		{
			char buf[128], *f[4];
			int k = 0;
			snprintf(buf, sizeof buf, "%s", optarg);
			for (char *p = buf; p && k < 4; k++)
			{
				f[k] = p;
				if ((p = strchr(p, ',')))
					*p++ = '\0';
			}
			if (k != 3)
				usage_error("--abc '%s': expected three probabilities A,B,C", optarg);
			if (gen.kind != CLI_GEN_RMAT)
				usage_error("--abc is an option of rmat graphs, not of '%s'", argv[0]);
			if ((rc = cli_parse_double("--abc", f[0], 0, 1, &gen.a, &err)) == 0 &&
			    (rc = cli_parse_double("--abc", f[1], 0, 1, &gen.b, &err)) == 0)
				rc = cli_parse_double("--abc", f[2], 0, 1, &gen.c, &err);
			break;
		}
		case 'S':
			rc = cli_parse_u64("--seed", optarg, 0, UINT64_MAX, &seed, &err);
			break;
		case 'm':
			rc = cli_parse_bytes("--max-memory", optarg, &max_memory, &err);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage_gen_head, stdout);
			fputs(cli_gen_help, stdout);
			fputs(usage_gen_tail, stdout);
			exit(0);
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
		case '?':
			usage_error("unknown option '%s' (see " PROG " gen --help)", argv[optind - 1]);
		default:
			old_option(c, optarg, &gen, &old);
		}
		if (rc < 0)
			fail(rc, &err);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (see " PROG " gen --help)", argv[optind]);
	if (!out)
		usage_error("gen needs an output file: -o OUT.gr, -o OUT.tgb or -o OUT.edges");
	char spec[128];
	cli_gen_spec(&gen, spec, sizeof spec);
	struct cli_gen check;
	if (old.kind && (rc = cli_gen_parse("gen", spec, &check, &err)) < 0) /* the older form's values, checked alike */
		fail(rc, &err);
	check_output(out, NULL);

	const char *what;
	uint64_t limit = cli_memory_limit(max_memory, &what), need = cli_gen_bytes(&gen);
	if (limit && need > limit)
		usage_error("gen %s needs about %" PRIu64 " bytes, more than the limit of %" PRIu64 " (%s); use a smaller graph",
			    spec, need, limit, what);
	struct graph g;
	if ((rc = cli_gen_run(&gen, seed, &g, &err)) < 0)
		fail(rc, &err);
	write_graph(&g, out);
	if (old.kind)
	{
		char abc[96] = "";
		if (gen.kind == CLI_GEN_RMAT && (gen.a != 0.57 || gen.b != 0.19 || gen.c != 0.19))
			snprintf(abc, sizeof abc, " --abc %g,%g,%g", gen.a, gen.b, gen.c);
		fprintf(stderr, PROG ": note: 'gen %s' with options is the older form; the same graph is 'gen %s%s'\n", old.kind,
			spec, abc);
	}
	return 0;
}

int main(int argc, char **argv)
{
	outfile_cleanup_install();
	if (argc < 2)
		usage_error("missing command: info, convert or gen (see " PROG " --help)");
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0)
	{
		fputs(usage_main, stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0)
	{
		tool_print_version_static(PROG);
		return 0;
	}
	if (strcmp(cmd, "info") == 0)
		return cmd_info(argc - 1, argv + 1);
	if (strcmp(cmd, "convert") == 0)
		return cmd_convert(argc - 1, argv + 1);
	if (strcmp(cmd, "gen") == 0)
		return cmd_gen(argc - 1, argv + 1);
	usage_error("unknown command '%s': use info, convert or gen (see " PROG " --help)", cmd);
}
