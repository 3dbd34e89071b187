/* libFuzzer target for the graph readers (DIMACS .gr, Matrix Market .mtx, edge lists, METIS, DIMACS
 * coordinates .co), the binary cache (.tgb) and the cache logic of graph_read_cached. Build and run it with
 * tests/fuzz/run.sh (clang, -fsanitize=fuzzer,address,undefined).
 *
 * An input is one mode byte and the file's bytes. Mode bits:
 *   0-1  format: 0 .gr, 1 .mtx, 2 .tgb, 3 .co (with bit 3: an edge list)
 *   2    text formats: read it from standard input (a pipe: size unknown, no seeking)
 *   3    .tgb: write the right checksum into the header first, so that the checks behind the
 *        checksum (sizes, CSR invariants) see arbitrary arrays; format 3: an edge list, not .co;
 *        format 1: METIS, not .mtx
 *   4-5  real_scale (Matrix Market real, edge lists' decimal weights): 1, 0.001, 1e6 or 3.7
 *   6    pattern_weight 1000000 and real_round 1 (else the defaults: pattern weight 1, real
 *        weights that are not integers refused)
 *   7    text formats: read through graph_read_cached (parse, write the cache, read it back)
 * What must hold (else abort(), which the fuzzer reports): a failed read returns a negative
 * errno, leaves the graph zeroed and says one line naming the file; a successful read gives a
 * valid CSR (graph_validate) that survives the binary, DIMACS and edge-list writers unchanged; no
 * allocation above -malloc_limit_mb (every read has max_bytes = 8 MiB). */
#define _GNU_SOURCE /* memfd_create, F_SETPIPE_SZ */
#include "graph_tgb.h" /* the .tgb header and checksum */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_BYTES (8u << 20) /* 8 MiB: bigger graphs are legal but only cost time under the sanitizers (a 2.2M-vertex header took 11 s instrumented, 20 ms native) */

static int memfd = -1;
static char mem_path[64], dir[PATH_MAX];

static void check(int ok, const char *what)
{
	if (!ok)
	{
		fprintf(stderr, "fuzz_graph: %s\n", what);
		abort();
	}
}

static void set_file(const uint8_t *data, size_t len)
{
	check(ftruncate(memfd, 0) == 0, "ftruncate");
	check(pwrite(memfd, data, len, 0) == (ssize_t)len, "pwrite");
}

/* Make a .tgb's checksum right when its size matches its header's counts. */
static void fix_checksum(uint8_t *data, size_t len)
{
	struct tgb_header h;
	if (len < sizeof h)
		return;
	memcpy(&h, data, sizeof h);
	if (h.n > GRAPH_MAX_VERTICES || h.m > len ||
	    sizeof h + ((uint64_t)h.n + 1) * 8 + h.m * 8 + (uint64_t)h.n * 4 != len)
		return;
	h.checksum = 0;
	uint64_t c = graph_tgb_hash(0, &h, sizeof h);
	const uint8_t *p = data + sizeof h;
	uint64_t parts[4] = {((uint64_t)h.n + 1) * 8, h.m * 4, h.m * 4, (uint64_t)h.n * 4};
	for (int k = 0; k < 4; k++)
	{
		c = graph_tgb_hash(c, p, parts[k]);
		p += parts[k];
	}
	h.checksum = c;
	memcpy(data, &h, sizeof h);
}

static void check_failure(int rc, const struct graph *g, const struct graph_error *err, const char *name)
{
	check(rc < 0, "a read returned a positive value");
	check(!g->n && !g->m && !g->rowptr && !g->col && !g->w && !g->min_out, "a failed read left a graph");
	check(err->msg[0] != '\0', "a failed read said nothing");
	check(!strchr(err->msg, '\n'), "a message of more than one line");
	check(!strncmp(err->msg, name, strlen(name)) || !strncmp(err->msg, "<stdin>", 7) ||
		      !strncmp(err->msg, "out of memory", 13) || !strncmp(err->msg, "arc ", 4),
	      "a message that does not name the file");
}

static void same(const struct graph *a, const struct graph *b)
{
	check(a->n == b->n && a->m == b->m && a->max_w == b->max_w, "round trip: sizes differ");
	check(!memcmp(a->rowptr, b->rowptr, ((size_t)a->n + 1) * 8) && !memcmp(a->col, b->col, a->m * 4) &&
		      !memcmp(a->w, b->w, a->m * 4) && !memcmp(a->min_out, b->min_out, (size_t)a->n * 4),
	      "round trip: arrays differ");
}

static void round_trip(const struct graph *g)
{
	struct graph_error err;
	struct graph back;
	check(graph_validate(g, &err) == 0, "a graph read is not valid");
	if (g->n > 20000 || g->m > 100000)
		return;
	char path[PATH_MAX + 16];
	static const char *const ext[3] = {"tgb", "gr", "edges"};
	for (int k = 0; k < 3; k++)
	{
		snprintf(path, sizeof path, "%s/t.%s", dir, ext[k]);
		int rc = k == 0 ? graph_write_binary(g, path, &err)
			 : k == 1 ? graph_write_dimacs(g, path, &err)
				  : graph_write_edgelist(g, path, &err);
		check(rc == 0, "writing a valid graph failed");
		check(graph_read(path, NULL, &back, &err) == 0, "reading back a graph written failed");
		same(g, &back);
		graph_free(&back);
		unlink(path);
	}
}

/* graph_read("-") on a pipe holding the data. */
static int read_pipe(const uint8_t *data, size_t len, const struct graph_read_options *o, struct graph *g,
		     struct graph_coords *c, int coords, struct graph_error *err)
{
	int fds[2], saved = dup(0);
	check(pipe(fds) == 0 && saved >= 0, "pipe");
	fcntl(fds[1], F_SETPIPE_SZ, 1 << 20);
	if (write(fds[1], data, len) != (ssize_t)len)
	{
		close(fds[0]);
		close(fds[1]);
		close(saved);
		return 1; /* too long for the pipe: skip */
	}
	close(fds[1]);
	check(dup2(fds[0], 0) == 0, "dup2");
	close(fds[0]);
	int rc = coords ? graph_read_coords("-", o, c, err) : graph_read("-", o, g, err);
	check(dup2(saved, 0) == 0, "dup2 back");
	close(saved);
	return rc;
}

static void remove_dir(void)
{
	char path[PATH_MAX + 16];
	for (const char *const *name = (const char *const[]){"t.tgb", "t.gr", "t.edges", "c.tgb", NULL}; *name; name++)
	{
		snprintf(path, sizeof path, "%s/%s", dir, *name);
		unlink(path);
	}
	rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_graph", 0);
	check(memfd >= 0, "memfd_create");
	snprintf(mem_path, sizeof mem_path, "/proc/self/fd/%d", memfd);
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/fuzz_graph.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	check(mkdtemp(dir) != NULL, "mkdtemp");
	atexit(remove_dir);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t size)
{
	if (size < 1)
		return 0;
	static const double scales[4] = {1, 0.001, 1e6, 3.7};
	uint8_t mode = in[0];
	size_t len = size - 1;
	uint8_t *data = malloc(len + 1);
	memcpy(data, in + 1, len);
	int format = mode & 3, from_pipe = (mode >> 2) & 1 && format != 2;
	if (format == 3 && (mode >> 3) & 1)
		format = 4; /* an edge list */
	else if (format == 1 && (mode >> 3) & 1)
		format = 5; /* METIS */
	int cached = (mode >> 7) & 1 && (format < 2 || format >= 4);
	if (format == 2 && (mode >> 3) & 1)
		fix_checksum(data, len);
	set_file(data, len);

	static const enum graph_format formats[6] = {GRAPH_FORMAT_DIMACS, GRAPH_FORMAT_MTX, GRAPH_FORMAT_BINARY,
						     GRAPH_FORMAT_AUTO, GRAPH_FORMAT_EDGELIST, GRAPH_FORMAT_METIS};
	struct graph_read_info info;
	struct graph_read_options o = {.format = formats[format],
				       .real_scale = scales[(mode >> 4) & 3],
				       .pattern_weight = (mode >> 6) & 1 ? GRAPH_MAX_WEIGHT : 0,
				       .real_round = (mode >> 6) & 1,
				       .info = &info,
				       .max_bytes = MAX_BYTES,
				       .max_bytes_what = "fuzz"};
	struct graph g;
	struct graph_coords c;
	struct graph_error err = {{0}};
	int rc;
	if (format == 3)
	{
		rc = from_pipe ? read_pipe(data, len, &o, NULL, &c, 1, &err) : graph_read_coords(mem_path, &o, &c, &err);
		if (rc < 0)
			check(!c.n && !c.x && !c.y && !strchr(err.msg, '\n') && err.msg[0], "a failed .co read");
		else if (rc == 0)
		{
			check(c.n > 0 && c.x && c.y, "coordinates without vertices");
			for (uint32_t v = 0; v < c.n; v++)
				check(c.x[v] >= c.min_x && c.x[v] <= c.max_x && c.y[v] >= c.min_y && c.y[v] <= c.max_y,
				      "a coordinate outside the bounding box");
			graph_coords_free(&c);
		}
	}
	else if (cached)
	{
		char cache[PATH_MAX + 16];
		snprintf(cache, sizeof cache, "%s/c.tgb", dir);
		rc = graph_read_cached(mem_path, cache, &o, &g, &err);
		if (rc < 0)
			check_failure(rc, &g, &err, mem_path);
		else
		{
			struct graph again;
			check(graph_read_cached(mem_path, cache, &o, &again, &err) == 0, "a cache written could not be read");
			same(&g, &again);
			graph_free(&again);
			round_trip(&g);
			graph_free(&g);
		}
		unlink(cache);
	}
	else
	{
		rc = from_pipe ? read_pipe(data, len, &o, &g, NULL, 0, &err) : graph_read(mem_path, &o, &g, &err);
		if (rc < 0)
			check_failure(rc, &g, &err, mem_path);
		else if (rc == 0)
		{
			check(info.rounded == 0 || (o.real_round && info.first_line > 0 && info.max_rounding > 0 &&
						    info.max_rounding <= 0.5),
			      "rounded real weights without real_round, or a rounding out of 0..0.5");
			round_trip(&g);
			graph_free(&g);
		}
	}
	free(data);
	return 0;
}
