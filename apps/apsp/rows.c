/* The rows file of tuccompi-apsp (see rows.h). */
#include "rows.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <tuccompi.h>
#include <unistd.h>

/* Distances converted per pwrite of a .npy row (64 KiB on the worker's stack). */
#define NPY_CHUNK 8192

static int rank0(void)
{
	return tuccompi_rank() == 0;
}

/* Collective: whether @p ok holds on every rank. */
static int all_ok(int ok)
{
	int64_t v = ok;
	return tuccompi_allreduce_i64(&v, 1, TUCCOMPI_OP_AND) < 0 ? 0 : (int)v;
}

static int is_npy(const char *path)
{
	size_t len = strlen(path);
	return len > 4 && !strcasecmp(path + len - 4, ".npy");
}

/* The .npy preamble of a k x n array of float64 (distances) or int32 (predecessors) into buf
 * (NPY_PREAMBLE bytes). */
void rows_npy_preamble(unsigned char *buf, uint64_t k, uint32_t n, enum rows_kind kind)
{
	const uint16_t one = 1;
	const char *order = *(const unsigned char *)&one ? "<" : ">";
	char dict[NPY_PREAMBLE];
	int len = snprintf(dict, sizeof dict, "{'descr': '%s%s', 'fortran_order': False, 'shape': (%" PRIu64 ", %" PRIu32 "), }",
			   order, kind == ROWS_PRED ? "i4" : "f8", k, n);
	memcpy(buf, "\x93NUMPY\x01\x00", 8);
	uint16_t hlen = NPY_PREAMBLE - 10;
	buf[8] = (unsigned char)(hlen & 0xff); /* little-endian, whatever the machine */
	buf[9] = (unsigned char)(hlen >> 8);
	memset(buf + 10, ' ', NPY_PREAMBLE - 10);
	memcpy(buf + 10, dict, (size_t)len);
	buf[NPY_PREAMBLE - 1] = '\n';
}

/* The run's identity: the "TCCROWS1" header ("TCCPRED1" for predecessors; with @p key in its last 8
 * bytes, 0 in a finished file) and the sources. */
static void identity(unsigned char hdr[32], enum rows_kind kind, uint32_t n, uint64_t k, uint64_t key)
{
	memset(hdr, 0, 32);
	memcpy(hdr, kind == ROWS_PRED ? "TCCPRED1" : "TCCROWS1", 8);
	memcpy(hdr + 8, &n, 4);
	memcpy(hdr + 16, &k, 8);
	memcpy(hdr + 24, &key, 8);
}

/* Everything but the rows: the .npy preamble, and the identity at rf->id_off (the start of a
 * TCCROWS1 file; after a .npy's array in its PATH.partial); then the file's full size. */
static int write_head(const struct rows_file *rf, int fd, uint32_t n, const uint32_t *src, uint64_t k, uint64_t total)
{
	unsigned char hdr[32], pre[NPY_PREAMBLE];
	if (rf->npy)
	{
		rows_npy_preamble(pre, k, n, rf->kind);
		if (pwrite(fd, pre, NPY_PREAMBLE, 0) != NPY_PREAMBLE)
			return -1;
	}
	identity(hdr, rf->kind, n, k, rf->partial ? rf->key : 0);
	if (rf->id_off != UINT64_MAX && (pwrite(fd, hdr, 32, (off_t)rf->id_off) != 32 ||
					 pwrite(fd, src, k * 4, (off_t)(rf->id_off + 32)) != (ssize_t)(k * 4)))
		return -1;
	return ftruncate(fd, (off_t)total);
}

/* Whether the file on @p fd holds this run's preamble and identity. */
static int same_head(const struct rows_file *rf, int fd, uint32_t n, const uint32_t *src, uint64_t k)
{
	unsigned char hdr[32], have[32], pre[NPY_PREAMBLE], had[NPY_PREAMBLE];
	identity(hdr, rf->kind, n, k, rf->key);
	if (rf->npy)
	{
		rows_npy_preamble(pre, k, n, rf->kind);
		if (pread(fd, had, NPY_PREAMBLE, 0) != NPY_PREAMBLE || memcmp(had, pre, NPY_PREAMBLE))
			return 0;
	}
	uint32_t *got = malloc(k * 4 + 4);
	int same = got && pread(fd, have, 32, (off_t)rf->id_off) == 32 && !memcmp(have, hdr, 32) &&
		   pread(fd, got, k * 4, (off_t)(rf->id_off + 32)) == (ssize_t)(k * 4) && !memcmp(got, src, k * 4);
	free(got);
	return same;
}

/* A journaled run writes PATH.partial, which survives kills and signals (unlike a temporary
 * file) so that --resume goes on writing it: rows of finished sources are in it before the
 * journal records them. */
static int open_partial(struct rows_file *rf, const char *path, uint32_t n, const uint32_t *src, uint64_t k, int resume,
			int create, struct graph_error *err)
{
	size_t len = strlen(path) + 16;
	rf->partial = 1;
	rf->out.path = path;
	rf->out.slot = -1;
	rf->out.f = NULL;
	if (!(rf->out.tmp = malloc(len)))
		return graph_set_error(err, -ENOMEM, "%s: out of memory", path);
	snprintf(rf->out.tmp, len, "%s.partial", path);
	if (!create)
	{
		rf->out.fd = open(rf->out.tmp, O_WRONLY | O_CLOEXEC);
		return rf->out.fd < 0 ? graph_set_error(err, -errno, "cannot open %s: %s", rf->out.tmp, strerror(errno)) : 0;
	}
	uint64_t total = rf->data_off + k * rf->row_bytes + (rf->npy ? 32 + k * 4 : 0);
	if (resume)
	{
		/* the rows of the resumed sources are there already: same header and sources, or nothing */
		int fd = open(rf->out.tmp, O_RDWR | O_CLOEXEC);
		int same = fd >= 0 && same_head(rf, fd, n, src, k);
		if (fd >= 0 && !same)
			close(fd);
		if (!same)
			return graph_set_error(err, -ESTALE, "--resume: %s is missing or belongs to another run (the %s file); run again "
					  "without --resume", rf->out.tmp, rf->option);
		rf->out.fd = fd;
		return 0;
	}
	rf->out.fd = open(rf->out.tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (rf->out.fd < 0 || write_head(rf, rf->out.fd, n, src, k, total) < 0)
		return graph_set_error(err, -errno, "cannot write %s (%" PRIu64 " bytes): %s", rf->out.tmp, total, strerror(errno));
	return 0;
}

int rows_file_open(struct rows_file *rf, enum rows_kind kind, const char *path, uint32_t n, const uint32_t *src,
		   uint64_t k, int journal, uint64_t graph_key, int resume, struct graph_error *err)
{
	memset(rf, 0, sizeof *rf);
	rf->key = graph_key;
	rf->kind = kind;
	rf->option = kind == ROWS_PRED ? "--pred" : "--rows";
	err->msg[0] = '\0';
	long pid = (long)getpid();
	tuccompi_bcast(&pid, sizeof(pid), 0); /* one temporary name on every rank: rank 0's */
	rf->path = path;
	rf->npy = kind == ROWS_PRED || is_npy(path);
	rf->data_off = rf->npy ? NPY_PREAMBLE : 32 + k * sizeof(uint32_t);
	rf->row_bytes = (uint64_t)n * (rf->npy && kind == ROWS_DIST ? sizeof(double) : sizeof(uint32_t));
	/* a .npy holds its identity only while partial */
	rf->id_off = !rf->npy ? 0 : journal ? rf->data_off + k * rf->row_bytes : UINT64_MAX;
	int ok = 1;
	if (rank0())
	{
		if (journal)
			ok = open_partial(rf, path, n, src, k, resume, 1, err) == 0;
		else
		{
			uint64_t total = rf->data_off + k * rf->row_bytes;
			ok = outfile_open_pid(&rf->out, path, pid, 1, err) == 0;
			if (ok && write_head(rf, rf->out.fd, n, src, k, total) < 0)
			{
				graph_set_error(err, -EIO, "cannot write %s (%" PRIu64 " bytes): %s", rf->out.tmp, total, strerror(errno));
				outfile_abort(&rf->out);
				ok = 0;
			}
		}
	}
	if (!all_ok(ok))
		return graph_set_error(err, -EIO, "%s: %.480s", rf->option,
				       err->msg[0] ? err->msg : "rank 0 could not create the file");
	tuccompi_barrier();
	if (!rank0())
		ok = (journal ? open_partial(rf, path, n, src, k, 0, 0, err) : outfile_open_pid(&rf->out, path, pid, 0, err)) == 0;
	if (!all_ok(ok))
		return graph_set_error(err, -EIO, "%s %s: not every rank can open it (a file system shared by all nodes is needed)",
				  rf->option, path);
	return 0;
}

static int pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
	const char *p = buf;
	while (len)
	{
		ssize_t w = pwrite(fd, p, len, off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
		off += w;
	}
	return 0;
}

int rows_file_write_pred(uint64_t id, uint32_t source, const int32_t *pred, uint32_t n, void *ctx)
{
	struct rows_file *rf = ctx;
	(void)source;
	return pwrite_all(rf->out.fd, pred, (size_t)n * sizeof(int32_t), (off_t)(rf->data_off + id * rf->row_bytes));
}

int rows_file_write(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx)
{
	struct rows_file *rf = ctx;
	(void)source;
	off_t off = (off_t)(rf->data_off + id * rf->row_bytes);
	if (!rf->npy)
		return pwrite_all(rf->out.fd, dist, (size_t)n * sizeof(uint32_t), off);
	double buf[NPY_CHUNK];
	for (uint32_t i = 0; i < n; i += NPY_CHUNK)
	{
		uint32_t len = n - i < NPY_CHUNK ? n - i : NPY_CHUNK;
		for (uint32_t j = 0; j < len; j++)
			buf[j] = dist[i + j] == GRAPH_INF ? INFINITY : (double)dist[i + j];
		int rc = pwrite_all(rf->out.fd, buf, (size_t)len * sizeof(double), off + (off_t)i * (off_t)sizeof(double));
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* A journaled run's rows: synced and closed by every rank; rank 0 renames them into place
 * (keep), once the partial file's marks are gone (a .npy's identity cut off, the binary
 * header's key zeroed), or removes them. */
static int close_partial(struct rows_file *rf, int ok, int keep, struct graph_error *err)
{
	int rc = 0;
	if (fsync(rf->out.fd) < 0)
		ok = 0;
	close(rf->out.fd);
	ok = all_ok(ok);
	if (rank0() && keep && ok)
	{
		static const uint64_t zero = 0;
		int fd = open(rf->out.tmp, O_WRONLY | O_CLOEXEC);
		ok = fd >= 0 &&
		     (rf->npy ? ftruncate(fd, (off_t)rf->id_off) == 0 : pwrite(fd, &zero, 8, 24) == 8) && fsync(fd) == 0;
		if (fd >= 0)
			close(fd);
	}
	if (rank0() && (!keep || !ok || rename(rf->out.tmp, rf->path) < 0))
	{
		int e = errno;
		unlink(rf->out.tmp);
		if (keep)
			rc = graph_set_error(err, -EIO, "%s %s: writing the rows failed (%s); nothing was left behind", rf->option,
					rf->path, ok ? strerror(e) : "a rank could not write");
	}
	free(rf->out.tmp);
	rf->out.tmp = NULL;
	return rc;
}

int rows_file_close(struct rows_file *rf, int ok, int keep, struct graph_error *err)
{
	err->msg[0] = '\0';
	if (rf->partial)
		return close_partial(rf, ok, keep, err);
	ok = outfile_close(&rf->out, err) == 0 && ok;
	ok = all_ok(ok);
	if (!rank0())
	{
		outfile_forget(&rf->out);
		return 0;
	}
	if (!keep || !ok)
		outfile_abort(&rf->out);
	if (keep && (!ok || outfile_rename(&rf->out, err) < 0))
		return graph_set_error(err, -EIO, "%s %s: writing the rows failed (%.400s); nothing was left behind", rf->option,
				       rf->path, err->msg[0] ? err->msg : "a rank could not write");
	return 0;
}
