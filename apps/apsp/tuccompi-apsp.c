/* tuccompi-apsp: shortest paths from many sources of a large graph, one SSSP task per
 * source, on every CPU core and GPU of every rank (the TuCCompi paper's case study).
 * Run with no arguments for a small demo; --help for everything else. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <tuccompi.h>
#include <tuccompi_tune.h>
#include <unistd.h>

#include "cli.h"
#include "graph.h"
#include "sssp.h"


static const char usage_text[] =
	"Usage: tuccompi-apsp [OPTION]... [GRAPH]\n"
	"Shortest paths from many sources of a graph, one task per source, on all CPU cores and GPUs\n"
	"(run under mpirun for several nodes). Without arguments: a small demo on a generated graph.\n"
	"\n"
	"Graph (a file, or --gen):\n"
	"  GRAPH                  .gr (DIMACS shortest path), .mtx (Matrix Market), .tgb (binary cache)\n"
	"  --cache FILE           keep a binary copy of the parsed GRAPH in FILE, reuse it when newer\n"
	"  --gen random:N[:D1-D2[:W1-W2]]  the paper's random graphs: N vertices, out-degree D1..D2\n"
	"                         (default 1-9), weights W1..W2 (default 1-10)\n"
	"  --gen rmat:SCALE[:EF]  Kronecker/R-MAT (Graph500: a=.57 b=.19 c=.19), 2^SCALE vertices,\n"
	"                         EF*2^SCALE undirected edges (default EF 16), weights 1-10\n"
	"  --gen grid:RxC         road-like R x C grid, weights 1-10\n"
	"  --seed S               seed of generators and random sources (default 1)\n"
	"  --mtx-real-scale X     multiply real Matrix Market weights by X before rounding (default 1)\n"
	"\n"
	"Sources (default: random:1024, or all vertices when there are fewer):\n"
	"  --sources all | N | random:N | A-B | a,b,c   (vertex ids count from 0)\n"
	"\n"
	"How to run:\n"
	"  --policy P             eq1, eq2, ms (default), ms-tail (MS that leaves the last tasks to\n"
	"                         faster units), or a StarPU policy (dmda, lws, eager, ...)\n"
	"  --units cpu|gpu|all    which implementations to use (default all)\n"
	"  --mk N|auto            SSSPs at once per GPU (default 4; auto: measure, remember in the\n"
	"                         tuning database)\n"
	"  --tune rules|empirical|cuda   how GPU launch geometry is chosen (default rules)\n"
	"  --ncpu N, --ngpu N     CPU workers / GPUs per node (default: all)\n"
	"  --trace DIR            record an FxT trace; DIR/paje.trace opens in ViTE\n"
	"  --verify K             recompute K sources on the root with the CPU code and compare\n"
	"\n"
	"Output (on rank 0):\n"
	"  -o FILE                per-source table: source, reached, eccentricity, sum, mean of finite\n"
	"                         distances; CSV, or TSV when FILE ends in .tsv; '-' for stdout\n"
	"  --rows FILE            full distance rows (binary: see docs/apsp.md), needs a shared file\n"
	"                         system across nodes\n"
	"  --stats FILE           per-unit statistics as CSV (tasks, busy/idle time, transfers)\n"
	"  --summary              print the run summary: tasks, busy and idle time per unit, shares\n"
	"                         of the run in transfers and cross-rank messages\n"
	"  -q, --quiet            no progress bar or report\n"
	"  -h, --help             this text\n"
	"\n"
	"Examples:\n"
	"  tuccompi-apsp --gen random:1049088 --sources random:4096 --policy ms --mk 4\n"
	"  mpirun -n 2 tuccompi-apsp road.gr --cache road.tgb --sources 0-999 -o ecc.csv\n";

struct options
{
	const char *graph, *cache, *gen, *sources, *policy, *units, *mk, *tune, *trace, *out, *rows, *stats;
	uint64_t seed;
	int ncpu, ngpu, quiet, verify, summary;
	double real_scale;
};

static int rank0(void)
{
	return tuccompi_rank() == 0;
}

/* One line on stderr, once (rank 0 when the library runs, every process before). */
static void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
static void die(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "tuccompi-apsp: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	if (tuccompi_nranks() > 1)
		tuccompi_abort(code);
	exit(code);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

static const char *need_arg(int *i, int argc, char **argv)
{
	if (*i + 1 >= argc)
		die(2, "option %s needs a value (see --help)", argv[*i]);
	return argv[++*i];
}

static void parse_args(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->policy = "ms";
	o->units = "all";
	o->mk = "4";
	o->ncpu = -1;
	o->ngpu = -1;
	o->real_scale = 1;
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];
		uint64_t v;
		if (!strcmp(a, "-h") || !strcmp(a, "--help"))
		{
			fputs(usage_text, stdout);
			exit(0);
		}
		else if (!strcmp(a, "--cache"))
			o->cache = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--gen"))
			o->gen = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--seed"))
		{
			if (parse_u64(need_arg(&i, argc, argv), &o->seed))
				die(2, "--seed wants a non-negative integer, not '%s'", argv[i]);
		}
		else if (!strcmp(a, "--mtx-real-scale"))
		{
			char *end;
			o->real_scale = strtod(need_arg(&i, argc, argv), &end);
			if (*end || !(o->real_scale > 0))
				die(2, "--mtx-real-scale wants a positive number, not '%s'", argv[i]);
		}
		else if (!strcmp(a, "--sources"))
			o->sources = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--policy"))
			o->policy = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--units"))
			o->units = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--mk"))
			o->mk = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--tune"))
			o->tune = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--ncpu") || !strcmp(a, "--ngpu") || !strcmp(a, "--verify"))
		{
			const char *val = need_arg(&i, argc, argv);
			if (parse_u64(val, &v) || v > 100000)
				die(2, "%s wants a non-negative integer, not '%s'", a, val);
			*(!strcmp(a, "--ncpu") ? &o->ncpu : !strcmp(a, "--ngpu") ? &o->ngpu : &o->verify) = (int)v;
		}
		else if (!strcmp(a, "--trace"))
			o->trace = need_arg(&i, argc, argv);
		else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
			o->out = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--rows"))
			o->rows = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--stats"))
			o->stats = need_arg(&i, argc, argv);
		else if (!strcmp(a, "--summary"))
			o->summary = 1;
		else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
			o->quiet = 1;
		else if (a[0] == '-' && a[1])
			die(2, "unknown option '%s' (see --help)", a);
		else if (o->graph)
			die(2, "one graph only: '%s' and '%s'", o->graph, a);
		else
			o->graph = a;
	}
	if (o->graph && o->gen)
		die(2, "give a GRAPH file or --gen, not both");
	if (strcmp(o->units, "cpu") && strcmp(o->units, "gpu") && strcmp(o->units, "all"))
		die(2, "--units wants cpu, gpu or all, not '%s'", o->units);
	if (o->rows && o->out && !strcmp(o->rows, o->out))
		die(2, "--rows and -o name the same file '%s'", o->rows);
}

/* ------------------------------------------------------------------ graph */

static int parse_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "%s", s);
	char *dash = strchr(buf, '-');
	if (!dash)
		return -1;
	*dash = '\0';
	return parse_u64(buf, lo) || parse_u64(dash + 1, hi) || *lo > *hi ? -1 : 0;
}

static void load_graph(const struct options *o, struct graph *g)
{
	struct graph_error err = { "" };
	int ret;
	if (o->graph)
	{
		struct graph_read_options ro = { .format = GRAPH_FORMAT_AUTO, .real_scale = o->real_scale };
		ret = o->cache ? graph_read_cached(o->graph, o->cache, &ro, g, &err) : graph_read(o->graph, &ro, g, &err);
		if (ret < 0)
			die(1, "%s", err.msg);
		return;
	}
	const char *gen = o->gen ? o->gen : "random:50000"; /* the demo */
	char kind[16] = "", rest[128] = "";
	if (sscanf(gen, "%15[^:]:%127s", kind, rest) < 2)
		die(2, "--gen '%s': expected random:N, rmat:SCALE or grid:RxC", gen);
	char *parts[4] = { 0 };
	int np = 0;
	for (char *p = strtok(rest, ":"); p && np < 4; p = strtok(NULL, ":"))
		parts[np++] = p;
	if (!strcmp(kind, "random"))
	{
		uint64_t n, d1 = 1, d2 = 9, w1 = 1, w2 = 10;
		if (parse_u64(parts[0], &n) || n == 0 || n >= UINT32_MAX || (np > 1 && parse_range(parts[1], &d1, &d2)) ||
		    (np > 2 && parse_range(parts[2], &w1, &w2)) || np > 3)
			die(2, "--gen '%s': expected random:N[:D1-D2[:W1-W2]] with 0 < N < 2^32", gen);
		ret = graph_gen_random((uint32_t)n, (uint32_t)d1, (uint32_t)d2, (uint32_t)w1, (uint32_t)w2, o->seed, g, &err);
	}
	else if (!strcmp(kind, "rmat"))
	{
		uint64_t scale, ef = 16;
		if (parse_u64(parts[0], &scale) || scale > 31 || (np > 1 && parse_u64(parts[1], &ef)) || np > 2)
			die(2, "--gen '%s': expected rmat:SCALE[:EDGEFACTOR] with SCALE <= 31", gen);
		ret = graph_gen_rmat((unsigned)scale, (unsigned)ef, 0.57, 0.19, 0.19, 1, 10, o->seed, g, &err);
	}
	else if (!strcmp(kind, "grid"))
	{
		uint64_t r, c;
		char *x = parts[0] ? strchr(parts[0], 'x') : NULL;
		if (!x || np > 1)
			die(2, "--gen '%s': expected grid:ROWSxCOLS", gen);
		*x = '\0';
		if (parse_u64(parts[0], &r) || parse_u64(x + 1, &c) || !r || !c || r * c >= UINT32_MAX)
			die(2, "--gen '%s': expected grid:ROWSxCOLS with ROWS*COLS < 2^32", gen);
		ret = graph_gen_grid((uint32_t)r, (uint32_t)c, 1, 10, o->seed, g, &err);
	}
	else
		die(2, "--gen '%s': unknown generator '%s' (random, rmat, grid)", gen, kind);
	if (ret < 0)
		die(1, "%s", err.msg);
}

/* ------------------------------------------------------------------ sources */

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Random distinct sources (Floyd's sampling when few, a shuffle prefix when many). */
static uint32_t *random_sources(uint32_t n, uint64_t k, uint64_t seed)
{
	uint32_t *src = malloc(k * sizeof(uint32_t));
	if (!src)
		die(1, "out of memory for %" PRIu64 " sources", k);
	uint64_t s = seed ^ 0x5eed5eed5eedULL;
	if (k * 4 < n)
	{
		/* rejection against a bitmap */
		uint8_t *seen = calloc((n + 7) / 8, 1);
		for (uint64_t i = 0; i < k;)
		{
			uint32_t v = (uint32_t)(splitmix(&s) % n);
			if (!(seen[v / 8] & (1u << (v % 8))))
			{
				seen[v / 8] |= (uint8_t)(1u << (v % 8));
				src[i++] = v;
			}
		}
		free(seen);
		return src;
	}
	uint32_t *perm = malloc((size_t)n * sizeof(uint32_t));
	if (!perm)
		die(1, "out of memory for a permutation of %u vertices", n);
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint64_t i = 0; i < k; i++)
	{
		uint64_t j = i + splitmix(&s) % (n - i);
		uint32_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
		src[i] = perm[i];
	}
	free(perm);
	return src;
}

static uint32_t *make_sources(const char *spec, uint32_t n, uint64_t seed, uint64_t *count)
{
	uint64_t v, lo, hi;
	if (!spec)
		spec = n <= 1024 ? "all" : "random:1024";
	if (!strcmp(spec, "all"))
		lo = 0, hi = n - 1;
	else if (!strncmp(spec, "random:", 7))
	{
		if (parse_u64(spec + 7, &v) || v == 0 || v > n)
			die(2, "--sources %s: want random:K with 1 <= K <= %u (the vertex count)", spec, n);
		*count = v;
		return random_sources(n, v, seed);
	}
	else if (strchr(spec, ','))
	{
		uint64_t k = 1;
		for (const char *p = spec; *p; p++)
			k += *p == ',';
		uint32_t *src = malloc(k * sizeof(uint32_t));
		char *copy = strdup(spec), *save = NULL;
		uint64_t i = 0;
		for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		{
			if (parse_u64(t, &v) || v >= n)
				die(2, "--sources: '%s' is not a vertex id in 0..%u", t, n - 1);
			src[i++] = (uint32_t)v;
		}
		free(copy);
		*count = i;
		return src;
	}
	else if (strchr(spec, '-'))
	{
		if (parse_range(spec, &lo, &hi) || hi >= n)
			die(2, "--sources %s: want A-B with 0 <= A <= B < %u", spec, n);
	}
	else if (!parse_u64(spec, &v))
	{
		if (v == 0 || v > n)
			die(2, "--sources %s: want 1 to %u sources", spec, n);
		lo = 0, hi = v - 1;
	}
	else
		die(2, "--sources '%s': use all, N, random:N, A-B or a,b,c", spec);
	*count = hi - lo + 1;
	uint32_t *src = malloc(*count * sizeof(uint32_t));
	if (!src)
		die(1, "out of memory for %" PRIu64 " sources", *count);
	for (uint64_t i = 0; i < *count; i++)
		src[i] = (uint32_t)(lo + i);
	return src;
}

/* ------------------------------------------------------------------ rows file */

/* Binary rows: a 32-byte header ("TCCROWS1", n, number of sources, 8 reserved bytes),
 * the sources (uint32 each), then one row of n uint32 distances per source in the order
 * of the sources. Every rank writes its rows in place; rank 0 renames the temporary file
 * once all succeeded. */
struct rows_file
{
	int fd;
	uint32_t n;
	uint64_t nsrc;
	uint64_t data_off;
	char tmp[4096];
};

static int write_row(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx)
{
	struct rows_file *rf = ctx;
	(void)source;
	size_t len = (size_t)n * sizeof(uint32_t);
	off_t off = (off_t)(rf->data_off + id * len);
	const char *p = (const char *)dist;
	while (len)
	{
		ssize_t w = pwrite(rf->fd, p, len, off);
		if (w < 0)
		{
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
		off += w;
	}
	return 0;
}

static void barrier(void)
{
	tuccompi_barrier();
}

static int all_ok(int ok)
{
	int64_t v = ok;
	if (tuccompi_allreduce_i64(&v, 1, TUCCOMPI_OP_AND) < 0)
		return 0;
	return (int)v;
}

static void rows_open(struct rows_file *rf, const char *path, uint32_t n, const uint32_t *src, uint64_t nsrc)
{
	rf->n = n;
	rf->nsrc = nsrc;
	rf->data_off = 32 + nsrc * sizeof(uint32_t);
	snprintf(rf->tmp, sizeof(rf->tmp), "%s.tmp-%d", path, (int)getpid());
	if (tuccompi_nranks() > 1) /* the same name on every rank: rank 0's pid */
	{
		int pid = (int)getpid();
		tuccompi_bcast(&pid, sizeof(pid), 0);
		snprintf(rf->tmp, sizeof(rf->tmp), "%s.tmp-%d", path, pid);
	}
	int ok = 1;
	char why[4400] = "";
	if (rank0())
	{
		rf->fd = open(rf->tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (rf->fd < 0)
		{
			ok = 0;
			snprintf(why, sizeof(why), "cannot create %s: %s", rf->tmp, strerror(errno));
		}
		else
		{
			unsigned char hdr[32] = "TCCROWS1";
			memcpy(hdr + 8, &n, 4);
			memcpy(hdr + 16, &nsrc, 8);
			uint64_t total = rf->data_off + nsrc * (uint64_t)n * 4;
			if (pwrite(rf->fd, hdr, 32, 0) != 32 ||
			    pwrite(rf->fd, src, nsrc * sizeof(uint32_t), 32) != (ssize_t)(nsrc * sizeof(uint32_t)) ||
			    ftruncate(rf->fd, (off_t)total) < 0)
			{
				ok = 0;
				snprintf(why, sizeof(why), "cannot write %s (%" PRIu64 " bytes): %s", rf->tmp, total,
					 strerror(errno));
			}
		}
	}
	if (!all_ok(ok))
	{
		if (rank0())
			unlink(rf->tmp);
		die(1, "--rows: %s", why[0] ? why : "rank 0 could not create the rows file");
	}
	barrier();
	if (!rank0())
	{
		rf->fd = open(rf->tmp, O_WRONLY);
		ok = rf->fd >= 0;
	}
	if (!all_ok(ok))
	{
		if (rank0())
			unlink(rf->tmp);
		die(1, "--rows %s: not every rank can open it (a file system shared by all nodes is needed)", path);
	}
}

static void rows_close(struct rows_file *rf, const char *path, int ok)
{
	if (fsync(rf->fd) < 0)
		ok = 0;
	close(rf->fd);
	ok = all_ok(ok);
	if (rank0())
	{
		if (!ok || rename(rf->tmp, path) < 0)
		{
			unlink(rf->tmp);
			die(1, "--rows %s: writing the rows failed (%s); nothing was left behind", path,
			    ok ? strerror(errno) : "a rank could not write");
		}
	}
}

/* ------------------------------------------------------------------ progress */

struct progress
{
	_Atomic uint64_t done;
	uint64_t total; /* this rank's share is unknown: show this rank's rate */
	double t0;
	int stop;
	pthread_t th;
};

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void on_done(uint64_t id, const void *result, void *arg)
{
	(void)id;
	(void)result;
	struct progress *p = arg;
	p->done++;
}

static void *progress_thread(void *arg)
{
	struct progress *p = arg;
	int nr = tuccompi_nranks();
	while (!__atomic_load_n(&p->stop, __ATOMIC_RELAXED))
	{
		double el = now_s() - p->t0;
		uint64_t d = p->done;
		/* rank 0 sees its own tasks; with several ranks, scale by the ranks for an estimate */
		double est = nr > 1 ? (double)d * nr : (double)d;
		if (est > (double)p->total)
			est = (double)p->total;
		double rate = el > 0 ? est / el : 0;
		double eta = rate > 0 ? ((double)p->total - est) / rate : 0;
		int width = 30, fill = (int)(width * est / (double)(p->total ? p->total : 1));
		char bar[64];
		for (int i = 0; i < width; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[width] = '\0';
		fprintf(stderr, "\r[%s] %s%.0f/%" PRIu64 " SSSP  %.1f SSSP/s  ETA %.0f s   ", bar, nr > 1 ? "~" : "", est,
			p->total, rate, eta);
		struct timespec nap = { 0, 200000000 };
		nanosleep(&nap, NULL);
	}
	fprintf(stderr, "\r%*s\r", 90, "");
	return NULL;
}

/* ------------------------------------------------------------------ outputs */

static void write_table(const char *path, const uint32_t *src, const struct sssp_summary *res, uint64_t k)
{
	int tsv = strlen(path) > 4 && !strcmp(path + strlen(path) - 4, ".tsv");
	char sep = tsv ? '\t' : ',';
	FILE *f = stdout;
	char tmp[4096];
	if (strcmp(path, "-"))
	{
		snprintf(tmp, sizeof(tmp), "%s.tmp-%d", path, (int)getpid());
		if (!(f = fopen(tmp, "w")))
			die(1, "cannot create %s: %s", tmp, strerror(errno));
	}
	fprintf(f, "source%creached%ceccentricity%csum%cmean\n", sep, sep, sep, sep);
	for (uint64_t i = 0; i < k; i++)
	{
		const struct sssp_summary *r = &res[i];
		double mean = r->reached > 1 ? (double)r->sum / (double)(r->reached - 1) : 0;
		fprintf(f, "%u%c%u%c%u%c%" PRIu64 "%c%.4f\n", src[i], sep, r->reached, sep, r->ecc, sep, r->sum, sep,
			mean);
	}
	if (f != stdout)
	{
		int bad = ferror(f);
		if (fflush(f) || fsync(fileno(f)) || fclose(f) || bad || rename(tmp, path))
		{
			unlink(tmp);
			die(1, "writing %s failed: %s (nothing was left behind)", path, strerror(errno));
		}
	}
}

static void report(const struct tuccompi_taskset_stats *st, double wall, uint64_t k, const char *policy, int mk)
{
	uint64_t cpu_tasks = 0, gpu_tasks = 0;
	double cpu_busy = 0, gpu_busy = 0;
	int ncpu = 0, ngpu = 0;
	for (int u = 0; u < st->nunits; u++)
		if (st->units[u].kind == TUCCOMPI_UNIT_CUDA)
			gpu_tasks += st->units[u].ntasks, gpu_busy += st->units[u].busy_s, ngpu++;
		else
			cpu_tasks += st->units[u].ntasks, cpu_busy += st->units[u].busy_s, ncpu++;
	fprintf(stderr, "%" PRIu64 " SSSP in %.3f s: %.1f SSSP/s (policy %s, MK %d, %d rank(s), %d CPU + %d GPU units)\n",
		k, wall, (double)k / wall, policy, mk, tuccompi_nranks(), ncpu, ngpu);
	if (gpu_tasks)
		fprintf(stderr, "  GPUs:      %" PRIu64 " SSSP, %.3f ms per SSSP per stream\n", gpu_tasks,
			1e3 * gpu_busy / (double)gpu_tasks);
	if (cpu_tasks)
		fprintf(stderr, "  CPU cores: %" PRIu64 " SSSP, %.1f ms per SSSP per core\n", cpu_tasks,
			1e3 * cpu_busy / (double)cpu_tasks);
	for (int r = 0; r < tuccompi_nranks(); r++)
		fprintf(stderr, "  rank %d: %" PRIu64 " SSSP\n", r, st->tasks_per_rank[r]);
	if (tuccompi_nranks() > 1)
		fprintf(stderr, "  cross-rank communication: %.4f s on rank 0 (%.3f%% of the run)\n", st->comm_s,
			100.0 * st->comm_s / wall);
}

/* ------------------------------------------------------------------ main */

int main(int argc, char **argv)
{
	struct options o;
	parse_args(argc, argv, &o);
	int demo = argc == 1;

	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.ncpus = strcmp(o.units, "gpu") ? o.ncpu : 0;
	conf.ncuda = strcmp(o.units, "cpu") ? o.ngpu : 0;
	conf.trace_dir = o.trace;
	conf.quiet = o.quiet;
	int automk = !strcmp(o.mk, "auto");
	uint64_t mk = 4;
	if (!automk && (parse_u64(o.mk, &mk) || mk < 1 || mk > TUCCOMPI_MAX_MK))
		die(2, "--mk wants 1..%d or auto, not '%s'", TUCCOMPI_MAX_MK, o.mk);
	conf.mk = (int)mk;
	conf.mk_max = automk ? 8 : (int)mk;
	if (o.tune)
	{
		enum tuccompi_tune_mode m;
		if (tuccompi_tune_mode_parse(o.tune, &m) < 0)
			die(2, "--tune: %s", tuccompi_last_error());
		tuccompi_tune_set_mode(m);
	}
	const struct tuccompi_policy *policy = NULL;

	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret < 0)
		die(1, "%s", tuccompi_last_error());
	if (!(policy = tuccompi_policy_by_name(o.policy)))
		die(2, "--policy: %s", tuccompi_last_error());
	if (!strcmp(o.units, "gpu") && !sssp_have_cuda())
		die(2, "--units gpu: this build has no CUDA");

	double t_load = now_s();
	struct graph g = { 0 };
	load_graph(&o, &g);
	t_load = now_s() - t_load;
	uint64_t k;
	uint32_t *src = make_sources(o.sources ? o.sources : demo ? "random:256" : NULL, g.n, o.seed, &k);
	if (rank0() && !o.quiet)
	{
		fprintf(stderr, "graph: %u vertices, %" PRIu64 " arcs, weights up to %u (%.2f s to %s)\n", g.n, g.m, g.max_w,
			t_load, o.graph ? "read" : "generate");
		if (demo)
			fprintf(stderr, "demo: %" PRIu64 " sources of a generated random graph (see --help for more)\n", k);
	}

	struct sssp_args args = { .n = g.n };
	struct rows_file rf;
	if (o.rows)
	{
		rows_open(&rf, o.rows, g.n, src, k);
		args.row = write_row;
		args.row_ctx = &rf;
	}
	struct tuccompi_plugin plugin;
	sssp_plugin_init(&plugin, g.n, strcmp(o.units, "gpu") != 0, strcmp(o.units, "cpu") != 0);
	struct sssp_summary *res = rank0() ? calloc(k, sizeof(*res)) : NULL;
	if (rank0() && !res)
		die(1, "out of memory for %" PRIu64 " results", k);
	struct progress prog = { .total = k, .t0 = now_s() };
	struct tuccompi_taskset_desc desc = {
		.plugin = &plugin,
		.ntasks = k,
		.arg = &args,
		.inputs = src,
		.input_size = sizeof(uint32_t),
		.results = res,
		.root = 0,
		.on_done = on_done,
		.on_done_arg = &prog,
	};
	struct sssp_graph gv = apsp_graph_view(&g);
	if ((ret = sssp_shared_register(&gv, &desc)) < 0)
		die(1, "%s", tuccompi_last_error());

	if (automk && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0 && plugin.cuda)
	{
		int best;
		static const int cands[] = { 1, 2, 4, 8 };
		if ((ret = tuccompi_tune_mk(&desc, cands, 4, 16, &best)) < 0)
			die(1, "--mk auto: %s", tuccompi_last_error());
		if (!o.quiet)
			fprintf(stderr, "rank %d: MK = %d (measured or from %s)\n", tuccompi_rank(), best,
				tuccompi_tune_db_path());
		prog.done = 0;
	}

	int show = rank0() && !o.quiet && isatty(2);
	double t0 = now_s();
	prog.t0 = t0;
	if (show)
		pthread_create(&prog.th, NULL, progress_thread, &prog);
	tuccompi_taskset_t ts;
	if ((ret = tuccompi_parallel(policy, &desc, &ts)) < 0)
		die(1, "%s", tuccompi_last_error());
	ret = tuccompi_wait(ts);
	double wall = now_s() - t0;
	if (show)
	{
		__atomic_store_n(&prog.stop, 1, __ATOMIC_RELAXED);
		pthread_join(prog.th, NULL);
	}
	if (ret < 0)
		die(1, "%s", tuccompi_last_error());
	if (o.rows)
		rows_close(&rf, o.rows, !args.row_error);

	int exit_code = 0;
	if (rank0())
	{
		for (uint64_t i = 0; i < k; i++)
			if (res[i].overflow)
				die(1, "distances from source %u reach 2^31: the weights are too large for 32-bit distances "
				       "(scale them down, e.g. --mtx-real-scale)",
				    src[i]);
		struct tuccompi_taskset_stats st;
		tuccompi_taskset_get_stats(ts, &st);
		if (!o.quiet)
			report(&st, wall, k, policy->name, tuccompi_get_mk());
		if (o.stats && tuccompi_taskset_write_csv(ts, o.stats) < 0)
			die(1, "--stats: %s", tuccompi_last_error());
		if (o.summary)
			tuccompi_taskset_print_summary(ts, stderr);
		if (o.out)
			write_table(o.out, src, res, k);
		else if (demo || !o.quiet)
		{
			uint64_t show_n = k < 5 ? k : 5;
			fprintf(stderr, "first sources (use -o FILE for the whole table):\n");
			fprintf(stderr, "  source  reached  eccentricity  mean distance\n");
			for (uint64_t i = 0; i < show_n; i++)
				fprintf(stderr, "  %6u  %7u  %12u  %13.3f\n", src[i], res[i].reached, res[i].ecc,
					res[i].reached > 1 ? (double)res[i].sum / (res[i].reached - 1) : 0.0);
		}
		if (o.verify)
		{
			uint32_t *dist = malloc((size_t)g.n * 4), *heap = malloc((size_t)g.n * 4), *pos = malloc((size_t)g.n * 4);
			uint64_t step = k / (uint64_t)o.verify ? k / (uint64_t)o.verify : 1, bad = 0, checked = 0;
			for (uint64_t i = 0; i < k && checked < (uint64_t)o.verify; i += step, checked++)
			{
				struct sssp_summary ref;
				sssp_dijkstra(&gv, src[i], dist, heap, pos, &ref);
				if (ref.sum != res[i].sum || ref.ecc != res[i].ecc || ref.reached != res[i].reached)
				{
					bad++;
					fprintf(stderr, "verify: source %u differs: reached %u/%u ecc %u/%u sum %" PRIu64 "/%" PRIu64
							"\n",
						src[i], res[i].reached, ref.reached, res[i].ecc, ref.ecc, res[i].sum, ref.sum);
				}
			}
			fprintf(stderr, "verify: %" PRIu64 " source(s) recomputed on the CPU, %" PRIu64 " differ\n", checked, bad);
			free(dist);
			free(heap);
			free(pos);
			if (bad)
				exit_code = 3;
		}
	}
	tuccompi_taskset_destroy(ts);
	sssp_shared_unregister(&desc);
	if ((ret = tuccompi_finalize()) < 0)
		die(1, "%s", tuccompi_last_error());
	graph_free(&g);
	free(src);
	free(res);
	return exit_code;
}
