/* Tests of the edge-list reader and writer (apps/apsp/graph/graph_edgelist.c), beyond the
 * corpus that graph_io reads:
 *  - every separator (blanks, tabs, one comma with or without blanks around it) gives the same
 *    graph; n is the largest id + 1, counting targets; a missing weight is 1;
 *  - the names .edges .el .txt .csv .tsv choose the format (any case), and --format edgelist
 *    (GRAPH_FORMAT_EDGELIST) reads any name, standard input included;
 *  - a file larger than the reader's 8 MiB block reads back the graph written;
 *  - hostile sizes: a line naming vertex 4,294,967,293 is refused against max_bytes at its
 *    line, at once; a file of many small lines is refused at the line where the arc list would
 *    pass the limit, and the list never grows past it (through a pipe too);
 *  - the writer: commas for .csv, tabs for .tsv; the vertex count kept by a last self-loop
 *    when the last vertex has no arc, and only then; nothing left behind on failure;
 *  - graph_read_cached caches an edge list like any text file. */
#include "graph.h"
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char scratch[2048];

static const char *in_scratch(const char *name)
{
	static char paths[8][sizeof scratch + 64];
	static int next;
	char *p = paths[next++ % 8];
	snprintf(p, sizeof paths[0], "%s/%s", scratch, name);
	return p;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	size_t len = strlen(text);
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0)
		FAIL("cannot write %s: %s", path, strerror(errno));
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	ASSERT(f);
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	rewind(f);
	char *buf = malloc((size_t)len + 1);
	ASSERT(buf && fread(buf, 1, (size_t)len, f) == (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

static void assert_same(const struct graph *a, const struct graph *b, const char *what)
{
	if (a->n != b->n || a->m != b->m || a->max_w != b->max_w)
		FAIL("%s: n %u/%u, m %llu/%llu, max_w %u/%u differ", what, a->n, b->n, (unsigned long long)a->m,
		     (unsigned long long)b->m, a->max_w, b->max_w);
	if (memcmp(a->rowptr, b->rowptr, (a->n + 1ull) * 8) || memcmp(a->col, b->col, a->m * 4) ||
	    memcmp(a->w, b->w, a->m * 4))
		FAIL("%s: the CSR arrays differ", what);
}

static void test_separators(void)
{
	static const char *const texts[] = {
		"0 1 4\n1 2\n5 0 2\n",       "0\t1\t4\n1\t2\n5\t0\t2\n",     "0,1,4\n1,2\n5,0,2\n",
		"0 , 1 , 4\n1 ,2\n5, 0,2\n", "  0,\t1\t,4  \n1 2\n5\t,0 2\n", "# c\n%% c\n\n0 1 4\r\n1,2\r\n5 0 2",
	};
	struct graph first, g;
	struct graph_error err;
	struct graph_read_options opt = {.format = GRAPH_FORMAT_EDGELIST};
	const char *path = in_scratch("sep.dat");
	for (unsigned k = 0; k < sizeof texts / sizeof texts[0]; k++)
	{
		write_file(path, texts[k]);
		if (graph_read(path, &opt, k ? &g : &first, &err) < 0)
			FAIL("text %u: %s", k, err.msg);
		if (k)
		{
			assert_same(&first, &g, texts[k]);
			graph_free(&g);
		}
	}
	ASSERT_EQ(first.n, 6); /* largest id + 1 */
	ASSERT_EQ(first.m, 3);
	ASSERT_EQ(first.w[first.rowptr[1]], 1); /* 1 -> 2 without a weight */
	graph_free(&first);
	unlink(path);

	/* names choose the format, in any case; other names do not */
	static const char *const names[] = {"g.edges", "g.EL", "g.txt", "g.Csv", "g.tsv"};
	for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++)
	{
		path = in_scratch(names[k]);
		write_file(path, "0 3\n");
		if (graph_read(path, NULL, &g, &err) < 0)
			FAIL("%s: %s", names[k], err.msg);
		ASSERT_EQ(g.n, 4);
		graph_free(&g);
		unlink(path);
	}
}

static void test_large(void)
{
	struct graph g, back;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(300000, 1, 6, 0, GRAPH_MAX_WEIGHT, 3, &g, &err), 0);
	const char *path = in_scratch("large.edges");
	ASSERT_EQ(graph_write_edgelist(&g, path, &err), 0);
	struct stat st;
	ASSERT(stat(path, &st) == 0 && st.st_size > (9 << 20));
	if (graph_read(path, NULL, &back, &err) < 0)
		FAIL("%s", err.msg);
	assert_same(&g, &back, "edge list over 8 MiB");
	graph_free(&back);

	/* through a pipe (standard input), where the size is unknown */
	int fds[2], saved = dup(0);
	ASSERT(pipe(fds) == 0 && saved >= 0);
	pid_t child = fork();
	ASSERT(child >= 0);
	if (child == 0)
	{
		close(fds[0]);
		int fd = open(path, O_RDONLY);
		char buf[1 << 16];
		ssize_t k;
		while ((k = read(fd, buf, sizeof buf)) > 0)
			if (write(fds[1], buf, (size_t)k) != k)
				_exit(1);
		_exit(0);
	}
	close(fds[1]);
	ASSERT(dup2(fds[0], 0) == 0);
	close(fds[0]);
	struct graph_read_options opt = {.format = GRAPH_FORMAT_EDGELIST};
	int rc = graph_read("-", &opt, &back, &err);
	ASSERT(dup2(saved, 0) == 0);
	close(saved);
	int status;
	ASSERT(waitpid(child, &status, 0) == child);
	if (rc < 0)
		FAIL("edge list through a pipe: %s", err.msg);
	assert_same(&g, &back, "edge list through a pipe");
	graph_free(&back);
	graph_free(&g);
	unlink(path);
}

static void test_hostile(void)
{
	struct graph g;
	struct graph_error err;
	struct graph_read_options opt = {.max_bytes = 1u << 30, .max_bytes_what = "the test's limit"};
	const char *path = in_scratch("hostile.edges");

	/* one short line naming the largest id: 51 GB, refused at once */
	write_file(path, "0 1\n0 4294967293\n");
	double t0 = test_now();
	ASSERT_EQ(graph_read(path, &opt, &g, &err), -ENOMEM);
	ASSERT_STR_CONTAINS(err.msg, "hostile.edges:2: vertex id 4294967293 makes the graph 4294967294 vertices");
	ASSERT_STR_CONTAINS(err.msg, "(the test's limit)");
	ASSERT(test_now() - t0 < 5); /* a hang guard: allocating 51 GB would take minutes */
	write_file(path, "0 4294967294\n");
	ASSERT_EQ(graph_read(path, &opt, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "hostile.edges:1: target 4294967294 is too large: ids are 0..4294967293");

	/* 200,000 arcs need 4 MB; a 1 MB limit stops the list where it would pass the limit */
	FILE *f = fopen(path, "w");
	ASSERT(f);
	for (int i = 0; i < 200000; i++)
		fprintf(f, "%d %d\n", i % 100, (i + 1) % 100);
	ASSERT(fclose(f) == 0);
	opt.max_bytes = 1u << 20;
	ASSERT_EQ(graph_read(path, &opt, &g, &err), -ENOMEM);
	ASSERT_STR_CONTAINS(err.msg, "arcs up to this line) needs");
	ASSERT_STR_CONTAINS(err.msg, "more than the limit of 1048576 (the test's limit); use a smaller graph");
	unsigned long line = strtoul(strstr(err.msg, "hostile.edges:") + 14, NULL, 10);
	ASSERT(line > 40000 && line < 60000); /* about 1 MB / 20 bytes an arc */
	opt.max_bytes = 8u << 20;
	ASSERT_EQ(graph_read(path, &opt, &g, &err), 0);
	ASSERT_EQ(g.n, 100);
	ASSERT_EQ(g.m, 100);
	graph_free(&g);
	unlink(path);
}

static void test_writer(void)
{
	struct graph g, back;
	struct graph_error err;
	/* vertex 3 has no arc: the last line keeps n */
	uint32_t src[] = {0, 1, 2}, dst[] = {1, 2, 0}, w[] = {5, 0, 7};
	ASSERT_EQ(graph_from_arcs(4, 3, src, dst, w, &g, &err), 0);
	const char *csv = in_scratch("w.csv"), *tsv = in_scratch("w.tsv"), *el = in_scratch("w.el");
	ASSERT_EQ(graph_write_edgelist(&g, csv, &err), 0);
	ASSERT_EQ(graph_write_edgelist(&g, tsv, &err), 0);
	ASSERT_EQ(graph_write_edgelist(&g, el, &err), 0);
	char *text = slurp(csv);
	ASSERT_STR_CONTAINS(text, "# written by tuccompi-graph: 4 vertices, 3 arcs; SOURCE TARGET WEIGHT, ids from 0\n"
				  "0,1,5\n1,2,0\n2,0,7\n3,3,0\n");
	free(text);
	text = slurp(tsv);
	ASSERT_STR_CONTAINS(text, "\n0\t1\t5\n1\t2\t0\n2\t0\t7\n3\t3\t0\n");
	free(text);
	text = slurp(el);
	ASSERT_STR_CONTAINS(text, "\n0 1 5\n1 2 0\n2 0 7\n3 3 0\n");
	free(text);
	for (int k = 0; k < 3; k++)
	{
		ASSERT_EQ(graph_read(k == 0 ? csv : k == 1 ? tsv : el, NULL, &back, &err), 0);
		assert_same(&g, &back, "edge list round trip");
		graph_free(&back);
	}
	graph_free(&g);

	/* the last vertex named by an arc: no extra line */
	uint32_t src2[] = {0}, dst2[] = {2}, w2[] = {1};
	ASSERT_EQ(graph_from_arcs(3, 1, src2, dst2, w2, &g, &err), 0);
	ASSERT_EQ(graph_write_edgelist(&g, el, &err), 0);
	text = slurp(el);
	ASSERT(strstr(text, "\n0 2 1\n") && !strstr(text, "2 2 0"));
	free(text);

	/* nothing left behind on failure */
	ASSERT_EQ(graph_write_edgelist(&g, in_scratch("nodir/x.edges"), &err), -ENOENT);
	ASSERT_STR_CONTAINS(err.msg, "nodir/x.edges");
	graph_free(&g);
	unlink(csv);
	unlink(tsv);
	unlink(el);
}

static void test_cache(void)
{
	struct graph g, direct;
	struct graph_error err;
	const char *src = in_scratch("c.csv"), *cache = in_scratch("c.tgb");
	write_file(src, "0,1,3\n1,2,4\n2,0\n");
	ASSERT_EQ(graph_read_cached(src, cache, NULL, &g, &err), 0);
	ASSERT_EQ(err.msg[0], '\0');
	ASSERT_EQ(graph_read(src, NULL, &direct, &err), 0);
	assert_same(&direct, &g, "cached edge list");
	graph_free(&g);
	ASSERT_EQ(graph_read_cached(src, cache, NULL, &g, &err), 0); /* from the cache now */
	assert_same(&direct, &g, "edge list from its cache");
	graph_free(&g);
	graph_free(&direct);
	unlink(src);
	unlink(cache);
}

int main(void)
{
	test_scratch_dir(scratch, sizeof scratch, "graph_edgelist");
	test_separators();
	test_large();
	test_hostile();
	test_writer();
	test_cache();
	if (rmdir(scratch) < 0)
		FAIL("%s not empty: %s", scratch, strerror(errno));
	printf("graph_edgelist: separators, names, large files and pipes, hostile sizes, the writer, the cache: ok\n");
	return 0;
}
