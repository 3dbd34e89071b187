/* The rows file of tuccompi-apsp (see rows.h). */
#include "rows.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <unistd.h>

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

static int rows_error(struct graph_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int rows_error(struct graph_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	va_end(ap);
	return code;
}

/* The header and the sources, at the start of the file. */
static int write_head(int fd, uint32_t n, const uint32_t *src, uint64_t k)
{
	unsigned char hdr[32] = "TCCROWS1";
	memcpy(hdr + 8, &n, 4);
	memcpy(hdr + 16, &k, 8);
	return pwrite(fd, hdr, 32, 0) == 32 && pwrite(fd, src, k * 4, 32) == (ssize_t)(k * 4) ? 0 : -1;
}

/* Whether the file on @p fd starts with the header and sources of this run. */
static int same_head(int fd, uint32_t n, const uint32_t *src, uint64_t k)
{
	unsigned char hdr[32] = "TCCROWS1", have[32];
	memcpy(hdr + 8, &n, 4);
	memcpy(hdr + 16, &k, 8);
	uint32_t *got = malloc(k * 4 + 4);
	int same = got && pread(fd, have, 32, 0) == 32 && !memcmp(have, hdr, 32) &&
		   pread(fd, got, k * 4, 32) == (ssize_t)(k * 4) && !memcmp(got, src, k * 4);
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
		return rows_error(err, -ENOMEM, "%s: out of memory", path);
	snprintf(rf->out.tmp, len, "%s.partial", path);
	if (!create)
	{
		rf->out.fd = open(rf->out.tmp, O_WRONLY | O_CLOEXEC);
		return rf->out.fd < 0 ? rows_error(err, -errno, "cannot open %s: %s", rf->out.tmp, strerror(errno)) : 0;
	}
	uint64_t total = rf->data_off + k * rf->row_bytes;
	if (resume)
	{
		/* the rows of the resumed sources are there already: same header and sources, or nothing */
		int fd = open(rf->out.tmp, O_RDWR | O_CLOEXEC);
		int same = fd >= 0 && same_head(fd, n, src, k);
		if (fd >= 0 && !same)
			close(fd);
		if (!same)
			return rows_error(err, -ESTALE, "--resume: %s is missing or belongs to another run; run again without --resume",
					  rf->out.tmp);
		rf->out.fd = fd;
		return 0;
	}
	rf->out.fd = open(rf->out.tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (rf->out.fd < 0 || write_head(rf->out.fd, n, src, k) < 0 || ftruncate(rf->out.fd, (off_t)total) < 0)
		return rows_error(err, -errno, "cannot write %s (%" PRIu64 " bytes): %s", rf->out.tmp, total, strerror(errno));
	return 0;
}

int rows_file_open(struct rows_file *rf, const char *path, uint32_t n, const uint32_t *src, uint64_t k, int journal,
	      int resume, struct graph_error *err)
{
	memset(rf, 0, sizeof *rf);
	err->msg[0] = '\0';
	long pid = (long)getpid();
	tuccompi_bcast(&pid, sizeof(pid), 0); /* one temporary name on every rank: rank 0's */
	rf->path = path;
	rf->data_off = 32 + k * sizeof(uint32_t);
	rf->row_bytes = (uint64_t)n * sizeof(uint32_t);
	int ok = 1;
	if (rank0())
	{
		if (journal)
			ok = open_partial(rf, path, n, src, k, resume, 1, err) == 0;
		else
		{
			uint64_t total = rf->data_off + k * rf->row_bytes;
			ok = outfile_open_pid(&rf->out, path, pid, 1, err) == 0;
			if (ok && (write_head(rf->out.fd, n, src, k) < 0 || ftruncate(rf->out.fd, (off_t)total) < 0))
			{
				rows_error(err, -EIO, "cannot write %s (%" PRIu64 " bytes): %s", rf->out.tmp, total, strerror(errno));
				outfile_abort(&rf->out);
				ok = 0;
			}
		}
	}
	if (!all_ok(ok))
	{
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg[0] ? err->msg : "rank 0 could not create the rows file");
		return rows_error(err, -EIO, "--rows: %.480s", why);
	}
	tuccompi_barrier();
	if (!rank0())
		ok = (journal ? open_partial(rf, path, n, src, k, 0, 0, err) : outfile_open_pid(&rf->out, path, pid, 0, err)) == 0;
	if (!all_ok(ok))
		return rows_error(err, -EIO, "--rows %s: not every rank can open it (a file system shared by all nodes is needed)",
				  path);
	return 0;
}

int rows_file_write(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx)
{
	struct rows_file *rf = ctx;
	(void)source;
	size_t len = (size_t)n * sizeof(uint32_t);
	off_t off = (off_t)(rf->data_off + id * rf->row_bytes);
	const char *p = (const char *)dist;
	while (len)
	{
		ssize_t w = pwrite(rf->out.fd, p, len, off);
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

/* A journaled run's rows: synced and closed by every rank; rank 0 renames them into place
 * (keep), or removes them. */
static int close_partial(struct rows_file *rf, int ok, int keep, struct graph_error *err)
{
	int rc = 0;
	if (fsync(rf->out.fd) < 0)
		ok = 0;
	close(rf->out.fd);
	ok = all_ok(ok);
	if (rank0() && (!keep || !ok || rename(rf->out.tmp, rf->path) < 0))
	{
		int e = errno;
		unlink(rf->out.tmp);
		if (keep)
			rc = rows_error(err, -EIO, "--rows %s: writing the rows failed (%s); nothing was left behind", rf->path,
					ok ? strerror(e) : "a rank could not write");
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
	{
		char why[sizeof err->msg];
		snprintf(why, sizeof why, "%s", err->msg[0] ? err->msg : "a rank could not write");
		return rows_error(err, -EIO, "--rows %s: writing the rows failed (%.400s); nothing was left behind", rf->path, why);
	}
	return 0;
}
