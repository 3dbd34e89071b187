/* Tests of the APSP tools' shared helpers (apps/apsp/cli.c) and atomic outputs
 * (apps/apsp/graph/outfile.c), without the runtime:
 *  - numbers: digits only, ranges, byte units, and one-line messages naming the option;
 *  - generator specs: the one syntax, its errors, the canonical spec, memory estimates, and
 *    the same graph as the generator functions for a seed (road:N included);
 *  - sources: every form, the draws of random:K fixed for a seed, empty items and repeated
 *    vertices refused, random:K on a graph of 2^32 - 2 vertices without a 32-bit wrap;
 *  - output checks: missing or unwritable folders, folders as files, an output that is an
 *    input (by inode, through a symbolic link, by name), two outputs naming one file;
 *  - option tables: names, aliases, values (next argument or after '='), every kind of
 *    field, positional arguments, the one-line errors, and the help text's columns;
 *  - the progress line never says "ETA 0 s" before a task is done;
 *  - temporary files: removed by outfile_abort, at exit, and on SIGTERM, SIGINT and SIGHUP
 *    (the signal still ends the process); an ignored SIGINT stays ignored; a forked child
 *    does not remove its parent's files; the two-phase commit of several writers. */
#include "cli.h"
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch[PATH_MAX];

static const char *in_scratch(const char *name)
{
	static char paths[8][PATH_MAX + 64];
	static int next;
	char *p = paths[next++ % 8];
	snprintf(p, PATH_MAX + 64, "%s/%s", scratch, name);
	return p;
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	ASSERT(fd >= 0);
	close(fd);
}

/* Files in scratch whose name contains ".tmp.". */
static int temporaries(void)
{
	DIR *d = opendir(scratch);
	int n = 0;
	ASSERT(d);
	for (struct dirent *e; (e = readdir(d));)
		n += strstr(e->d_name, ".tmp.") != NULL;
	closedir(d);
	return n;
}

static void test_numbers(void)
{
	struct graph_error err;
	uint64_t v, lo, hi;
	uint32_t u;
	double x;
	ASSERT_EQ(cli_parse_u64("--seed", "18446744073709551615", 0, UINT64_MAX, &v, &err), 0);
	ASSERT(v == UINT64_MAX);
	static const char *const bad[] = { "", "-1", "+1", " 1", "1 ", "0x10", "1e3", "18446744073709551616", "12a" };
	for (unsigned k = 0; k < sizeof bad / sizeof *bad; k++)
	{
		ASSERT_EQ(cli_parse_u64("--seed", bad[k], 0, UINT64_MAX, &v, &err), -EINVAL);
		ASSERT_STR_CONTAINS(err.msg, "--seed '");
		ASSERT_STR_CONTAINS(err.msg, "': expected an integer 0..18446744073709551615");
	}
	ASSERT_EQ(cli_parse_u32("--delta", "0", 1, 10, &u, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "--delta '0': expected an integer 1..10");
	ASSERT_EQ(cli_parse_double("--mtx-real-scale", "0.5", 1e-300, 1e300, &x, &err), 0);
	ASSERT(x == 0.5);
	ASSERT_EQ(cli_parse_double("--mtx-real-scale", "nan", 1e-300, 1e300, &x, &err), -EINVAL);
	ASSERT_EQ(cli_parse_double("--mtx-real-scale", "inf", 1e-300, 1e300, &x, &err), -EINVAL);
	ASSERT_EQ(cli_parse_double("--mtx-real-scale", "0", 1e-300, 1e300, &x, &err), -EINVAL);
	ASSERT_EQ(cli_parse_double("--mtx-real-scale", "2x", 1e-300, 1e300, &x, &err), -EINVAL);
	ASSERT_EQ(cli_parse_range("D1-D2", "2-4", '-', 0, 9, &lo, &hi, &err), 0);
	ASSERT(lo == 2 && hi == 4);
	ASSERT_EQ(cli_parse_range("D1-D2", "4-2", '-', 0, 9, &lo, &hi, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "D1-D2 '4-2': LO is above HI");
	ASSERT_EQ(cli_parse_range("D1-D2", "2-", '-', 0, 9, &lo, &hi, &err), -EINVAL);
	ASSERT_EQ(cli_parse_range("D1-D2", "2-10", '-', 0, 9, &lo, &hi, &err), -EINVAL);

	static const struct
	{
		const char *s;
		uint64_t v;
	} bytes[] = { { "1500000000", 1500000000 }, { "512M", 512ull << 20 }, { "4G", 4ull << 30 },
		      { "4g", 4ull << 30 },	    { "4GB", 4ull << 30 },	{ "4GiB", 4ull << 30 },
		      { "1T", 1ull << 40 },	    { "2k", 2048 } };
	for (unsigned k = 0; k < sizeof bytes / sizeof *bytes; k++)
	{
		ASSERT_EQ(cli_parse_bytes("--max-memory", bytes[k].s, &v, &err), 0);
		ASSERT(v == bytes[k].v);
	}
	ASSERT_EQ(cli_parse_bytes("--max-memory", "4X", &v, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "--max-memory '4X': unknown unit 'X'; write bytes (1500000000) or use K, M, G or T");
	ASSERT_EQ(cli_parse_bytes("--max-memory", "4Gx", &v, &err), -EINVAL);
	ASSERT_EQ(cli_parse_bytes("--max-memory", "G", &v, &err), -EINVAL);
	ASSERT_EQ(cli_parse_bytes("--max-memory", "0", &v, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "must be above 0");
	ASSERT_EQ(cli_parse_bytes("--max-memory", "99999999999T", &v, &err), -EINVAL);
}

static void test_gen_specs(void)
{
	struct cli_gen g;
	struct graph_error err;
	char spec[128];
	static const struct
	{
		const char *in, *canonical;
	} good[] = {
		{ "random:1000", "random:1000:1-9:1-10" },   { "random:1000:2-4:0-99", "random:1000:2-4:0-99" },
		{ "rmat:8", "rmat:8:16:1-10" },	      { "rmat:8:4:5-5", "rmat:8:4:5-5" },
		{ "grid:3x4", "grid:3x4:1-10" },	      { "grid:3x4:7-9", "grid:3x4:7-9" },
		{ "road:500", "road:500" },
	};
	for (unsigned k = 0; k < sizeof good / sizeof *good; k++)
	{
		if (cli_gen_parse("--gen", good[k].in, &g, &err) < 0)
			FAIL("%s: %s", good[k].in, err.msg);
		cli_gen_spec(&g, spec, sizeof spec);
		if (strcmp(spec, good[k].canonical))
			FAIL("%s gave %s, not %s", good[k].in, spec, good[k].canonical);
	}
	static const struct
	{
		const char *in, *msg;
	} bad[] = {
		{ "random", "--gen 'random': expected random:N[:D1-D2[:W1-W2]]" },
		{ "random:abc", "--gen 'random:abc': N 'abc': expected an integer 1..4294967294; the spec is random:N" },
		{ "random:0", "N '0': expected an integer 1..4294967294" },
		{ "random:4294967295", "N '4294967295': expected an integer 1..4294967294" },
		{ "random:10:5-2", "D1-D2 '5-2': LO is above HI" },
		{ "random:10:1-2:1-2000000", "W1-W2 '1-2000000': expected LO-HI, integers 0..1000000" },
		{ "random:10:1-2:1-2:9", "expected random:N[:D1-D2[:W1-W2]]" },
		{ "rmat:0", "SCALE '0': expected an integer 1..31" },
		{ "rmat:32", "SCALE '32': expected an integer 1..31" },
		{ "grid:3", "expected grid:RxC[:W1-W2], e.g. grid:1024x1024" },
		{ "grid:65536x65536", "65536 x 65536 vertices, at most 4294967294 in all" },
		{ "road:10:2", "expected road:N" },
		{ "fractal:3", "unknown generator 'fractal'; use random:N, rmat:SCALE, grid:RxC or road:N" },
	};
	for (unsigned k = 0; k < sizeof bad / sizeof *bad; k++)
	{
		if (cli_gen_parse("--gen", bad[k].in, &g, &err) != -EINVAL)
			FAIL("%s was accepted", bad[k].in);
		ASSERT_STR_CONTAINS(err.msg, bad[k].msg);
		ASSERT(!strchr(err.msg, '\n'));
	}

	/* The spec is a name for what the generator functions make. */
	struct graph a, b;
	ASSERT_EQ(cli_gen_parse("--gen", "random:2000:1-6:1-20", &g, &err), 0);
	ASSERT_EQ(cli_gen_run(&g, 5, &a, &err), 0);
	ASSERT_EQ(graph_gen_random(2000, 1, 6, 1, 20, 5, &b, &err), 0);
	ASSERT(a.m == b.m && !memcmp(a.col, b.col, a.m * 4) && !memcmp(a.w, b.w, a.m * 4));
	ASSERT(cli_gen_bytes(&g) >= graph_bytes(&a));
	graph_free(&a);
	graph_free(&b);
	/* road:N is graph_gen_road's. */
	ASSERT_EQ(cli_gen_parse("--gen", "road:500", &g, &err), 0);
	ASSERT_EQ(cli_gen_run(&g, 1, &a, &err), 0);
	ASSERT_EQ(graph_gen_road(500, 1, &b, &err), 0);
	ASSERT(a.n == 500 && a.m == b.m && !memcmp(a.col, b.col, a.m * 4) && !memcmp(a.w, b.w, a.m * 4));
	ASSERT(cli_gen_bytes(&g) >= graph_bytes(&a));
	graph_free(&a);
	graph_free(&b);
	ASSERT_EQ(cli_gen_parse("--gen", "random:4294967294", &g, &err), 0);
	ASSERT(cli_gen_bytes(&g) > (400ull << 30)); /* 4.3e9 vertices with 9 arcs each */
	ASSERT_EQ(cli_gen_parse("--gen", "rmat:31", &g, &err), 0);
	ASSERT(cli_gen_bytes(&g) > (1ull << 40));
}

static void test_sources(void)
{
	struct graph_error err;
	uint32_t *src;
	uint64_t k;
	ASSERT_EQ(cli_sources("all", 5, 1, &src, &k, &err), 0);
	ASSERT(k == 5 && src[0] == 0 && src[4] == 4);
	free(src);
	ASSERT_EQ(cli_sources(NULL, 2000, 1, &src, &k, &err), 0); /* random:1024 */
	ASSERT_EQ(k, 1024);
	free(src);
	ASSERT_EQ(cli_sources("3", 5, 1, &src, &k, &err), 0);
	ASSERT(k == 3 && src[2] == 2);
	free(src);
	ASSERT_EQ(cli_sources("first:3", 5, 1, &src, &k, &err), 0); /* the same, unambiguous */
	ASSERT(k == 3 && src[0] == 0 && src[2] == 2);
	free(src);
	ASSERT_EQ(cli_sources("3-3", 5, 1, &src, &k, &err), 0); /* vertex 3 alone */
	ASSERT(k == 1 && src[0] == 3);
	free(src);
	ASSERT_EQ(cli_sources("2-4", 5, 1, &src, &k, &err), 0);
	ASSERT(k == 3 && src[0] == 2 && src[2] == 4);
	free(src);
	ASSERT_EQ(cli_sources("4,0,2", 5, 1, &src, &k, &err), 0);
	ASSERT(k == 3 && src[0] == 4 && src[1] == 0 && src[2] == 2);
	free(src);

	/* file:PATH: blanks, line ends, commas, comments; errors at PATH:LINE */
	const char *ids = in_scratch("ids.txt");
	FILE *f = fopen(ids, "w");
	ASSERT(f);
	fputs("# sources\n4\n0, 2\t1 # and one more\r\n\n3", f);
	fclose(f);
	char spec[PATH_MAX + 64];
	snprintf(spec, sizeof spec, "file:%s", ids);
	ASSERT_EQ(cli_sources(spec, 5, 1, &src, &k, &err), 0);
	ASSERT(k == 5 && src[0] == 4 && src[1] == 0 && src[2] == 2 && src[3] == 1 && src[4] == 3);
	free(src);
	static const struct
	{
		const char *text, *msg;
	} bad_files[] = {
		{ "1\n2\n5\n", ":3: '5' is not a vertex id 0..4" },
		{ "1\n\n1\n", ":3: vertex 1 is listed twice" },
		{ "0 x\n", ":1: 'x' is not a vertex id 0..4" },
		{ "-1\n", ":1: '-1' is not a vertex id" },
		{ "# none\n\n", ": no vertex id in the file" },
		{ "123456789012345678901234567890\n", ":1: '12345678901234567890123" },
	};
	for (unsigned i = 0; i < sizeof bad_files / sizeof *bad_files; i++)
	{
		f = fopen(ids, "w");
		ASSERT(f);
		fputs(bad_files[i].text, f);
		fclose(f);
		ASSERT_EQ(cli_sources(spec, 5, 1, &src, &k, &err), -EINVAL);
		ASSERT_STR_CONTAINS(err.msg, spec);
		ASSERT_STR_CONTAINS(err.msg, bad_files[i].msg);
		ASSERT(src == NULL && k == 0);
	}
	unlink(ids);
	snprintf(spec, sizeof spec, "file:%s", ids);
	ASSERT_EQ(cli_sources(spec, 5, 1, &src, &k, &err), -ENOENT);
	ASSERT_STR_CONTAINS(err.msg, "cannot open");

	/* The draws of random:K are part of the outputs' definition: these are what the tool has
	 * always drawn (tuccompi-apsp of 2026-11-30), for both ways of drawing (bitmap, shuffle). */
	static const uint32_t few[4] = { 198, 705, 559, 934 }, all[10] = { 8, 1, 7, 0, 5, 3, 2, 4, 9, 6 };
	ASSERT_EQ(cli_sources("random:4", 1000, 1, &src, &k, &err), 0);
	ASSERT(k == 4 && !memcmp(few, src, sizeof few));
	free(src);
	ASSERT_EQ(cli_sources("random:10", 10, 7, &src, &k, &err), 0);
	ASSERT(k == 10 && !memcmp(all, src, sizeof all));
	free(src);

	static const struct
	{
		const char *spec, *msg;
	} bad[] = {
		{ ",", "--sources ',': item 1 is empty; list vertex ids like 0,5,9" },
		{ ",,", "item 1 is empty" },
		{ "1,,2", "item 2 is empty" },
		{ "1,2,", "item 3 is empty" },
		{ "3,3", "--sources '3,3': vertex 3 is listed twice; list each source once" },
		{ "1,x", "'x' is not a vertex id 0..4" },
		{ "1,5", "'5' is not a vertex id 0..4" },
		{ "", "--sources '': empty" },
		{ "0", "--sources '0': want 1 to 5 sources (N means the first N vertices, 0..N-1; one vertex V alone is V-V)" },
		{ "6", "want 1 to 5 sources" },
		{ "first:0", "want 1 to 5 sources (first:N means the first N vertices" },
		{ "first:x", "--sources 'first:x': want first:N, N an integer 1..5" },
		{ "first:", "want first:N" },
		{ "random:0", "want random:K with 1 <= K <= 5" },
		{ "random:6", "want random:K with 1 <= K <= 5" },
		{ "2-9", "want A-B with 0 <= A <= B < 5" },
		{ "4-2", "want A-B" },
		{ "-", "want A-B" },
		{ "some", "use all, first:N, random:N, A-B or a,b,c" },
	};
	for (unsigned i = 0; i < sizeof bad / sizeof *bad; i++)
	{
		if (cli_sources(bad[i].spec, 5, 1, &src, &k, &err) != -EINVAL)
			FAIL("--sources '%s' was accepted", bad[i].spec);
		ASSERT_STR_CONTAINS(err.msg, bad[i].msg);
		ASSERT(src == NULL && k == 0);
	}

	/* n near 2^32: the bitmap of random:K must not wrap ((n + 7) / 8 in 32 bits is 0). */
	ASSERT_EQ(cli_sources("random:3", GRAPH_MAX_VERTICES, 1, &src, &k, &err), 0);
	ASSERT_EQ(k, 3);
	for (unsigned i = 0; i < 3; i++)
		ASSERT(src[i] < GRAPH_MAX_VERTICES);
	free(src);
}

static void test_outputs(void)
{
	struct graph_error err;
	char in[PATH_MAX + 64]; /* in_scratch's buffers are reused */
	snprintf(in, sizeof in, "%s", in_scratch("g.gr"));
	touch(in);
	const char *inputs[] = { in };
	struct cli_output o[3] = { { .option = "-o", .stdout_ok = 1 }, { .option = "--stats" }, { .option = "--trace", .is_dir = 1 } };

	o[0].path = in_scratch("t.csv");
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), 0);
	o[0].path = "-";
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), 0);
	o[1].path = "-";
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "--stats -: standard output is not taken here; name a file");
	o[1].path = NULL;

	o[0].path = in_scratch("nodir/t.csv");
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -ENOENT);
	ASSERT_STR_CONTAINS(err.msg, "nodir/t.csv: folder ");
	ASSERT_STR_CONTAINS(err.msg, "nodir does not exist; create it first or name another folder");
	o[0].path = in_scratch("g.gr/t.csv"); /* a file as a folder */
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -ENOTDIR);
	o[0].path = scratch;
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -EISDIR);
	ASSERT_STR_CONTAINS(err.msg, ": is a folder; name a file in it");
	if (geteuid() != 0) /* root writes anywhere */
	{
		const char *ro = in_scratch("ro");
		ASSERT(mkdir(ro, 0555) == 0);
		o[0].path = in_scratch("ro/t.csv");
		ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -EACCES);
		ASSERT_STR_CONTAINS(err.msg, "cannot write in folder");
		rmdir(ro);
	}

	/* The input, under its own name, another spelling, and a symbolic link. */
	char other[PATH_MAX + 80];
	snprintf(other, sizeof other, "%s/./g.gr", scratch);
	char link[PATH_MAX + 64];
	snprintf(link, sizeof link, "%s", in_scratch("link.gr"));
	ASSERT(symlink(in, link) == 0);
	const char *names[] = { in, other, link };
	for (unsigned k = 0; k < 3; k++)
	{
		o[0].path = names[k];
		ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -EINVAL);
		ASSERT_STR_CONTAINS(err.msg, "is the input ");
		ASSERT_STR_CONTAINS(err.msg, ": writing it would destroy the input; name another file");
	}
	unlink(link);

	/* Two outputs, one file (existing or not). */
	o[0].path = in_scratch("same.csv");
	o[1].path = in_scratch("./same.csv");
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -EINVAL);
	ASSERT_STR_CONTAINS(err.msg, "-o and --stats both name ");
	touch(o[0].path);
	ASSERT_EQ(cli_check_outputs(o, 2, inputs, 1, &err), -EINVAL);
	unlink(o[0].path);
	ASSERT(!exists(in_scratch("same.csv")));

	/* Outputs may go into the folder --trace creates; that folder must be creatable. */
	o[0].path = in_scratch("tr/a/t.csv");
	o[1].path = NULL;
	o[2].path = in_scratch("tr/a/");
	if (cli_check_outputs(o, 3, inputs, 1, &err) < 0)
		FAIL("an output in the --trace folder: %s", err.msg);
	o[0].path = in_scratch("tr/b/t.csv");
	ASSERT_EQ(cli_check_outputs(o, 3, inputs, 1, &err), -ENOENT);
	o[0].path = NULL;
	o[2].path = in; /* a file */
	ASSERT_EQ(cli_check_outputs(o, 3, inputs, 1, &err), -ENOTDIR);
	ASSERT_STR_CONTAINS(err.msg, "--trace ");
	ASSERT_STR_CONTAINS(err.msg, ": not a folder; name a folder");
	ASSERT(!exists(in_scratch("tr")));
	unlink(in);
}

static void test_progress(void)
{
	char line[160];
	cli_progress_format(line, sizeof line, 0, 200, 3.0, 0);
	ASSERT_STR_CONTAINS(line, " 0/200 SSSP  0.0 SSSP/s  ETA --");
	cli_progress_format(line, sizeof line, 0, 200, 0, 1);
	ASSERT_STR_CONTAINS(line, "~0/200 SSSP");
	ASSERT(!strstr(line, "ETA 0 s"));
	cli_progress_format(line, sizeof line, 50, 200, 5.0, 0);
	ASSERT_STR_CONTAINS(line, "[#######.......................] 50/200 SSSP  10.0 SSSP/s  ETA 15 s");
	cli_progress_format(line, sizeof line, 200, 200, 5.0, 0);
	ASSERT_STR_CONTAINS(line, "ETA 0 s");
}

/* In a child: register PATH's temporary file, then do @p what. The parent gets the status. */
static int child_with_temporary(const char *path, int what)
{
	pid_t pid = fork();
	ASSERT(pid >= 0);
	if (pid == 0)
	{
		struct outfile o;
		struct graph_error err;
		/* Whatever the test runs under (nohup, a background job of a script): */
		signal(SIGINT, what == 3 ? SIG_IGN : SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		outfile_cleanup_install();
		if (outfile_open(&o, path, &err) < 0 || outfile_write(&o, "x", 1, &err) < 0)
			_exit(100);
		switch (what)
		{
		case 0:
			_exit(0); /* no exit handlers: the file stays (the parent checks the test works) */
		case 1:
			exit(7); /* exit handlers */
		case 2:
			raise(SIGTERM);
			break;
		case 3:
			raise(SIGINT); /* ignored */
			_exit(outfile_commit(&o, &err) < 0 ? 101 : 9);
		case 4:
			raise(SIGINT);
			break;
		case 5:
			raise(SIGHUP);
			break;
		case 6:
			if (fork() == 0)
				exit(0); /* a forked child leaves its parent's files alone */
			wait(NULL);
			exit(exists(o.tmp) ? 8 : 102);
		}
		_exit(103);
	}
	int status;
	ASSERT(waitpid(pid, &status, 0) == pid);
	return status;
}

static void test_temporaries(void)
{
	struct graph_error err;
	struct outfile o;
	const char *path = in_scratch("out.bin");

	/* Abort removes; commit renames; nothing is left either way. */
	ASSERT_EQ(outfile_open(&o, path, &err), 0);
	ASSERT_EQ(temporaries(), 1);
	outfile_abort(&o);
	ASSERT_EQ(temporaries(), 0);
	ASSERT(!exists(path));
	ASSERT_EQ(outfile_open(&o, path, &err), 0);
	FILE *f = outfile_stream(&o, &err);
	ASSERT(f);
	fprintf(f, "hello\n");
	ASSERT_EQ(outfile_commit(&o, &err), 0);
	ASSERT_EQ(temporaries(), 0);
	ASSERT(exists(path));
	unlink(path);

	int st = child_with_temporary(path, 0);
	ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	ASSERT_EQ(temporaries(), 1); /* _exit: left, as a kill -9 would */
	char tmp[PATH_MAX + 300];
	DIR *d = opendir(scratch);
	for (struct dirent *e; (e = readdir(d));)
		if (strstr(e->d_name, ".tmp."))
			snprintf(tmp, sizeof tmp, "%s/%s", scratch, e->d_name);
	closedir(d);
	unlink(tmp);

	st = child_with_temporary(path, 1);
	ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 7);
	ASSERT_EQ(temporaries(), 0);
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	for (int k = 0; k < 3; k++)
	{
		st = child_with_temporary(path, k == 0 ? 2 : k == 1 ? 4 : 5);
		if (!WIFSIGNALED(st) || WTERMSIG(st) != sigs[k])
			FAIL("signal %d: the child did not end by it (status 0x%x)", sigs[k], st);
		ASSERT_EQ(temporaries(), 0);
		ASSERT(!exists(path));
	}
	st = child_with_temporary(path, 3);
	ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 9);
	ASSERT(exists(path));
	unlink(path);
	st = child_with_temporary(path, 6);
	ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 8);
	ASSERT_EQ(temporaries(), 0);

	/* Several writers of one output (the ranks of --rows): all close, one renames. */
	struct outfile a, b;
	ASSERT_EQ(outfile_open_pid(&a, path, 42, 1, &err), 0);
	ASSERT_EQ(outfile_open_pid(&b, path, 42, 0, &err), 0);
	ASSERT(!strcmp(a.tmp, b.tmp));
	ASSERT(pwrite(b.fd, "b", 1, 1) == 1 && pwrite(a.fd, "a", 1, 0) == 1);
	ASSERT_EQ(outfile_close(&b, &err), 0);
	outfile_forget(&b);
	ASSERT_EQ(outfile_close(&a, &err), 0);
	ASSERT_EQ(outfile_rename(&a, &err), 0);
	char buf[4] = "";
	int fd = open(path, O_RDONLY);
	ASSERT(fd >= 0 && read(fd, buf, 3) == 2 && !strcmp(buf, "ab"));
	close(fd);
	unlink(path);
	ASSERT_EQ(outfile_open_pid(&b, path, 43, 0, &err), -ENOENT); /* nobody created it */
	ASSERT_STR_CONTAINS(err.msg, "cannot open the temporary file");
	ASSERT_EQ(temporaries(), 0);

	/* The registry is bounded and says so. */
	struct outfile many[OUTFILE_MAX_LIVE + 1];
	int opened = 0, rc = 0;
	char name[64];
	for (; opened <= OUTFILE_MAX_LIVE; opened++)
	{
		snprintf(name, sizeof name, "many%d", opened);
		if ((rc = outfile_open(&many[opened], in_scratch(name), &err)) < 0)
			break;
	}
	ASSERT_EQ(rc, -ENOSPC);
	ASSERT_STR_CONTAINS(err.msg, "more than 16 outputs written at once");
	while (opened--)
		outfile_abort(&many[opened]);
	ASSERT_EQ(temporaries(), 0);
}

struct opts
{
	const char *name, *pos[4];
	int flag, i, npos, custom;
	uint64_t u64, bytes;
	uint32_t u32;
	double d;
};

static int custom_opt(const char *name, const char *v, void *opts, struct graph_error *err)
{
	struct opts *o = opts;
	if (strcmp(v, "yes"))
	{
		snprintf(err->msg, sizeof err->msg, "%s '%s': say yes", name, v);
		return -EINVAL;
	}
	o->custom++;
	return 0;
}

static int positional(const char *arg, void *opts, struct graph_error *err)
{
	struct opts *o = opts;
	if (o->npos == 4)
	{
		snprintf(err->msg, sizeof err->msg, "too many: %s", arg);
		return -EINVAL;
	}
	o->pos[o->npos++] = arg;
	return 0;
}

static const struct cli_option table[] = {
	{ .kind = CLI_OPT_SECTION, .help = "Things:" },
	{ "--name", "-n", "NAME", CLI_OPT_STRING, offsetof(struct opts, name), .help = "a name" },
	{ "--flag", NULL, NULL, CLI_OPT_FLAG, offsetof(struct opts, flag), .help = "a flag\non two lines" },
	{ "--int", NULL, "N", CLI_OPT_INT, offsetof(struct opts, i), .min = 2, .max = 5, .label = "--int N, --u32 N",
	  .help = "small" },
	{ "--u32", NULL, "N", CLI_OPT_U32, offsetof(struct opts, u32), .min = 0, .max = UINT64_MAX },
	{ "--u64", NULL, "N", CLI_OPT_U64, offsetof(struct opts, u64), .min = 1, .max = UINT64_MAX, .help = "big" },
	{ "--bytes", NULL, "B", CLI_OPT_BYTES, offsetof(struct opts, bytes), .help = "memory" },
	{ "--real", NULL, "X", CLI_OPT_DOUBLE, offsetof(struct opts, d), .dmin = 0.5, .dmax = 2, .help = "a number" },
	{ "--custom-with-a-long-name", NULL, "yes|no", CLI_OPT_CUSTOM, .parse = custom_opt, .help = "its own parser" },
	{ .kind = CLI_OPT_TEXT, .help = "    verbatim\n" },
	{ "--x", NULL, "a-label-so-long-that-its-help-goes-below-it", CLI_OPT_FLAG, offsetof(struct opts, flag),
	  .help = "a first line long enough to pass the width of one hundred columns beside the label\nand a second" },
};

static int parse(struct opts *o, struct graph_error *err, ...)
{
	char *argv[24] = { "prog" };
	int argc = 1;
	va_list ap;
	va_start(ap, err);
	for (char *a; argc < 23 && (a = va_arg(ap, char *));)
		argv[argc++] = a;
	va_end(ap);
	memset(o, 0, sizeof *o);
	return cli_options_parse(table, sizeof table / sizeof table[0], argc, argv, o, positional, err);
}

static void test_options(void)
{
	struct opts o;
	struct graph_error err;
	ASSERT_EQ(parse(&o, &err, "-n", "a", "x", "--flag", "--int=3", "--u32", "4294967295", "--u64", "7", "--bytes=2K",
			"--real", "1.5", "-", "--custom-with-a-long-name", "yes", "--name=b=c", NULL),
		  0);
	ASSERT(!strcmp(o.name, "b=c") && o.flag == 1 && o.i == 3 && o.u32 == UINT32_MAX && o.u64 == 7 && o.bytes == 2048);
	ASSERT(o.d == 1.5 && o.custom == 1 && o.npos == 2 && !strcmp(o.pos[0], "x") && !strcmp(o.pos[1], "-"));
	static const struct
	{
		const char *args[3], *msg;
	} bad[] = {
		{ { "--nope" }, "unknown option '--nope' (see --help)" },
		{ { "--nope=1" }, "unknown option '--nope' (see --help)" },
		{ { "Things:" }, "too many" }, /* a heading is no option: a positional argument */
		{ { "--name" }, "option --name needs a value (see --help)" },
		{ { "--flag=1" }, "option --flag takes no value: '--flag=1'" },
		{ { "--int", "6" }, "--int '6': expected an integer 2..5" },
		{ { "--u32", "4294967296" }, "--u32 '4294967296': expected an integer 0..4294967295" },
		{ { "--u64", "0" }, "--u64 '0': expected an integer 1..18446744073709551615" },
		{ { "--bytes", "0" }, "--bytes '0': the limit must be above 0" },
		{ { "--real=3" }, "--real '3': expected a number 0.5..2" },
		{ { "--custom-with-a-long-name", "no" }, "--custom-with-a-long-name 'no': say yes" },
	};
	for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
	{
		int rc = !strcmp(bad[k].args[0], "Things:") ? parse(&o, &err, "1", "2", "3", "4", "5", NULL)
							    : parse(&o, &err, bad[k].args[0], bad[k].args[1], NULL);
		ASSERT_EQ(rc, -EINVAL);
		ASSERT_STR_CONTAINS(err.msg, bad[k].msg);
	}

	char help[2048] = "";
	FILE *f = fmemopen(help, sizeof help - 1, "w");
	ASSERT(f);
	cli_options_help(table, sizeof table / sizeof table[0], f);
	fclose(f);
	ASSERT_STR_CONTAINS(help, "\nThings:\n"
				  "  --name NAME            a name\n"
				  "  --flag                 a flag\n"
				  "                         on two lines\n"
				  "  --int N, --u32 N       small\n"
				  "  --u64 N                big\n"
				  "  --bytes B              memory\n"
				  "  --real X               a number\n"
				  "  --custom-with-a-long-name yes|no   its own parser\n"
				  "    verbatim\n"
				  "  --x a-label-so-long-that-its-help-goes-below-it\n"
				  "                         a first line long enough to pass the width of one hundred columns beside the label\n"
				  "                         and a second\n");
}

static void test_memory(void)
{
	const char *what = NULL;
	uint64_t avail = cli_memory_available(&what);
	ASSERT(what && (!strcmp(what, "available memory") || !strcmp(what, "cgroup memory limit")));
	ASSERT(avail > (16u << 20)); /* this test itself runs in it */
	ASSERT(cli_memory_limit(12345, &what) == 12345 && !strcmp(what, "--max-memory"));
	ASSERT(cli_memory_limit(0, &what) > 0);
	ASSERT_STR_CONTAINS(what, "; --max-memory changes it");
	/* zeroed, every byte writable, small and large (threads, uneven parts), and overflow refused */
	const size_t sizes[][2] = { { 10, 24 }, { 1000003, 67 }, { 0, 8 } };
	for (unsigned i = 0; i < 3; i++)
		for (unsigned threads = 0; threads <= 5; threads += 5)
		{
			size_t len = sizes[i][0] * sizes[i][1];
			unsigned char *p = cli_calloc_touched(sizes[i][0], sizes[i][1], threads);
			ASSERT(p);
			for (size_t b = 0; b < len; b += 4093)
				ASSERT(p[b] == 0);
			if (len)
				ASSERT(p[len - 1] == 0);
			memset(p, 0xab, len);
			free(p);
		}
	ASSERT(cli_calloc_touched(SIZE_MAX / 2, 3, 0) == NULL);
}

int main(void)
{
	test_scratch_dir(scratch, sizeof scratch, "cli_helpers");
	test_numbers();
	test_gen_specs();
	test_sources();
	test_outputs();
	test_options();
	test_progress();
	test_temporaries();
	test_memory();
	if (rmdir(scratch) < 0)
		FAIL("%s not empty: %s", scratch, strerror(errno));
	printf("cli_helpers: numbers, generator specs, sources, output checks, option tables, progress, temporary files: ok\n");
	return 0;
}
