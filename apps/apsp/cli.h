/* Helpers shared by the APSP application's command-line tools (tuccompi-apsp,
 * tuccompi-graph), each written once: clock, strict numbers, the generator specs, the
 * source lists, output-path checks, the memory limit and the progress line. Atomic outputs
 * and the cleanup of temporary files on signals are in outfile.h (the graph library writes
 * through them too).
 *
 * Errors: functions return 0 or a negative errno and fill a struct graph_error with one line
 * (what, where, how to fix). -EINVAL means a bad argument (exit status 2 in the tools). */
#ifndef TUCCOMPI_APSP_CLI_H
#define TUCCOMPI_APSP_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"
#include "outfile.h"
#include "sssp_types.h"

/** The SSSP engines' view of a graph of the graph library (no copy). */
static inline struct sssp_graph apsp_graph_view(const struct graph *g)
{
	struct sssp_graph v = { g->n, g->m, g->rowptr, g->col, g->w, g->min_out, g->max_w };
	return v;
}

/** Seconds on a monotonic clock. */
double cli_now(void);

/* ================================================================ numbers */

/** @p s as a decimal integer in [min, max]: digits only (no sign, blank or suffix).
 *  The message names @p opt: "--seed 'x': not an integer 0..N". */
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

/* ================================================================ option tables */

/* A program declares each option once, in a table of struct cli_option: its name, whether it
 * takes a value, where the value goes and its help text. cli_options_parse() reads argv with
 * it and cli_options_help() prints the help text from it (as GAPBS's command-line class). */

/** How an option's value is taken (into the field at cli_option::off of the program's struct). */
enum cli_opt_kind
{
	CLI_OPT_SECTION, /**< no option: a heading of the help text (cli_option::help), after a blank line */
	CLI_OPT_TEXT,    /**< no option: help text, verbatim, or beside cli_option::label */
	CLI_OPT_FLAG,    /**< no value: the int field becomes 1 */
	CLI_OPT_STRING,  /**< the value as given: a const char * field */
	CLI_OPT_U64,     /**< an integer min..max: a uint64_t field */
	CLI_OPT_U32,     /**< an integer min..max: a uint32_t field */
	CLI_OPT_INT,     /**< an integer min..max (at most INT_MAX): an int field */
	CLI_OPT_DOUBLE,  /**< a finite number dmin..dmax: a double field */
	CLI_OPT_BYTES,   /**< a byte count (cli_parse_bytes): a uint64_t field */
	CLI_OPT_CUSTOM,  /**< cli_option::parse decides */
};

/** One option (or a line of the help text). */
struct cli_option
{
	const char *name;  /**< "--seed"; NULL for headings and text */
	const char *alias; /**< a second name ("-o" beside "--output"), or NULL */
	const char *value; /**< the value's name in the help ("S"); NULL: the option takes no value */
	enum cli_opt_kind kind;
	size_t off;        /**< offsetof() the field in the program's options struct */
	uint64_t min, max; /**< CLI_OPT_U64, U32, INT */
	double dmin, dmax; /**< CLI_OPT_DOUBLE */
	/** CLI_OPT_CUSTOM: take @p value (NULL when the option takes none) for option @p name into
	 *  @p opts; 0, or -EINVAL with a message naming the option. */
	int (*parse)(const char *name, const char *value, void *opts, struct graph_error *err);
	const char *help;  /**< lines separated by '\n'; NULL: not shown (documented by another row) */
	const char *label; /**< shown instead of "NAME VALUE" (e.g. "-q, --quiet"), or NULL */
};

/** Column where the help text of an option starts. */
#define CLI_HELP_COLUMN 25
/** Widest line of help: a longer label puts the help below it. */
#define CLI_HELP_WIDTH 100

/** Read argv[1..argc-1] into @p opts with @p table (@p n rows): options by name or alias, a value
 *  as the next argument or after '=' ("--seed=5"); anything else (and "-") goes to @p positional.
 *  0, or -EINVAL with one line: an unknown option, a missing value, a bad value. */
int cli_options_parse(const struct cli_option *table, size_t n, int argc, char **argv, void *opts,
		      int (*positional)(const char *arg, void *opts, struct graph_error *err), struct graph_error *err);

/** The help text of @p table: headings, then "  NAME VALUE   help" with the help's lines from
 *  column CLI_HELP_COLUMN (all below the label when its first line would pass CLI_HELP_WIDTH). */
void cli_options_help(const struct cli_option *table, size_t n, FILE *f);

/* ================================================================ generated graphs */

/** Text for --help: the generator specs both tools take. */
extern const char cli_gen_help[];

enum cli_gen_kind
{
	CLI_GEN_RANDOM, /**< random:N[:D1-D2[:W1-W2]]  the paper's random graphs */
	CLI_GEN_RMAT,   /**< rmat:SCALE[:EF[:W1-W2]]   Graph500 R-MAT / Kronecker */
	CLI_GEN_GRID,   /**< grid:RxC[:W1-W2]          2-D grid */
	CLI_GEN_ROAD,   /**< road:N                    road-network-like (graph_gen_road) */
};

/** A parsed generator spec, with the defaults filled in. */
struct cli_gen
{
	enum cli_gen_kind kind;
	uint32_t n;                /**< random, road: vertices */
	uint32_t deg_min, deg_max; /**< random: out-degrees (1-9) */
	unsigned scale, edgefactor; /**< rmat (edge factor 16) */
	double a, b, c;            /**< rmat quadrant probabilities (Graph500: .57 .19 .19) */
	uint32_t rows, cols;       /**< grid */
	uint32_t w_min, w_max;     /**< weights (1-10) */
};

/** Parse "KIND:ARGS" (see cli_gen_help). -EINVAL with a message naming @p opt otherwise. */
int cli_gen_parse(const char *opt, const char *spec, struct cli_gen *gen, struct graph_error *err);
/** The spec that gives @p gen, e.g. "random:1000:2-4:0-99" (for notes and logs). */
void cli_gen_spec(const struct cli_gen *gen, char *buf, size_t len);
/** Peak bytes generating it takes (graph_build_bytes of the arcs drawn, an estimate for road). */
uint64_t cli_gen_bytes(const struct cli_gen *gen);
/** Generate it, deterministically for @p seed. */
int cli_gen_run(const struct cli_gen *gen, uint64_t seed, struct graph *g, struct graph_error *err);

/* ================================================================ sources */

/** The sources of a run, from a spec: "all", "first:N" or "N" (vertices 0..N-1: the first N,
 *  not vertex N), "random:N" (N distinct vertices drawn with @p seed), "A-B" ("V-V": vertex V
 *  alone), a list "a,b,c" (distinct ids, no empty items, in this order), or "file:PATH" (such a
 *  list in a file: ids separated by blanks, line ends or commas, '#' comments; errors name
 *  PATH:LINE), for a graph of @p n vertices; ids count from 0. NULL spec: all when n <= 1024, else random:1024.
 *  *src is malloc'd (the caller frees it). -EINVAL for a bad spec, -ENOMEM. */
int cli_sources(const char *spec, uint32_t n, uint64_t seed, uint32_t **src, uint64_t *count, struct graph_error *err);
/** cli_sources for another option of the same syntax (--targets): messages name @p opt and call
 *  the vertices @p noun ("target"). */
int cli_vertex_set(const char *opt, const char *noun, const char *spec, uint32_t n, uint64_t seed, uint32_t **src,
		   uint64_t *count, struct graph_error *err);

/* ================================================================ real weights */

/** The warning of a read that rounded real weights (graph_read_info), one line on @p f:
 *  "PROG: warning: PATH: N real weights rounded to integers (by up to D, ...)" naming @p option
 *  (the tool's real_scale option) and @p scale; nothing when none were rounded. */
void cli_warn_rounding(FILE *f, const char *prog, const char *path, const struct graph_read_info *info, double scale,
		       const char *option);

/* ================================================================ outputs */

/** An output path and the option that named it. */
struct cli_output
{
	const char *option; /**< "-o", "--stats", ... */
	const char *path;   /**< NULL: not given */
	int stdout_ok;      /**< "-" means standard output */
	int is_dir;         /**< a folder the program creates (--trace DIR): outputs may go into it */
};

/** Before any work: every output's folder exists and is writable (or is an is_dir output,
 *  which must be a folder or creatable), the output is not a folder, not one of @p inputs
 *  (same device and inode when both exist, or the same real path), and not another output. -EINVAL for a clash (a bad argument), another negative
 *  errno for a folder that cannot take the file. */
int cli_check_outputs(const struct cli_output *outs, unsigned nout, const char *const *inputs, unsigned nin,
		      struct graph_error *err);

/* ================================================================ memory */

/** Bytes this process can still allocate: the smaller of the kernel's MemAvailable and the
 *  room left under a cgroup limit (v2 memory.max, v1 memory.limit_in_bytes, less what the
 *  group uses beyond reclaimable page cache). *what says which ("available memory" or
 *  "cgroup memory limit"). 0 when neither is known. */
uint64_t cli_memory_available(const char **what);

/** The memory limit a tool checks graphs against: @p option (--max-memory) when not 0, else
 *  cli_memory_available(). *what (static text) says where it comes from and how to change it,
 *  for messages. 0: no limit known. */
uint64_t cli_memory_limit(uint64_t option, const char **what);

/** @p n x @p size zeroed bytes whose pages are already in memory: the first touch (a page fault
 *  per 4 KiB page) done by @p nthreads threads at once (0: the machine's cores, at most 16), with
 *  transparent huge pages asked for. For large outputs that a run's workers would otherwise fault
 *  in one page at a time on their critical path (a 10,000 x 10,000 --matrix is 400 MB). Free
 *  with free(). NULL when out of memory or when n x size overflows. */
void *cli_calloc_touched(size_t n, size_t size, unsigned nthreads);

/* ================================================================ progress */

/** Whether a progress line should be shown: standard output or standard error is a terminal
 *  (mpirun gives ranks a terminal on stdout only; the line itself goes to stderr). */
int cli_progress_wanted(void);

/** One progress line, without newline: a bar, done/total (with "~" when @p approx, i.e. an
 *  estimate from rank 0's share), the rate and an ETA ("ETA --" until a task is done). */
void cli_progress_format(char *buf, size_t len, double done, uint64_t total, double elapsed_s, int approx);

#endif
