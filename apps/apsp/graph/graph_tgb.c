/* The binary graph file (.tgb, native byte order): a header followed by the CSR arrays,
 *   struct tgb_header (80 bytes) | rowptr[n+1] u64 | col[m] u32 | w[m] u32 | min_out[n] u32
 * with a checksum over the header and the arrays (or, flagged TGB_NO_CHECKSUM, none: files that
 * other programs write, see graph_tgb.h). A cache written by graph_read_cached also
 * records the size and mtime of its source and the read options that shaped the weights.
 * Loading checks the size, the checksum and every CSR invariant, so a damaged file is an
 * error, never a crash. Written through outfile.h, atomically. */
#include "graph_tgb.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* FNV-1a's 64-bit prime applied to 8-byte words in four interleaved lanes: fast enough for
 * gigabytes, and any single changed word changes the result (each step is a bijection). */
#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

uint64_t graph_tgb_hash(uint64_t seed, const void *data, uint64_t len)
{
	const unsigned char *p = data;
	uint64_t h[4] = {seed ^ FNV_OFFSET, seed + 1, seed + 2, seed + 3}, x;
	uint64_t i = 0;
	for (; i + 32 <= len; i += 32)
		for (int k = 0; k < 4; k++)
		{
			memcpy(&x, p + i + 8 * k, 8);
			h[k] = (h[k] ^ x) * FNV_PRIME;
		}
	for (; i < len; i++)
		h[0] = (h[0] ^ p[i]) * FNV_PRIME;
	uint64_t r = FNV_OFFSET ^ len;
	for (int k = 0; k < 4; k++)
		r = (r ^ h[k]) * FNV_PRIME;
	return r ^ (r >> 29);
}

static uint64_t graph_checksum(struct tgb_header h, const struct graph *g)
{
	h.checksum = 0;
	uint64_t c = graph_tgb_hash(0, &h, sizeof h);
	c = graph_tgb_hash(c, g->rowptr, ((uint64_t)g->n + 1) * sizeof *g->rowptr);
	c = graph_tgb_hash(c, g->col, g->m * sizeof *g->col);
	c = graph_tgb_hash(c, g->w, g->m * sizeof *g->w);
	return graph_tgb_hash(c, g->min_out, (uint64_t)g->n * sizeof *g->min_out);
}

static int read_full(int fd, void *buf, uint64_t len)
{
	char *p = buf;
	while (len)
	{
		ssize_t k = read(fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		p += k;
		len -= (uint64_t)k;
	}
	return 0;
}

#define REWRITE "; rewrite it with 'tuccompi-graph convert'"

int graph_tgb_read(const char *path, const struct graph_read_options *o, const struct cache_key *key, struct graph *g,
		   struct graph_error *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return graph_io_error(err, path, "cannot open", errno);
	struct tgb_header h;
	struct stat st;
	int rc;
	if (fstat(fd, &st) < 0)
	{
		rc = graph_io_error(err, path, "cannot stat", errno);
		goto out;
	}
	if (!S_ISREG(st.st_mode))
	{
		rc = graph_set_error(err, -EINVAL, "%s: not a regular file; binary graphs (.tgb) are read from files, not from "
				     "pipes or devices", path);
		goto out;
	}
	uint64_t size = (uint64_t)st.st_size;
	memset(&h, 0, sizeof h);
	if ((rc = read_full(fd, &h, size < sizeof h ? size : sizeof h)) < 0)
	{
		rc = graph_io_error(err, path, "read error", -rc);
		goto out;
	}
	rc = -EINVAL;
	if (size >= 2 && (unsigned char)h.magic[0] == 0x1f && (unsigned char)h.magic[1] == 0x8b)
	{
		graph_set_error(err, rc, "%s: a gzip file; binary graphs (.tgb) are read as they are: gunzip it first", path);
		goto out;
	}
	if (size >= sizeof h.magic && memcmp(h.magic, TGB_MAGIC, sizeof h.magic) != 0)
	{
		graph_set_error(err, rc, "%s: not a binary graph of this library (bad magic number)" REWRITE, path);
		goto out;
	}
	if (size < sizeof h)
	{
		graph_set_error(err, rc, "%s: truncated binary graph (%" PRIu64 " bytes, shorter than its %zu-byte header)" REWRITE,
				path, size, sizeof h);
		goto out;
	}
	if (h.byte_order != TGB_BYTE_ORDER)
	{
		graph_set_error(err, rc, "%s: written on a machine of another byte order" REWRITE, path);
		goto out;
	}
	if (h.version != TGB_VERSION)
	{
		graph_set_error(err, rc, "%s: format version %" PRIu32 ", this program reads version %u" REWRITE, path,
				h.version, TGB_VERSION);
		goto out;
	}
	if (h.n > GRAPH_MAX_VERTICES)
	{
		graph_set_error(err, rc, "%s: corrupted header (%" PRIu32 " vertices)" REWRITE, path, h.n);
		goto out;
	}
	/* h.m <= size keeps the expected size below 2^64. */
	uint64_t want = h.m > size ? UINT64_MAX : sizeof h + ((uint64_t)h.n + 1) * 8 + h.m * 8 + (uint64_t)h.n * 4;
	if (want != size)
	{
		graph_set_error(err, rc, "%s: %" PRIu64 " bytes, %s than the %" PRIu32 " vertices and %" PRIu64
				" arcs its header announces need: the file is %s" REWRITE,
				path, size, want > size ? "fewer" : "more", h.n, h.m, want > size ? "truncated or corrupted" : "corrupted");
		goto out;
	}
	if (key && (!(h.flags & TGB_CACHE) || h.src_size != key->size || h.src_mtime_sec != key->mtime_sec ||
		    h.src_mtime_nsec != key->mtime_nsec || h.real_scale != key->real_scale ||
		    h.pattern_weight != key->pattern_weight || ((h.flags & TGB_ROUNDED) && !key->real_round)))
	{
		rc = graph_set_error(err, -ESTALE, "%s: not a cache of the current source file", path);
		goto out;
	}
	uint64_t need = graph_bytes_for(h.n, h.m);
	if (o->max_bytes && need > o->max_bytes)
	{
		rc = graph_set_error(err, -ENOMEM, "%s: the graph (%" PRIu32 " vertices, %" PRIu64 " arcs) needs %" PRIu64
				     " bytes, more than the limit of %" PRIu64 " (%s); use a smaller graph or a machine with more memory",
				     path, h.n, h.m, need, o->max_bytes, limit_what(o));
		goto out;
	}
	if ((rc = graph_alloc(g, h.n, h.m, err)) < 0)
		goto out;
	g->max_w = h.max_w;
	if ((rc = read_full(fd, g->rowptr, ((uint64_t)h.n + 1) * 8)) < 0 || (rc = read_full(fd, g->col, h.m * 4)) < 0 ||
	    (rc = read_full(fd, g->w, h.m * 4)) < 0 || (rc = read_full(fd, g->min_out, (uint64_t)h.n * 4)) < 0)
	{
		rc = graph_io_error(err, path, "read error", -rc);
		goto fail;
	}
	/* TGB_NO_CHECKSUM needs its zero checksum too: one changed byte cannot make a file unchecked */
	int unchecked = (h.flags & TGB_NO_CHECKSUM) && h.checksum == 0 && !(h.flags & TGB_CACHE);
	if (!unchecked && graph_checksum(h, g) != h.checksum)
	{
		rc = graph_set_error(err, -EINVAL, "%s: checksum mismatch, the file is corrupted" REWRITE, path);
		goto fail;
	}
	if ((rc = graph_validate(g, err)) < 0)
	{
		graph_set_error(err, rc, "%s: %.400s" REWRITE, path, err->msg);
		goto fail;
	}
	if (o->info)
		o->info->rounded_cache = (h.flags & TGB_ROUNDED) != 0;
	goto out;
fail:
	graph_free(g);
out:
	close(fd);
	return rc;
}

int graph_tgb_write(const struct graph *g, const char *path, const struct cache_key *key, struct graph_error *err)
{
	int rc = graph_validate(g, err);
	if (rc < 0)
		return rc;
	struct tgb_header h = {.version = TGB_VERSION, .byte_order = TGB_BYTE_ORDER, .n = g->n, .max_w = g->max_w, .m = g->m};
	memcpy(h.magic, TGB_MAGIC, sizeof h.magic);
	if (key)
	{
		h.flags = TGB_CACHE | (key->rounded ? TGB_ROUNDED : 0);
		h.pattern_weight = key->pattern_weight;
		h.real_scale = key->real_scale;
		h.src_size = key->size;
		h.src_mtime_sec = key->mtime_sec;
		h.src_mtime_nsec = key->mtime_nsec;
	}
	h.checksum = graph_checksum(h, g);
	struct outfile o;
	if ((rc = outfile_open(&o, path, err)) < 0 || (rc = outfile_write(&o, &h, sizeof h, err)) < 0 ||
	    (rc = outfile_write(&o, g->rowptr, ((uint64_t)g->n + 1) * 8, err)) < 0 ||
	    (rc = outfile_write(&o, g->col, g->m * 4, err)) < 0 || (rc = outfile_write(&o, g->w, g->m * 4, err)) < 0 ||
	    (rc = outfile_write(&o, g->min_out, (uint64_t)g->n * 4, err)) < 0)
		return rc;
	return outfile_commit(&o, err);
}

int graph_write_binary(const struct graph *g, const char *path, struct graph_error *err)
{
	return graph_tgb_write(g, path, NULL, err);
}
