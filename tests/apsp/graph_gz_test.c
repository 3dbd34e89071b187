/* Tests of the graph readers' gzipped inputs (apps/apsp/graph/graph_text.c): .gz names and gzipped
 * standard input read as their text does, in one member or several, with padding zeros, through the
 * cache; truncated, damaged and trailed ones fail with a message (nothing read), messages keep the
 * text's line numbers, a pipe whose writer stalls after an error does not hold the reader; binary
 * graphs are not read gzipped, and a text file that starts with 0x1f is no gzip file. Scratch files
 * go to a fresh directory under $TMPDIR, removed at the end. */
#include "graph_io_util.h"

#include <zlib.h>

/* @p len bytes of @p data gzipped into @p path (level 1), in @p members members. */
static void write_gz(const char *path, const void *data, size_t len, int members)
{
	FILE *f = fopen(path, "wb");
	ASSERT(f);
	fclose(f);
	for (int k = 0; k < members; k++)
	{
		size_t from = len * k / members, to = len * (k + 1) / members;
		gzFile z = gzopen(path, k ? "ab1" : "wb1");
		ASSERT(z);
		ASSERT(to == from || gzwrite(z, (const char *)data + from, (unsigned)(to - from)) == (int)(to - from));
		ASSERT_EQ(gzclose(z), Z_OK);
	}
}

static void append_bytes(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "ab");
	ASSERT(f && fwrite(data, 1, len, f) == len && fclose(f) == 0);
}

static void expect_gz_error(const char *path, const char *want)
{
	struct graph g;
	struct graph_error err;
	ASSERT_EQ(graph_read(path, NULL, &g, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, want);
	ASSERT(is_zeroed(&g));
}

static void test_gzip(void)
{
	struct graph g, back;
	struct graph_error err;
	/* over the reader's 8 MiB block once inflated, so lines straddle blocks */
	ASSERT_EQ(graph_gen_random(150000, 1, 9, 0, GRAPH_MAX_WEIGHT, 7, &g, &err), 0);
	const char *plain = in_scratch("z.gr"), *gz = in_scratch("z.gr.gz"), *el = in_scratch("z.edges.gz");
	ASSERT_EQ(graph_write_dimacs(&g, plain, &err), 0);
	size_t len;
	char *text = slurp(plain, &len);
	ASSERT(len > (9u << 20));

	/* one member; then three, with padding zeros after them (gzip -d ignores those too) */
	write_gz(gz, text, len, 1);
	if (graph_read(gz, NULL, &back, &err) < 0)
		FAIL("%s", err.msg);
	assert_same(&g, &back, ".gr.gz");
	graph_free(&back);
	write_gz(gz, text, len, 3);
	char zeros[700] = {0};
	append_bytes(gz, zeros, sizeof zeros);
	if (graph_read(gz, NULL, &back, &err) < 0)
		FAIL("%s", err.msg);
	assert_same(&g, &back, ".gr.gz in three members and padding");
	graph_free(&back);

	/* the cache of a gzipped graph: built from it, then used */
	const char *cache = in_scratch("z.tgb");
	read_cached_ok(gz, cache, NULL, ".gr.gz cached");
	ASSERT(exists(cache));
	read_cached_ok(gz, cache, NULL, ".gr.gz from its cache");
	unlink(cache);

	/* standard input: told by its first bytes */
	size_t zlen;
	char *zdata = slurp(gz, &zlen);
	struct graph_read_options opt = {.format = GRAPH_FORMAT_DIMACS};
	if (read_stdin_bytes(zdata, zlen, &opt, &back, &err) < 0)
		FAIL("gzip through a pipe: %s", err.msg);
	assert_same(&g, &back, "gzip through a pipe");
	graph_free(&back);

	/* damage: truncated, a byte changed, bytes after the data */
	FILE *f = fopen(gz, "wb");
	ASSERT(f && fwrite(zdata, 1, zlen / 2, f) == zlen / 2 && fclose(f) == 0);
	expect_gz_error(gz, "z.gr.gz: the gzip data ends early, after ");
	zdata[zlen / 2] ^= 0x55;
	write_file(gz, zdata, zlen);
	{
		struct graph_error e;
		ASSERT_EQ(graph_read(gz, NULL, &back, &e), -EINVAL);
		ASSERT(strstr(e.msg, "damaged gzip data") || strstr(e.msg, "z.gr.gz:")); /* zlib's check, or the text's */
		ASSERT(is_zeroed(&back));
	}
	zdata[zlen / 2] ^= 0x55;
	write_file(gz, zdata, zlen);
	append_bytes(gz, "c trailing\n", 11);
	expect_gz_error(gz, "z.gr.gz: bytes that are not gzip data follow the gzip data");
	free(zdata);
	unlink(gz);

	/* an edge list, told by the name before .gz */
	ASSERT_EQ(graph_write_edgelist(&g, in_scratch("z.edges"), &err), 0);
	char *eltext = slurp(in_scratch("z.edges"), &len);
	write_gz(el, eltext, len, 1);
	if (graph_read(el, NULL, &back, &err) < 0)
		FAIL("%s", err.msg);
	ASSERT_EQ(back.m, g.m);
	graph_free(&back);
	free(eltext);
	unlink(in_scratch("z.edges"));
	unlink(el);

	/* messages keep the text's line numbers */
	const char *bad = "p sp 3 2\na 1 2 5\na 2 9 1\n";
	write_gz(gz, bad, strlen(bad), 1);
	expect_gz_error(gz, "z.gr.gz:3: arc target 9 out of range 1..3");
	/* ... also from a pipe whose writer then stalls: the error comes without waiting for the writer
	 * (the text in hand is parsed before the next read; the inflating thread waits in poll(), which the close wakes) */
	zdata = slurp(gz, &zlen);
	opt.format = GRAPH_FORMAT_DIMACS;
	ASSERT_EQ(read_stdin_stalled(zdata, zlen, 1, &opt, &back, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "<stdin>:3: arc target 9 out of range 1..3");
	free(zdata);
	/* a small file whose lines are longer than its compressed size */
	char *longc = malloc(200000);
	ASSERT(longc);
	strcpy(longc, "p sp 2 1\nc ");
	memset(longc + 11, 'x', 150000);
	strcpy(longc + 11 + 150000, "\na 1 2 3\n");
	write_gz(gz, longc, strlen(longc), 1);
	if (graph_read(gz, NULL, &back, &err) < 0)
		FAIL("%s", err.msg);
	ASSERT_EQ(back.m, 1);
	graph_free(&back);
	free(longc);
	/* binary graphs are not read gzipped; a text file that starts with 0x1f is no gzip file */
	expect_gz_error(in_scratch("z.tgb.gz"), "binary graphs (.tgb) are read as they are, not gzipped");
	opt.format = GRAPH_FORMAT_BINARY;
	ASSERT_EQ(graph_read(gz, &opt, &back, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "z.gr.gz: a gzip file; binary graphs (.tgb) are read as they are: gunzip it first");
	unlink(gz);
	write_file(plain, "\x1fp sp 2 1\n", 10);
	expect_gz_error(plain, "z.gr:1: control byte 0x1f at column 1");
	unlink(plain);
	free(text);
	graph_free(&g);
}

int main(void)
{
	test_scratch_dir(scratch, sizeof scratch, "graph_gz");
	test_gzip();
	remove_scratch();
	printf("graph_gz: gzipped files and standard input, members, padding, cache, damage: ok\n");
	return 0;
}
