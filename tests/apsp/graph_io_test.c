/* Tests of the graph readers and writers (apps/apsp/graph/graph_io.c and the format files beside it):
 *  - every file of tests/data/graphs/good/ reads and matches its .expect, and survives a
 *    round trip through the binary and the DIMACS writers (.co coordinate files: their values);
 *  - every file of tests/data/graphs/bad/ fails with the message of its .expect (file:line),
 *    among them NUL and other control bytes, and headers whose counts need more memory than
 *    max_bytes (refused before allocating, whatever the file's size);
 *  - every control byte but tab (and CR before LF) is refused in .gr, .mtx, .co and edge-list text;
 *  - a header announcing more arcs than the file can hold allocates nothing big; through a
 *    pipe, where the size is unknown, max_bytes refuses it;
 *  - standard input ("-", a pipe or a file on fd 0, and /dev/stdin) reads like a file, needs
 *    its format, and is refused for binary graphs and for caching;
 *  - a text file larger than the read buffer, and over-long lines;
 *  - damaged binary files (every byte flipped in turn, truncations, an extra byte) are
 *    rejected cleanly; one written without a checksum (flag 4, checksum 0) is read, with every
 *    CSR invariant checked;
 *  - graph_read_cached builds, uses and rebuilds its cache (damaged cache, changed source,
 *    changed options, unwritable cache; a cache of rounded real weights says so and is not used
 *    by a read that refuses rounding);
 *  - writers leave nothing behind when they fail, and no temporary file remains;
 *  - I/O errors name the path and the system's reason.
 * (Gzipped inputs: graph_gz_test.c.)
 * The corpus is $top_srcdir/tests/data/graphs; scratch files go to a fresh directory under
 * $TMPDIR, removed at the end. */
#include "graph_io_util.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char corpus[2048];

/* Weight of arc u -> v (0-based), or -1. */
static long long arc_weight(const struct graph *g, uint32_t u, uint32_t v)
{
	for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		if (g->col[e] == v)
			return g->w[e];
	return -1;
}

static void assert_valid(const struct graph *g, const char *what)
{
	struct graph_error err;
	if (graph_validate(g, &err) < 0)
		FAIL("%s: %s", what, err.msg);
}

/* Write g as binary, as DIMACS and as edge lists, read them back: the same graph. */
static void round_trip(const struct graph *g, const char *what)
{
	struct graph_error err;
	struct graph back;
	const char *paths[4] = {in_scratch("trip.tgb"), in_scratch("trip.gr"), in_scratch("trip.edges"), in_scratch("trip.csv")};
	for (int k = 0; k < 4; k++)
	{
		int rc = k == 0 ? graph_write_binary(g, paths[k], &err)
			 : k == 1 ? graph_write_dimacs(g, paths[k], &err)
				  : graph_write_edgelist(g, paths[k], &err);
		if (rc < 0)
			FAIL("%s: writing %s: %s", what, paths[k], err.msg);
		if (graph_read(paths[k], NULL, &back, &err) < 0)
			FAIL("%s: reading back %s: %s", what, paths[k], err.msg);
		assert_same(g, &back, what);
		graph_free(&back);
		unlink(paths[k]);
	}
}

/* ------------------------------------------------------------------ the corpus */

/* The first id of a .expect's vertices: 1 as in .gr and .mtx files, 0 after "ids 0" (edge lists). */
static unsigned long id_base;

static uint32_t vertex(const char *file, int line, const char *s, const struct graph *g)
{
	unsigned long v = strtoul(s, NULL, 10);
	if (v < id_base || v - id_base >= g->n)
		FAIL("%s:%d: vertex %s out of range %lu..%lu", file, line, s, id_base, g->n - 1 + id_base);
	return (uint32_t)(v - id_base);
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* A .co file of the corpus: good ones have "n N", "coord ID X Y" and "bbox MINX MAXX MINY MAXY"
 * lines, bad ones "error" (and "errno") lines. */
static void check_coords(const char *input, const char *expect, int good, const struct graph_read_options *opt,
			 int want_rc)
{
	struct graph_coords c;
	struct graph_error err = {{0}};
	int rc = graph_read_coords(input, opt, &c, &err);
	if (good && rc < 0)
		FAIL("%s: should read, but: %s", input, err.msg);
	if (!good && rc != want_rc)
		FAIL("%s: graph_read_coords returned %d, expected %d (message: %s)", input, rc, want_rc, err.msg);
	if (!good && (c.n || c.x || c.y))
		FAIL("%s: a failed read left coordinates behind", input);
	size_t len;
	char *text = slurp(expect, &len), *save = NULL;
	int nerrors = 0;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
	{
		long long a, b, x, y;
		if (l[0] == '#' || !strncmp(l, "option ", 7) || !strncmp(l, "errno ", 6))
			continue;
		if (!strncmp(l, "error ", 6) && !good)
		{
			if (!strstr(err.msg, l + 6))
				FAIL("%s: the message\n  %s\ndoes not contain\n  %s", input, err.msg, l + 6);
			nerrors++;
		}
		else if (good && sscanf(l, "n %lld", &a) == 1)
			ASSERT_EQ(c.n, a);
		else if (good && sscanf(l, "coord %lld %lld %lld", &a, &x, &y) == 3)
		{
			ASSERT(a >= 1 && a <= c.n);
			ASSERT_EQ(c.x[a - 1], x);
			ASSERT_EQ(c.y[a - 1], y);
		}
		else if (good && sscanf(l, "bbox %lld %lld %lld %lld", &a, &b, &x, &y) == 4)
		{
			ASSERT_EQ(c.min_x, a);
			ASSERT_EQ(c.max_x, b);
			ASSERT_EQ(c.min_y, x);
			ASSERT_EQ(c.max_y, y);
		}
		else
			FAIL("%s: unknown directive: %s", expect, l);
	}
	free(text);
	if (!good && nerrors == 0)
		FAIL("%s: no 'error' line", expect);
	graph_coords_free(&c);
}

static void check_file(const char *sub, const char *name)
{
	char input[8192], expect[8192];
	snprintf(input, sizeof input, "%s/%s/%s", corpus, sub, name);
	snprintf(expect, sizeof expect, "%.*s.expect", (int)(strrchr(input, '.') - input), input);
	if (!exists(expect))
		FAIL("%s has no .expect beside it", input);
	int good = strcmp(sub, "good") == 0;
	size_t len;
	char *text = slurp(expect, &len), *save = NULL;

	/* Options first, then read, then the checks. */
	struct graph_read_options opt = {0};
	int want_rc = -EINVAL, nerrors = 0, narcs = 0;
	id_base = 1;
	for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
	{
		if (strcmp(l, "ids 0") == 0)
			id_base = 0;
		if (sscanf(l, "option real_scale %lf", &opt.real_scale) == 1 ||
		    sscanf(l, "option real_round %d", &opt.real_round) == 1 ||
		    sscanf(l, "option pattern_weight %" SCNu32, &opt.pattern_weight) == 1 ||
		    sscanf(l, "option max_bytes %" SCNu64, &opt.max_bytes) == 1)
			continue;
		if (strcmp(l, "errno ENOMEM") == 0)
			want_rc = -ENOMEM;
	}
	free(text);
	if (ends_with(input, ".co"))
	{
		check_coords(input, expect, good, &opt, want_rc);
		return;
	}
	struct graph g;
	struct graph_error err = {{0}};
	struct graph_read_info info;
	opt.info = &info;
	int rc = graph_read(input, &opt, &g, &err);
	if (good && rc < 0)
		FAIL("%s: should read, but: %s", input, err.msg);
	if (!good)
	{
		if (rc != want_rc)
			FAIL("%s: graph_read returned %d, expected %d (message: %s)", input, rc, want_rc, err.msg);
		if (!is_zeroed(&g))
			FAIL("%s: a failed read left a graph behind", input);
		if (strchr(err.msg, '\n'))
			FAIL("%s: the message is more than one line: %s", input, err.msg);
	}

	text = slurp(expect, &len);
	int line = 0;
	for (char *l = text, *next; *l; l = next)
	{
		line++;
		next = strchr(l, '\n');
		next = next ? (*next = '\0', next + 1) : l + strlen(l);
		char a[64], b[64], c[64];
		if (l[0] == '#' || l[0] == '\0' || strncmp(l, "option ", 7) == 0 || strncmp(l, "errno ", 6) == 0 ||
		    strcmp(l, "ids 0") == 0)
			continue;
		if (strncmp(l, "error ", 6) == 0)
		{
			if (good)
				FAIL("%s:%d: 'error' in a good file's expectations", expect, line);
			if (!strstr(err.msg, l + 6))
				FAIL("%s: the message\n  %s\ndoes not contain\n  %s", input, err.msg, l + 6);
			nerrors++;
			continue;
		}
		if (!good)
			FAIL("%s:%d: unknown directive for a bad file: %s", expect, line, l);
		char key[32];
		int fields = sscanf(l, "%31s %63s %63s %63s", key, a, b, c) - 1;
		long long got = -2, want = -3;
		if (strcmp(key, "n") == 0 && fields == 1)
			got = g.n, want = atoll(a);
		else if (strcmp(key, "m") == 0 && fields == 1)
			got = (long long)g.m, want = atoll(a);
		else if (strcmp(key, "max_w") == 0 && fields == 1)
			got = g.max_w, want = atoll(a);
		else if (strcmp(key, "arc") == 0 && fields == 3)
		{
			got = arc_weight(&g, vertex(expect, line, a, &g), vertex(expect, line, b, &g)), want = atoll(c);
			narcs++;
		}
		else if (strcmp(key, "noarc") == 0 && fields == 2)
			got = arc_weight(&g, vertex(expect, line, a, &g), vertex(expect, line, b, &g)), want = -1;
		else if (strcmp(key, "outdeg") == 0 && fields == 2)
		{
			uint32_t u = vertex(expect, line, a, &g);
			got = (long long)(g.rowptr[u + 1] - g.rowptr[u]), want = atoll(b);
		}
		else if (strcmp(key, "indeg") == 0 && fields == 2)
		{
			uint32_t u = vertex(expect, line, a, &g);
			got = 0, want = atoll(b);
			for (uint64_t e = 0; e < g.m; e++)
				got += g.col[e] == u;
		}
		else if (strcmp(key, "rounded") == 0 && fields == 1)
			got = (long long)info.rounded, want = atoll(a);
		else if (strcmp(key, "first_rounded") == 0 && fields == 1)
			got = (long long)info.first_line, want = atoll(a);
		else if (strcmp(key, "max_rounding") == 0 && fields == 1)
			got = (long long)(info.max_rounding * 1000 + 0.5), want = (long long)(atof(a) * 1000 + 0.5);
		else if (strcmp(key, "min_out") == 0 && fields == 2)
			got = g.min_out[vertex(expect, line, a, &g)], want = strcmp(b, "inf") == 0 ? GRAPH_INF : atoll(b);
		else
			FAIL("%s:%d: unknown directive: %s", expect, line, l);
		if (got != want)
			FAIL("%s:%d: '%s': got %lld", expect, line, l, got);
	}
	free(text);
	if (!good && nerrors == 0)
		FAIL("%s: no 'error' line", expect);
	if (good)
	{
		assert_valid(&g, input);
		if ((uint64_t)narcs > g.m)
			FAIL("%s: %d arcs expected, the graph has %llu", input, narcs, (unsigned long long)g.m);
		round_trip(&g, input);
		graph_free(&g);
	}
}

static int graph_file(const struct dirent *d)
{
	static const char *const kinds[] = {".gr", ".mtx", ".co", ".edges", ".el", ".txt", ".csv", ".tsv", ".graph"};
	for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if (ends_with(d->d_name, kinds[k]) && strlen(d->d_name) > strlen(kinds[k]))
			return 1;
	return 0;
}

static int check_corpus(const char *sub)
{
	char dir[8192];
	snprintf(dir, sizeof dir, "%s/%s", corpus, sub);
	struct dirent **names;
	int count = scandir(dir, &names, graph_file, alphasort);
	if (count <= 0)
		FAIL("no graph files in %s (top_srcdir wrong?)", dir);
	for (int i = 0; i < count; i++)
	{
		check_file(sub, names[i]->d_name);
		free(names[i]);
	}
	free(names);
	return count;
}

/* ------------------------------------------------------------------ text files */

static void test_large_text(void)
{
	/* Larger than the reader's 8 MiB block, so lines straddle block boundaries. */
	struct graph g, back;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(150000, 1, 9, 0, GRAPH_MAX_WEIGHT, 5, &g, &err), 0);
	const char *path = in_scratch("large.gr");
	ASSERT_EQ(graph_write_dimacs(&g, path, &err), 0);
	struct stat st;
	ASSERT(stat(path, &st) == 0 && st.st_size > (9 << 20));
	if (graph_read(path, NULL, &back, &err) < 0)
		FAIL("%s", err.msg);
	assert_same(&g, &back, "DIMACS file over 8 MiB");
	graph_free(&back);
	graph_free(&g);
	unlink(path);
}

static void test_long_lines(void)
{
	struct graph g;
	struct graph_error err;
	size_t len = 1100000;
	char *text = malloc(len + 64);
	ASSERT(text);
	/* A comment just under the 1 MiB limit is fine... */
	strcpy(text, "p sp 2 1\nc ");
	memset(text + 11, 'x', 1000000);
	strcpy(text + 11 + 1000000, "\na 1 2 3\n");
	const char *path = in_scratch("long.gr");
	write_file(path, text, strlen(text));
	if (graph_read(path, NULL, &g, &err) < 0)
		FAIL("%s", err.msg);
	ASSERT_EQ(g.m, 1);
	graph_free(&g);
	/* ...a longer line is refused (a binary file given as text, for instance). */
	memset(text + 11, 'x', len);
	strcpy(text + 11 + len, "\na 1 2 3\n");
	write_file(path, text, strlen(text));
	ASSERT_EQ(graph_read(path, NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "long.gr:2: line longer than");
	ASSERT(is_zeroed(&g));
	free(text);
	unlink(path);
}

static void test_names_and_options(void)
{
	struct graph g;
	struct graph_error err;
	const char *txt = in_scratch("graph.dat");
	write_file(txt, "p sp 2 1\na 1 2 3\n", 17);
	ASSERT_EQ(graph_read(txt, NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "graph.dat: cannot tell the format from the name; use a .gr (DIMACS), .mtx (Matrix "
				     "Market), .tgb (binary), .edges/.el/.txt/.csv/.tsv (edge list) or .graph/.metis (METIS) file");
	/* a DIMACS file named .txt is read as an edge list, and says where it stops */
	const char *astxt = in_scratch("dimacs.txt");
	write_file(astxt, "p sp 2 1\na 1 2 3\n", 17);
	ASSERT_EQ(graph_read(astxt, NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "dimacs.txt:1: source 'p' is not a vertex id (an integer from 0); a header line?");
	unlink(astxt);
	struct graph_read_options opt = {.format = GRAPH_FORMAT_DIMACS};
	ASSERT_EQ(graph_read(txt, &opt, &g, &err), 0);
	ASSERT_EQ(g.m, 1);
	graph_free(&g);
	opt.format = GRAPH_FORMAT_BINARY;
	ASSERT_EQ(graph_read(txt, &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "bad magic");
	unlink(txt);

	ASSERT_EQ(graph_read("road.gr.bz2", NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "road.gr.bz2: bz2 files are not read; decompress it first (or recompress it with gzip");
	ASSERT_EQ(graph_read("road.gz", NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "road.gz: cannot tell the format from the name");

	const char *mtx = in_scratch("p.mtx");
	write_file(mtx, "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", 58);
	opt = (struct graph_read_options){.real_scale = -1};
	ASSERT_EQ(graph_read(mtx, &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "real_scale -1");
	opt = (struct graph_read_options){.pattern_weight = GRAPH_MAX_WEIGHT + 1};
	ASSERT_EQ(graph_read(mtx, &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "pattern_weight 1000001");
	opt.pattern_weight = GRAPH_MAX_WEIGHT;
	ASSERT_EQ(graph_read(mtx, &opt, &g, &err), 0);
	ASSERT_EQ(g.w[0], GRAPH_MAX_WEIGHT);
	graph_free(&g);
	unlink(mtx);
}

static void test_io_errors(void)
{
	struct graph g;
	struct graph_error err;
	const char *missing = in_scratch("missing.gr");
	ASSERT_EQ(graph_read(missing, NULL, &g, &err), -ENOENT);
	ASSERT_STR_CONTAINS(err.msg, missing);
	ASSERT_STR_CONTAINS(err.msg, strerror(ENOENT));
	ASSERT(is_zeroed(&g));

	const char *dir = in_scratch("dir.gr");
	ASSERT(mkdir(dir, 0777) == 0);
	ASSERT_EQ(graph_read(dir, NULL, &g, &err), -EISDIR);
	ASSERT_STR_CONTAINS(err.msg, "dir.gr: read error: ");
	rmdir(dir);

	if (geteuid() != 0) /* root reads anything */
	{
		const char *locked = in_scratch("locked.gr");
		write_file(locked, "p sp 1 0\n", 9);
		chmod(locked, 0);
		ASSERT_EQ(graph_read(locked, NULL, &g, &err), -EACCES);
		ASSERT_STR_CONTAINS(err.msg, strerror(EACCES));
		unlink(locked);
	}
}

/* ------------------------------------------------------------------ binary files */

static void test_binary_damage(void)
{
	struct graph g, back;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(150, 0, 6, 0, 1000, 9, &g, &err), 0);
	const char *good = in_scratch("good.tgb"), *bad = in_scratch("bad.tgb");
	ASSERT_EQ(graph_write_binary(&g, good, &err), 0);
	size_t len;
	unsigned char *data = (unsigned char *)slurp(good, &len);
	ASSERT_EQ(len, 80 + (g.n + 1ull) * 8 + g.m * 8 + g.n * 4ull);

	/* Every single flipped byte is caught, before or by the checksum. The byte is changed in
	 * place: rewriting the file each time can be slow on file systems that discard blocks. */
	write_file(bad, data, len);
	int fd = open(bad, O_WRONLY);
	ASSERT(fd >= 0);
	for (size_t i = 0; i < len; i++)
	{
		unsigned char flipped = data[i] ^ 0x10;
		ASSERT(pwrite(fd, &flipped, 1, (off_t)i) == 1);
		if (graph_read(bad, NULL, &back, &err) == 0)
			FAIL("byte %zu of %zu flipped, yet the file was accepted", i, len);
		ASSERT_STR_CONTAINS(err.msg, "bad.tgb: ");
		ASSERT(is_zeroed(&back));
		ASSERT(pwrite(fd, &data[i], 1, (off_t)i) == 1);
	}
	close(fd);
	size_t cuts[] = {0, 1, 79, 80, 81, len / 2, len - 1};
	for (size_t k = 0; k < sizeof cuts / sizeof *cuts; k++)
	{
		write_file(bad, data, cuts[k]);
		ASSERT_EQ(graph_read(bad, NULL, &back, &err), -EINVAL);
		ASSERT_STR_CONTAINS(err.msg, "truncated");
		ASSERT(is_zeroed(&back));
	}
	unsigned char *longer = malloc(len + 1);
	memcpy(longer, data, len);
	longer[len] = 0;
	write_file(bad, longer, len + 1);
	ASSERT_EQ(graph_read(bad, NULL, &back, &err), -EINVAL);
	free(longer);

	/* Written without a checksum by another program (flag 4, checksum 0): read, every invariant
	 * still checked; the flag with a non-zero checksum is checked as usual. */
	uint32_t flags;
	uint64_t zero = 0;
	memcpy(&flags, data + 32, 4);
	flags |= 4;
	write_file(bad, data, len);
	fd = open(bad, O_WRONLY);
	ASSERT(fd >= 0 && pwrite(fd, &flags, 4, 32) == 4);
	ASSERT_EQ(graph_read(bad, NULL, &back, &err), -EINVAL); /* the old checksum no longer fits */
	ASSERT_STR_CONTAINS(err.msg, "checksum mismatch");
	ASSERT(pwrite(fd, &zero, 8, 72) == 8);
	ASSERT_EQ(graph_read(bad, NULL, &back, &err), 0);
	assert_same(&g, &back, "a .tgb without a checksum");
	graph_free(&back);
	uint32_t col0 = g.n; /* a target out of range: refused by the CSR checks */
	ASSERT(pwrite(fd, &col0, 4, (off_t)(80 + (g.n + 1ull) * 8)) == 4);
	ASSERT_EQ(graph_read(bad, NULL, &back, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "target out of range");
	close(fd);

	/* A graph that is consistent but over the memory limit. */
	struct graph_read_options opt = {.max_bytes = 1000};
	ASSERT_EQ(graph_read(good, &opt, &back, &err), -ENOMEM);
	ASSERT_STR_CONTAINS(err.msg, "more than the limit of 1000");

	ASSERT_EQ(graph_read(good, NULL, &back, &err), 0);
	assert_same(&g, &back, "binary round trip");
	graph_free(&back);
	free(data);
	graph_free(&g);
	unlink(good);
	unlink(bad);
}

/* ------------------------------------------------------------------ the cache */

static ino_t inode(const char *path)
{
	struct stat st;
	if (stat(path, &st) < 0)
		FAIL("%s: %s", path, strerror(errno));
	return st.st_ino;
}

/* Read through the cache and compare with a direct read of the source. */
static void test_cache(void)
{
	struct graph g;
	struct graph_error err;
	const char *src = in_scratch("c.gr"), *cache = in_scratch("c.tgb");
	ASSERT_EQ(graph_gen_grid(7, 9, 1, 100, 1, &g, &err), 0);
	ASSERT_EQ(graph_write_dimacs(&g, src, &err), 0);
	graph_free(&g);

	read_cached_ok(src, cache, NULL, "first read: cache built");
	ino_t ino = inode(cache);
	read_cached_ok(src, cache, NULL, "second read: from the cache");
	ASSERT(inode(cache) == ino); /* not rewritten */

	/* A damaged or truncated cache: the source is parsed again and the cache rewritten. */
	size_t len;
	char *data = slurp(cache, &len);
	data[len / 2] ^= 1;
	write_file(cache, data, len);
	ino = inode(cache);
	read_cached_ok(src, cache, NULL, "damaged cache");
	ASSERT(inode(cache) != ino);
	write_file(cache, data, len / 3);
	ino = inode(cache);
	read_cached_ok(src, cache, NULL, "truncated cache");
	ASSERT(inode(cache) != ino);
	free(data);

	/* A changed source. */
	ASSERT_EQ(graph_gen_grid(9, 7, 1, 100, 2, &g, &err), 0);
	ASSERT_EQ(graph_write_dimacs(&g, src, &err), 0);
	graph_free(&g);
	ino = inode(cache);
	read_cached_ok(src, cache, NULL, "changed source");
	ASSERT(inode(cache) != ino);

	/* Read options that change the weights must not reuse the cache. */
	const char *mtx = in_scratch("c.mtx");
	write_file(mtx, "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", 58);
	read_cached_ok(mtx, cache, NULL, "pattern, weight 1");
	struct graph_read_options opt = {.pattern_weight = 5};
	read_cached_ok(mtx, cache, &opt, "pattern, weight 5");
	ASSERT_EQ(graph_read_cached(mtx, cache, &opt, &g, &err), 0);
	ASSERT_EQ(g.w[0], 5);
	graph_free(&g);

	/* Rounded real weights: the cache says so, and is not used by a read that refuses rounding. */
	const char *real = in_scratch("r.mtx");
	static const char real_text[] = "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 2.5\n";
	write_file(real, real_text, sizeof real_text - 1);
	struct graph_read_info info;
	opt = (struct graph_read_options){.real_round = 1, .info = &info};
	ASSERT_EQ(graph_read_cached(real, cache, &opt, &g, &err), 0);
	ASSERT(info.rounded == 1 && info.first_line == 3 && info.max_rounding == 0.5 && !info.rounded_cache);
	ASSERT_EQ(g.w[0], 3);
	graph_free(&g);
	ASSERT_EQ(graph_read_cached(real, cache, &opt, &g, &err), 0); /* from the cache */
	ASSERT(info.rounded == 0 && info.rounded_cache);
	graph_free(&g);
	opt.real_round = 0;
	ASSERT_EQ(graph_read_cached(real, cache, &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "r.mtx:3: weight 2.5 is not an integer");
	ASSERT(is_zeroed(&g));
	unlink(real);

	/* A cache that cannot be written does not fail the read, and says why. */
	ASSERT_EQ(graph_read_cached(mtx, in_scratch("nodir/c.tgb"), NULL, &g, &err), 0);
	ASSERT_STR_CONTAINS(err.msg, "note: cache not written");
	ASSERT_STR_CONTAINS(err.msg, strerror(ENOENT));
	graph_free(&g);

	/* Errors of the source are the read's errors. */
	ASSERT_EQ(graph_read_cached(in_scratch("nosuch.gr"), cache, NULL, &g, &err), -ENOENT);
	ASSERT_STR_CONTAINS(err.msg, "nosuch.gr");
	ASSERT(is_zeroed(&g));
	write_file(mtx, "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 3\n", 58);
	ASSERT_EQ(graph_read_cached(mtx, cache, NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "c.mtx:3: column 3 out of range");
	ASSERT(is_zeroed(&g));
	unlink(mtx);
	unlink(src);
	unlink(cache);
}

/* ------------------------------------------------------------------ writers */

static void assert_no_temporaries(void)
{
	DIR *d = opendir(scratch);
	ASSERT(d);
	for (struct dirent *e; (e = readdir(d));)
		if (strstr(e->d_name, ".tmp."))
			FAIL("temporary file %s/%s left behind", scratch, e->d_name);
	closedir(d);
}

static void test_writer_failures(void)
{
	struct graph g;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(50, 1, 3, 1, 9, 3, &g, &err), 0);
	for (int k = 0; k < 2; k++)
	{
		int (*write)(const struct graph *, const char *, struct graph_error *) = k ? graph_write_dimacs : graph_write_binary;

		/* Into a directory that does not exist: nothing is created. */
		const char *path = in_scratch("nodir/out.tgb");
		ASSERT_EQ(write(&g, path, &err), -ENOENT);
		ASSERT_STR_CONTAINS(err.msg, "nodir/out.tgb");
		ASSERT_STR_CONTAINS(err.msg, strerror(ENOENT));
		ASSERT(!exists(in_scratch("nodir")));

		/* Onto a directory: the temporary file is written, the rename fails, and the
		 * temporary file is removed. */
		const char *dir = in_scratch("isdir");
		ASSERT(mkdir(dir, 0777) == 0);
		ASSERT(write(&g, dir, &err) < 0);
		ASSERT_STR_CONTAINS(err.msg, "isdir: cannot rename the temporary file onto it");
		assert_no_temporaries();
		rmdir(dir);

		/* An invalid graph is not written. */
		uint32_t saved = g.col[0];
		g.col[0] = g.n;
		path = in_scratch("invalid.out");
		ASSERT_EQ(write(&g, path, &err), -EINVAL);
		ASSERT_STR_CONTAINS(err.msg, "invalid graph");
		ASSERT(!exists(path));
		g.col[0] = saved;

		/* Replacing a file: the new one is complete. */
		path = in_scratch(k ? "replace.gr" : "replace.tgb");
		write_file(path, "old", 3);
		ASSERT_EQ(write(&g, path, &err), 0);
		struct graph back;
		ASSERT_EQ(graph_read(path, NULL, &back, &err), 0);
		assert_same(&g, &back, "replaced file");
		graph_free(&back);
		unlink(path);
	}
	graph_free(&g);
	assert_no_temporaries();
}

/* ------------------------------------------------------------------ hostile text */

static void test_control_bytes(void)
{
	static const char *const forms[][2] = {
		{ "ctl.gr", "p sp 2 1\nc %s\na 1 2 1\n" },
		{ "ctl.mtx", "%%%%MatrixMarket matrix coordinate integer general\n%% %s\n2 2 1\n1 2 1\n" },
		{ "ctl.co", "p aux sp co 1\nc %s\nv 1 0 0\n" },
		{ "ctl.edges", "0 1\n# %s\n1 0\n" },
		{ "ctl.csv", "0,1\n%% %s\n1,0\n" },
	};
	struct graph g;
	struct graph_coords c;
	struct graph_error err;
	for (unsigned f = 0; f < sizeof forms / sizeof forms[0]; f++)
	{
		const char *path = in_scratch(forms[f][0]);
		for (int byte = 0; byte < 256; byte++)
		{
			if (byte == '\n')
				continue;
			char comment[16], text[256];
			snprintf(comment, sizeof comment, "ab%ccd", byte ? byte : '@');
			int len = snprintf(text, sizeof text, forms[f][1], comment);
			if (!byte) /* snprintf stops at a NUL: put it in by hand */
				*strchr(text, '@') = '\0';
			write_file(path, text, (size_t)len);
			int rc = f == 2 ? graph_read_coords(path, NULL, &c, &err) : graph_read(path, NULL, &g, &err);
			int bad = (byte < 0x20 && byte != '\t') || byte == 0x7f;
			if (bad && rc != -EINVAL)
				FAIL("%s: byte 0x%02x in a comment was accepted", forms[f][0], byte);
			if (bad)
			{
				char where[64];
				snprintf(where, sizeof where, "%s:2: ", forms[f][0]);
				ASSERT_STR_CONTAINS(err.msg, where);
				ASSERT_STR_CONTAINS(err.msg, "at column 5");
			}
			if (!bad && rc < 0)
				FAIL("%s: byte 0x%02x in a comment was refused: %s", forms[f][0], byte, err.msg);
			if (!bad)
				f == 2 ? graph_coords_free(&c) : graph_free(&g);
		}
		unlink(path);
	}
}

/* Counts from a header are checked before any allocation: what the rest of a regular file
 * can hold bounds the arc list, max_bytes bounds everything, and both answer at once. */
static void test_header_memory(void)
{
	struct graph g;
	struct graph_error err;
	struct graph_read_options opt = {.max_bytes = 1u << 30, .max_bytes_what = "the test's limit"};
	const char *path = in_scratch("lying.gr");

	/* 10^12 arcs announced, one there: the lines tell, not the allocator. */
	write_file(path, "p sp 3 1000000000000\na 1 2 1\n", 29);
	double t0 = test_now();
	ASSERT_EQ(graph_read(path, &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "lying.gr:2: file ends after 1 arc line but the p line (line 1) announces 1000000000000");
	/* 2^32 - 2 vertices: 51 GB, refused from the header whatever the machine. */
	write_file(path, "p sp 4294967294 1\na 1 2 1\n", 26);
	ASSERT_EQ(graph_read(path, &opt, &g, &err), -ENOMEM);
	ASSERT_STR_CONTAINS(err.msg, "lying.gr:1: the graph (4294967294 vertices, 1 arc) needs");
	ASSERT_STR_CONTAINS(err.msg, "(the test's limit)");
	ASSERT(test_now() - t0 < 5); /* a hang guard, not a speed claim: an allocation of 51 GB would take minutes */
	ASSERT(is_zeroed(&g));

	/* The same file through a pipe: its size is unknown, so the announced counts are checked. */
	int fds[2], saved = dup(0);
	ASSERT(pipe(fds) == 0 && saved >= 0);
	ASSERT(write(fds[1], "p sp 3 1000000000000\na 1 2 1\n", 29) == 29);
	close(fds[1]);
	ASSERT(dup2(fds[0], 0) == 0);
	close(fds[0]);
	opt.format = GRAPH_FORMAT_DIMACS;
	ASSERT_EQ(graph_read("-", &opt, &g, &err), -ENOMEM);
	ASSERT_STR_CONTAINS(err.msg, "<stdin>:1: the graph (3 vertices, 1000000000000 arcs) needs 20000000000044 bytes");
	ASSERT(dup2(saved, 0) == 0);
	close(saved);
	unlink(path);
}

static int read_stdin(const char *text, const struct graph_read_options *opt, struct graph *g, struct graph_error *err)
{
	return read_stdin_bytes(text, strlen(text), opt, g, err);
}

static void test_stdin(void)
{
	struct graph g, direct;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(3000, 1, 9, 1, 100, 4, &g, &err), 0);
	const char *path = in_scratch("in.gr");
	ASSERT_EQ(graph_write_dimacs(&g, path, &err), 0);
	graph_free(&g);
	size_t len;
	char *text = slurp(path, &len); /* about 100 kB: more than a pipe holds at once */
	ASSERT_EQ(graph_read(path, NULL, &direct, &err), 0);

	struct graph_read_options opt = {.format = GRAPH_FORMAT_DIMACS};
	if (read_stdin(text, &opt, &g, &err) < 0)
		FAIL("reading a pipe: %s", err.msg);
	assert_same(&direct, &g, "DIMACS through a pipe");
	graph_free(&g);

	/* A file on fd 0 and /dev/stdin read alike. */
	int saved = dup(0), fd = open(path, O_RDONLY);
	ASSERT(saved >= 0 && fd >= 0 && dup2(fd, 0) == 0);
	close(fd);
	ASSERT_EQ(graph_read("/dev/stdin", &opt, &g, &err), 0);
	assert_same(&direct, &g, "/dev/stdin");
	graph_free(&g);
	ASSERT(dup2(saved, 0) == 0);
	close(saved);

	opt.format = GRAPH_FORMAT_AUTO;
	ASSERT_EQ(read_stdin(text, &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "<stdin>: standard input has no name to tell its format by; give the format");
	opt.format = GRAPH_FORMAT_BINARY;
	ASSERT_EQ(graph_read("-", &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "binary graphs (.tgb) are read from files");
	opt.format = GRAPH_FORMAT_MTX;
	ASSERT_EQ(read_stdin("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 \0012\n", &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "<stdin>:3: control byte 0x01 at column 3");
	ASSERT(is_zeroed(&g));

	/* Standard input cannot be cached; a cache cannot be its own source. */
	ASSERT_EQ(graph_read_cached("-", in_scratch("in.tgb"), &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "standard input cannot be cached");
	ASSERT_EQ(graph_read_cached(path, path, NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "is the graph file itself");
	size_t len2;
	char *after = slurp(path, &len2);
	ASSERT(len2 == len && !memcmp(after, text, len)); /* untouched */
	free(after);
	ASSERT(!exists(in_scratch("in.tgb")));

	graph_free(&direct);
	free(text);
	unlink(path);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	snprintf(corpus, sizeof corpus, "%s/tests/data/graphs", top ? top : ".");
	test_scratch_dir(scratch, sizeof scratch, "graph_io");

	int good = check_corpus("good"), bad = check_corpus("bad");
	test_large_text();
	test_long_lines();
	test_names_and_options();
	test_io_errors();
	test_binary_damage();
	test_cache();
	test_writer_failures();
	test_control_bytes();
	test_header_memory();
	test_stdin();
	remove_scratch();
	printf("graph_io: %d good and %d bad corpus files, binary damage, cache, writers: ok\n", good, bad);
	return 0;
}
