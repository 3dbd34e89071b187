/* tuccompi-graph: look at, convert and generate the graphs of the APSP application.
 * Exit status: 0 success, 1 input or output error, 2 bad arguments. */
#include "graph.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#define PROG "tuccompi-graph"

static const char usage_main[] =
	"usage: " PROG " COMMAND [ARGS]\n"
	"\n"
	"Look at, convert and generate directed graphs with non-negative integer weights.\n"
	"\n"
	"Commands:\n"
	"  info FILE               vertices, arcs, degrees, weights, isolated vertices\n"
	"  convert IN OUT          rewrite IN as OUT, in the format OUT's name says\n"
	"  gen random|rmat|grid [OPTIONS] -o OUT\n"
	"                          generate a graph (" PROG " gen --help)\n"
	"\n"
	"Files, by name:\n"
	"  .gr    DIMACS shortest-path text: 'p sp VERTICES ARCS', then 'a FROM TO WEIGHT' (1-based)\n"
	"  .mtx   Matrix Market coordinate matrix (read only); symmetric gives both arcs\n"
	"  .tgb   this tool's binary form: checksummed, loads far faster than text\n"
	"\n"
	"Options of info and convert:\n"
	"  --real-scale X      multiply Matrix Market real weights by X, then round (default 1)\n"
	"  --pattern-weight W  weight of the arcs of a pattern Matrix Market file (default 1)\n"
	"\n"
	"Example: " PROG " convert USA-road-d.NY.gr ny.tgb && " PROG " info ny.tgb\n"
	"Exit status: 0 success, 1 input or output error, 2 bad arguments.\n";

static const char usage_gen[] =
	"usage: " PROG " gen random|rmat|grid [OPTIONS] -o OUT\n"
	"\n"
	"  random   each vertex gets an out-degree uniform in MIN..MAX and random targets\n"
	"             -n N              vertices (default 1049088, as in the paper)\n"
	"             --degree MIN:MAX  out-degrees (default 1:9)\n"
	"  rmat     Graph500 R-MAT/Kronecker graph, undirected (both arcs of each edge)\n"
	"             --scale S         2^S vertices (default 20)\n"
	"             --edgefactor E    E * 2^S edges (default 16)\n"
	"             --abc A,B,C       quadrant probabilities (default 0.57,0.19,0.19)\n"
	"  grid     2-D grid, arcs both ways between 4-neighbours (road-like)\n"
	"             --rows R --cols C (default 1024 x 1024)\n"
	"\n"
	"Options of every generator:\n"
	"  --weights MIN:MAX  weights uniform in MIN..MAX (default 1:10, at most 1000000)\n"
	"  --seed S           random seed (default 1); a seed always gives the same graph\n"
	"  -o OUT             output: .gr (DIMACS text) or .tgb (binary)\n"
	"\n"
	"Self-loops and repeated arcs are dropped, so a graph can have a few arcs less\n"
	"than drawn.\n"
	"Example: " PROG " gen random -n 1049088 --degree 1:9 --weights 1:10 -o paper.tgb\n";

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

static void __attribute__((noreturn)) fail(const struct graph_error *err)
{
	fprintf(stderr, PROG ": %s\n", err->msg);
	exit(1);
}

static int to_uint(const char *s, uint64_t min, uint64_t max, uint64_t *v)
{
	char *end;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 10);
	*v = x;
	return *s && !*end && !errno && *s != '-' && x >= min && x <= max;
}

static uint64_t parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max)
{
	uint64_t v;
	if (!to_uint(s, min, max, &v))
		usage_error("%s '%s': expected an integer %" PRIu64 "..%" PRIu64, opt, s, min, max);
	return v;
}

static void parse_range(const char *opt, const char *s, uint64_t max, uint32_t *lo, uint32_t *hi)
{
	const char *colon = strchr(s, ':');
	char buf[32];
	uint64_t a = 0, b = 0;
	int ok = colon && colon - s < (long)sizeof buf;
	if (ok)
	{
		memcpy(buf, s, (size_t)(colon - s));
		buf[colon - s] = '\0';
		ok = to_uint(buf, 0, max, &a) && to_uint(colon + 1, 0, max, &b);
	}
	if (!ok)
		usage_error("%s '%s': expected MIN:MAX, integers 0..%" PRIu64, opt, s, max);
	if (a > b)
		usage_error("%s '%s': MIN is above MAX", opt, s);
	*lo = (uint32_t)a;
	*hi = (uint32_t)b;
}

static double parse_double(const char *opt, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (!*s || *end || !(v >= 0) || v > 1e300)
		usage_error("%s '%s': expected a non-negative number", opt, s);
	return v;
}

static double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && strcasecmp(s + a - b, suffix) == 0;
}

/* The output format comes from the name: checked before any work. */
static void check_output(const char *path)
{
	if (!has_suffix(path, ".gr") && !has_suffix(path, ".tgb"))
		usage_error("cannot write '%s': output files are .gr (DIMACS) or .tgb (binary)", path);
}

/* Write g, named by check_output, and free it. */
static void write_graph(struct graph *g, const char *path)
{
	struct graph_error err;
	int rc = has_suffix(path, ".gr") ? graph_write_dimacs(g, path, &err) : graph_write_binary(g, path, &err);
	graph_free(g);
	if (rc < 0)
		fail(&err);
}

/* info and convert: FILE arguments and the read options. */
static void read_args(int argc, char **argv, int nfiles, const char *usage, struct graph_read_options *opt, char **files)
{
	static const struct option longopts[] = {{"real-scale", required_argument, NULL, 'r'},
						 {"pattern-weight", required_argument, NULL, 'p'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	memset(opt, 0, sizeof *opt);
	opterr = 0;
	optind = 1;
	int c;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1)
		switch (c)
		{
		case 'r':
			opt->real_scale = parse_double("--real-scale", optarg);
			if (opt->real_scale == 0)
				usage_error("--real-scale '%s': must be above 0", optarg);
			break;
		case 'p':
			opt->pattern_weight = (uint32_t)parse_uint("--pattern-weight", optarg, 1, GRAPH_MAX_WEIGHT);
			break;
		case 'h':
			fputs(usage_main, stdout);
			exit(0);
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
		default:
			usage_error("unknown option '%s' (see " PROG " --help)", argv[optind - 1]);
		}
	if (argc - optind != nfiles)
		usage_error("%s takes %s (see " PROG " --help)", argv[0], usage);
	for (int i = 0; i < nfiles; i++)
		files[i] = argv[optind + i];
}

static int cmd_info(int argc, char **argv)
{
	struct graph_read_options opt;
	char *path;
	read_args(argc, argv, 1, "one FILE", &opt, &path);
	struct graph g;
	struct graph_error err;
	double t0 = seconds();
	if (graph_read(path, &opt, &g, &err) < 0)
		fail(&err);
	double t = seconds() - t0;

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
	if (stat(path, &st) == 0 && t > 0)
		printf("read in      %.3f s (%.0f MB/s, %.1f M arcs/s)\n", t, st.st_size / t / 1e6, g.m / t / 1e6);
	graph_free(&g);
	return 0;
}

static int cmd_convert(int argc, char **argv)
{
	struct graph_read_options opt;
	char *files[2];
	read_args(argc, argv, 2, "IN and OUT", &opt, files);
	check_output(files[1]);
	struct graph g;
	struct graph_error err;
	if (graph_read(files[0], &opt, &g, &err) < 0)
		fail(&err);
	write_graph(&g, files[1]);
	return 0;
}

enum gen_kind
{
	GEN_RANDOM,
	GEN_RMAT,
	GEN_GRID,
};

static int cmd_gen(int argc, char **argv)
{
	static const char *const kinds[] = {"random", "rmat", "grid"};
	static const struct option longopts[] = {{"degree", required_argument, NULL, 'd'},
						 {"scale", required_argument, NULL, 's'},
						 {"edgefactor", required_argument, NULL, 'e'},
						 {"abc", required_argument, NULL, 'a'},
						 {"rows", required_argument, NULL, 'R'},
						 {"cols", required_argument, NULL, 'C'},
						 {"weights", required_argument, NULL, 'w'},
						 {"seed", required_argument, NULL, 'S'},
						 {"help", no_argument, NULL, 'h'},
						 {NULL, 0, NULL, 0}};
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
	{
		if (argc < 2)
			usage_error("gen needs a generator: random, rmat or grid (see " PROG " gen --help)");
		fputs(usage_gen, stdout);
		exit(0);
	}
	int kind = -1;
	for (int k = 0; k < 3; k++)
		if (strcmp(argv[1], kinds[k]) == 0)
			kind = k;
	if (kind < 0)
		usage_error("unknown generator '%s': use random, rmat or grid (see " PROG " gen --help)", argv[1]);

	uint32_t n = 1049088, deg_min = 1, deg_max = 9, w_min = 1, w_max = 10, rows = 1024, cols = 1024;
	unsigned scale = 20, edgefactor = 16;
	double abc[3] = {0.57, 0.19, 0.19};
	uint64_t seed = 1;
	const char *out = NULL;
	opterr = 0;
	optind = 1;
	int c;
	argc--;
	argv++;
	while ((c = getopt_long(argc, argv, ":n:o:h", longopts, NULL)) != -1)
	{
		/* An option of another generator is a mistake worth telling. */
		const char *only = NULL, *name = NULL;
		switch (c)
		{
		case 'n':
			n = (uint32_t)parse_uint("-n", optarg, 1, UINT32_MAX - 1);
			name = "-n";
			only = kind == GEN_RANDOM ? NULL : "random";
			break;
		case 'd':
			parse_range("--degree", optarg, UINT32_MAX - 1, &deg_min, &deg_max);
			name = "--degree";
			only = kind == GEN_RANDOM ? NULL : "random";
			break;
		case 's':
			scale = (unsigned)parse_uint("--scale", optarg, 1, 31);
			name = "--scale";
			only = kind == GEN_RMAT ? NULL : "rmat";
			break;
		case 'e':
			edgefactor = (unsigned)parse_uint("--edgefactor", optarg, 1, UINT32_MAX);
			name = "--edgefactor";
			only = kind == GEN_RMAT ? NULL : "rmat";
			break;
		case 'a':
		{
			char *copy = strdup(optarg), *save = NULL, *tok = strtok_r(copy, ",", &save);
			int k = 0;
			for (; tok && k < 3; k++, tok = strtok_r(NULL, ",", &save))
				abc[k] = parse_double("--abc", tok);
			if (k != 3 || tok)
				usage_error("--abc '%s': expected three probabilities A,B,C", optarg);
			free(copy);
			name = "--abc";
			only = kind == GEN_RMAT ? NULL : "rmat";
			break;
		}
		case 'R':
			rows = (uint32_t)parse_uint("--rows", optarg, 1, UINT32_MAX);
			name = "--rows";
			only = kind == GEN_GRID ? NULL : "grid";
			break;
		case 'C':
			cols = (uint32_t)parse_uint("--cols", optarg, 1, UINT32_MAX);
			name = "--cols";
			only = kind == GEN_GRID ? NULL : "grid";
			break;
		case 'w':
			parse_range("--weights", optarg, GRAPH_MAX_WEIGHT, &w_min, &w_max);
			break;
		case 'S':
			seed = parse_uint("--seed", optarg, 0, UINT64_MAX);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(usage_gen, stdout);
			exit(0);
		case ':':
			usage_error("%s needs a value", argv[optind - 1]);
		default:
			usage_error("unknown option '%s' (see " PROG " gen --help)", argv[optind - 1]);
		}
		if (only)
			usage_error("%s is an option of 'gen %s', not of 'gen %s'", name, only, kinds[kind]);
	}
	if (optind < argc)
		usage_error("unexpected argument '%s' (see " PROG " gen --help)", argv[optind]);
	if (!out)
		usage_error("gen needs an output file: -o OUT.gr or -o OUT.tgb");
	check_output(out);

	struct graph g;
	struct graph_error err;
	int rc;
	if (kind == GEN_RANDOM)
		rc = graph_gen_random(n, deg_min, deg_max, w_min, w_max, seed, &g, &err);
	else if (kind == GEN_RMAT)
		rc = graph_gen_rmat(scale, edgefactor, abc[0], abc[1], abc[2], w_min, w_max, seed, &g, &err);
	else
		rc = graph_gen_grid(rows, cols, w_min, w_max, seed, &g, &err);
	if (rc == -EINVAL)
		usage_error("%s", err.msg);
	if (rc < 0)
		fail(&err);
	write_graph(&g, out);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage_error("missing command: info, convert or gen (see " PROG " --help)");
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0)
	{
		fputs(usage_main, stdout);
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
