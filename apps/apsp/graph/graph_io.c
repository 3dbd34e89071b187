/* Reading graph files: the format from the name or the options, the options checked, the
 * reader of each format (graph_gr.c DIMACS, graph_mtx.c Matrix Market, graph_edgelist.c edge
 * lists, graph_metis.c METIS, graph_tgb.c the binary file; graph_text.c is the text formats' line reader), and the
 * cache of graph_read_cached.
 *
 * A path of "-" is standard input (text formats only, read without seeking; its format must be
 * given). Writers go through outfile.h ("PATH.tmp.PID", fsync, rename): a reader of PATH sees
 * the old file or the complete new one, and a failure or a signal removes the temporary file. */
#include "graph_tgb.h"
#include "graph_text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The extension of @p name's last component (with its dot), before a final ".gz" when @p gz is set
 * (and *@p gz then says whether there was one), or NULL. */
static const char *extension(const char *path, int *gz, char *buf, size_t len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	const char *dot = strrchr(base, '.');
	*gz = dot && dot > base && strcasecmp(dot, ".gz") == 0;
	if (!*gz)
		return dot;
	size_t k = (size_t)(dot - base);
	if (k >= len)
		return NULL;
	memcpy(buf, base, k);
	buf[k] = '\0';
	return strrchr(buf, '.');
}

static int format_of(const char *path, enum graph_format *f, struct graph_error *err)
{
	char stem[256];
	int gz;
	const char *dot = extension(path, &gz, stem, sizeof stem);
	if (dot && strcasecmp(dot, ".gr") == 0)
		*f = GRAPH_FORMAT_DIMACS;
	else if (dot && strcasecmp(dot, ".mtx") == 0)
		*f = GRAPH_FORMAT_MTX;
	else if (dot && strcasecmp(dot, ".tgb") == 0)
		*f = GRAPH_FORMAT_BINARY;
	else if (dot && (strcasecmp(dot, ".edges") == 0 || strcasecmp(dot, ".el") == 0 || strcasecmp(dot, ".txt") == 0 ||
			 strcasecmp(dot, ".csv") == 0 || strcasecmp(dot, ".tsv") == 0))
		*f = GRAPH_FORMAT_EDGELIST;
	else if (dot && (strcasecmp(dot, ".graph") == 0 || strcasecmp(dot, ".metis") == 0))
		*f = GRAPH_FORMAT_METIS;
	else if (!gz && dot && (strcasecmp(dot, ".bz2") == 0 || strcasecmp(dot, ".xz") == 0 || strcasecmp(dot, ".zst") == 0))
		return graph_set_error(err, -EINVAL, "%s: %s files are not read; decompress it first (or recompress it with "
				       "gzip: .gz files are read as they are)", path, dot + 1);
	else
		return graph_set_error(err, -EINVAL,
				       "%s: cannot tell the format from the name; use a .gr (DIMACS), .mtx (Matrix Market), .tgb "
				       "(binary), .edges/.el/.txt/.csv/.tsv (edge list) or .graph/.metis (METIS) file, gzipped or "
				       "not (.gr.gz), or give the format (--format gr|mtx|tgb|edgelist|metis)",
				       path);
	if (gz && *f == GRAPH_FORMAT_BINARY)
		return graph_set_error(err, -EINVAL, "%s: binary graphs (.tgb) are read as they are, not gzipped; gunzip it "
				       "first", path);
	return 0;
}

int graph_output_format(const char *path, enum graph_format *f, struct graph_error *err)
{
	char stem[256];
	int gz;
	const char *dot = extension(path, &gz, stem, sizeof stem);
	struct graph_error unread; /* the reader's message names what is read, not what is written */
	if (gz && dot && strcasecmp(dot, ".tgb") == 0)
		return graph_set_error(err, -EINVAL, "cannot write '%s': binary graphs (.tgb) are written and read as they are, "
				       "not gzipped; name it %.*s", path, (int)(strlen(path) - 3), path);
	if (format_of(path, f, &unread) < 0 || *f == GRAPH_FORMAT_MTX)
		return graph_set_error(err, -EINVAL, "cannot write '%s': output files are .gr (DIMACS), .tgb (binary), "
				       ".edges/.el/.txt/.csv/.tsv (edge list) or .graph/.metis (METIS), the text ones gzipped "
				       "when the name ends in .gz", path);
	return 0;
}

int graph_write(const struct graph *g, const char *path, struct graph_error *err)
{
	enum graph_format f;
	int rc = graph_output_format(path, &f, err);
	if (rc < 0)
		return rc;
	return f == GRAPH_FORMAT_DIMACS	  ? graph_write_dimacs(g, path, err)
	       : f == GRAPH_FORMAT_EDGELIST ? graph_write_edgelist(g, path, err)
	       : f == GRAPH_FORMAT_METIS    ? graph_write_metis(g, path, err)
					    : graph_write_binary(g, path, err);
}

/* Options with their defaults filled in, checked. */
static int options(const struct graph_read_options *opt, struct graph_read_options *o, struct graph_error *err)
{
	static const struct graph_read_options defaults = {0};
	*o = opt ? *opt : defaults;
	if (o->info)
		memset(o->info, 0, sizeof *o->info);
	if (o->real_scale == 0)
		o->real_scale = 1;
	if (o->pattern_weight == 0)
		o->pattern_weight = 1;
	if (!isfinite(o->real_scale) || o->real_scale < 0)
		return graph_set_error(err, -EINVAL, "real_scale %g: must be a positive finite number", o->real_scale);
	if (o->pattern_weight > GRAPH_MAX_WEIGHT)
		return graph_set_error(err, -EINVAL, "pattern_weight %" PRIu32 " above the maximum weight %u", o->pattern_weight,
				       GRAPH_MAX_WEIGHT);
	return 0;
}

int graph_read(const char *path, const struct graph_read_options *opt, struct graph *g, struct graph_error *err)
{
	memset(g, 0, sizeof *g);
	struct graph_read_options o;
	int rc = options(opt, &o, err);
	enum graph_format f = o.format;
	if (rc < 0)
		return rc;
	if (f == GRAPH_FORMAT_AUTO && is_stdin(path))
		return graph_set_error(err, -EINVAL, STDIN_NAME ": standard input has no name to tell its format by; give the "
				       "format (--format gr, mtx or edgelist)");
	if (f == GRAPH_FORMAT_AUTO && (rc = format_of(path, &f, err)) < 0)
		return rc;
	if (f == GRAPH_FORMAT_BINARY && is_stdin(path))
		return graph_set_error(err, -EINVAL, STDIN_NAME ": binary graphs (.tgb) are read from files, not from standard "
				       "input; give the file's name");
	if (f == GRAPH_FORMAT_BINARY)
		return graph_tgb_read(path, &o, NULL, g, err);
	if (!graph_format_is_text(f))
		return graph_set_error(err, -EINVAL, "%s: unknown format %d", path, (int)f);
	struct reader r;
	if ((rc = graph_reader_open(&r, path, err)) < 0)
		return rc;
	rc = f == GRAPH_FORMAT_DIMACS ? graph_read_dimacs_text(&r, &o, g)
	     : f == GRAPH_FORMAT_MTX  ? graph_read_mtx_text(&r, &o, g)
	     : f == GRAPH_FORMAT_METIS ? graph_read_metis_text(&r, &o, g)
				      : graph_read_edgelist_text(&r, &o, g);
	if (rc == 0 && o.info)
		*o.info = r.info;
	graph_reader_close(&r);
	return rc;
}

static int source_key(const char *path, const struct graph_read_options *o, struct cache_key *key,
		      struct graph_error *err)
{
	struct stat st;
	if (is_stdin(path))
		return graph_set_error(err, -EINVAL, STDIN_NAME ": standard input cannot be cached (it has no size or date to "
				       "check a cache against); read it without a cache");
	if (stat(path, &st) < 0)
		return graph_io_error(err, path, "cannot open", errno);
	if (!S_ISREG(st.st_mode))
		return graph_set_error(err, -EINVAL, "%s: not a regular file, so it cannot be cached; read it without a cache", path);
	*key = (struct cache_key){.size = (uint64_t)st.st_size,
				  .mtime_sec = st.st_mtim.tv_sec,
				  .mtime_nsec = st.st_mtim.tv_nsec,
				  .real_scale = o->real_scale,
				  .pattern_weight = o->pattern_weight,
				  .real_round = o->real_round};
	return 0;
}

/* A cache that cannot be written does not fail the read: the graph is returned, and err
 * holds a note saying why the cache was not written (empty when it was). */
int graph_read_cached(const char *path, const char *cache_path, const struct graph_read_options *opt,
		      struct graph *g, struct graph_error *err)
{
	memset(g, 0, sizeof *g);
	struct graph_error scratch;
	if (!err)
		err = &scratch;
	struct graph_read_options o;
	struct cache_key before = {0}, after = {0};
	int rc;
	if ((rc = options(opt, &o, err)) < 0 || (rc = source_key(path, &o, &before, err)) < 0)
		return rc;
	struct stat src_st, cache_st;
	if (stat(path, &src_st) == 0 && stat(cache_path, &cache_st) == 0 && src_st.st_dev == cache_st.st_dev &&
	    src_st.st_ino == cache_st.st_ino)
		return graph_set_error(err, -EINVAL, "%s: the cache %s is the graph file itself; name another file for the cache",
				       path, cache_path);
	struct graph_read_info info = {0}, *caller = o.info;
	o.info = &info; /* the cache records whether weights were rounded */
	if (graph_tgb_read(cache_path, &o, &before, g, err) == 0)
	{
		err->msg[0] = '\0';
		if (caller)
			*caller = info;
		return 0;
	}
	if ((rc = graph_read(path, &o, g, err)) < 0)
		return rc;
	if (caller)
		*caller = info;
	before.rounded = info.rounded > 0;
	err->msg[0] = '\0';
	/* A source changed while it was parsed must not be cached under its new date. */
	if (source_key(path, &o, &after, err) < 0 || before.size != after.size ||
	    before.mtime_sec != after.mtime_sec || before.mtime_nsec != after.mtime_nsec)
		return graph_set_error(err, 0, "note: %s changed while being read; no cache written", path);
	struct graph_error werr;
	if (graph_tgb_write(g, cache_path, &before, &werr) < 0)
		return graph_set_error(err, 0, "note: cache not written: %.480s", werr.msg);
	return 0;
}
