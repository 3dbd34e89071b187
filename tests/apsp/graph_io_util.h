/* The graph reader tests' shared helpers (graph_io_test.c, graph_gz_test.c): a scratch directory
 * and its files, whole files in and out, comparisons of graphs, a read through a pipe on standard
 * input, a read through the cache. Static: each test program has its own copy. */
#ifndef TUCCOMPI_TESTS_GRAPH_IO_UTIL_H
#define TUCCOMPI_TESTS_GRAPH_IO_UTIL_H

#include "graph.h"
#include "testutil.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char scratch[2048];


/* scratch/name; the same name always gets the same (static) buffer. */
static const char *in_scratch(const char *name)
{
	static char names[48][64], paths[48][sizeof scratch + 64];
	int i = 0;
	for (; i < 48 && names[i][0] && strcmp(names[i], name) != 0; i++)
		;
	if (i == 48 || strlen(name) >= sizeof names[0])
		FAIL("in_scratch: too many names or too long a name: %s", name);
	snprintf(names[i], sizeof names[i], "%s", name);
	snprintf(paths[i], sizeof paths[i], "%s/%s", scratch, name);
	return paths[i];
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0)
		FAIL("cannot write %s: %s", path, strerror(errno));
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		FAIL("cannot open %s: %s", path, strerror(errno));
	fseek(f, 0, SEEK_END);
	*len = (size_t)ftell(f);
	rewind(f);
	char *buf = malloc(*len + 1);
	ASSERT(buf && fread(buf, 1, *len, f) == *len);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

static int exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static int is_zeroed(const struct graph *g)
{
	return !g->n && !g->m && !g->rowptr && !g->col && !g->w && !g->min_out && !g->max_w;
}

static void assert_same(const struct graph *a, const struct graph *b, const char *what)
{
	if (a->n != b->n || a->m != b->m || a->max_w != b->max_w)
		FAIL("%s: n %u/%u, m %llu/%llu, max_w %u/%u differ", what, a->n, b->n, (unsigned long long)a->m,
		     (unsigned long long)b->m, a->max_w, b->max_w);
	if (memcmp(a->rowptr, b->rowptr, (a->n + 1ull) * 8) || memcmp(a->col, b->col, a->m * 4) ||
	    memcmp(a->w, b->w, a->m * 4) || memcmp(a->min_out, b->min_out, a->n * 4ull))
		FAIL("%s: the CSR arrays differ", what);
}

/* Run graph_read("-") with @p len bytes of @p data on standard input (a pipe, written by a child).
 * With @p stall the child keeps the pipe open after writing (for a minute, or until the read ends):
 * the read must not wait for it (a hang fails the test after 30 s). */
static int read_stdin_stalled(const void *data, size_t len, int stall, const struct graph_read_options *opt,
			      struct graph *g, struct graph_error *err)
{
	int fds[2], saved = dup(0);
	ASSERT(pipe(fds) == 0 && saved >= 0);
	pid_t child = fork();
	ASSERT(child >= 0);
	if (child == 0)
	{
		close(fds[0]);
		signal(SIGPIPE, SIG_DFL);
		int ok = write(fds[1], data, len) == (ssize_t)len;
		if (ok && stall)
		{
			close(1); /* a failing test is not held up by its output's reader */
			close(2);
			sleep(60);
		}
		_exit(ok ? 0 : 1);
	}
	close(fds[1]);
	ASSERT(dup2(fds[0], 0) == 0);
	close(fds[0]);
	if (stall)
		alarm(30);
	int rc = graph_read("-", opt, g, err);
	alarm(0);
	/* Restoring fd 0 closes the pipe: a child still writing (the read stopped early) ends. */
	ASSERT(dup2(saved, 0) == 0);
	close(saved);
	if (stall)
		kill(child, SIGKILL);
	int status;
	ASSERT(waitpid(child, &status, 0) == child);
	if (rc == 0 && !stall)
		ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	return rc;
}

static int read_stdin_bytes(const void *data, size_t len, const struct graph_read_options *opt, struct graph *g,
			    struct graph_error *err)
{
	return read_stdin_stalled(data, len, 0, opt, g, err);
}

static void read_cached_ok(const char *src, const char *cache, const struct graph_read_options *opt, const char *what)
{
	struct graph g, direct;
	struct graph_error err;
	if (graph_read_cached(src, cache, opt, &g, &err) < 0)
		FAIL("%s: %s", what, err.msg);
	ASSERT_EQ(err.msg[0], '\0');
	if (graph_read(src, opt, &direct, &err) < 0)
		FAIL("%s: %s", what, err.msg);
	assert_same(&direct, &g, what);
	graph_free(&g);
	graph_free(&direct);
	/* The cache left behind is a valid binary file. */
	ASSERT_EQ(graph_read(cache, NULL, &g, &err), 0);
	graph_free(&g);
}

static void remove_scratch(void)
{
	DIR *d = opendir(scratch);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			FAIL("%s/%s left behind by a test", scratch, e->d_name);
	closedir(d);
	rmdir(scratch);
}

#endif
