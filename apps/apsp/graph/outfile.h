/* Atomic output files for the APSP application's library and tools.
 *
 * PATH is written as a temporary file "PATH.tmp.PID" in the same folder (so that the final
 * rename stays on one file system), then synced and renamed over PATH: a reader of PATH sees
 * the old file or the complete new one. The one naming scheme is outfile_tmpname().
 *
 * Every temporary file alive is in a registry; outfile_cleanup_install() removes them when
 * the process exits (exit(), also on error paths) or is killed by SIGINT, SIGTERM, SIGHUP or
 * SIGPIPE (the handler only calls unlink(), then re-raises the signal with the handler that
 * was there before). Nothing survives but complete outputs. */
#ifndef TUCCOMPI_APSP_OUTFILE_H
#define TUCCOMPI_APSP_OUTFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Temporary files alive at once (outputs of one run: table, rows, stats, caches). */
#define OUTFILE_MAX_LIVE 16

/** An output being written. */
struct outfile
{
	const char *path; /**< the final name (kept by reference) */
	char *tmp;        /**< the temporary name (owned) */
	int fd;
	int slot;         /**< registry slot, -1 when not registered */
	FILE *f;          /**< outfile_stream(), or NULL */
	void *gz;         /**< outfile_open_text() of a .gz name: the deflate stream, or NULL */
};

/** "PATH.tmp.PID" into @p buf; -ENAMETOOLONG when it does not fit in @p len or PATH_MAX. */
int outfile_tmpname(const char *path, long pid, char *buf, size_t len);

/** Create the temporary file of @p path (this process's pid) and register it.
 *  Returns 0 or a negative errno with one line in @p err (what, where, why). */
int outfile_open(struct outfile *o, const char *path, struct graph_error *err);

/** Like outfile_open(), for text that outfile_write() gzips when @p path ends in ".gz" (fast
 *  compression, gzip -1: recompress with gzip -9 where size matters more than time). Such an
 *  output has no outfile_stream(). */
int outfile_open_text(struct outfile *o, const char *path, struct graph_error *err);

/** @p path without a final ".gz" into @p buf (the name that tells a text format); @p path itself
 *  when it does not end so or does not fit. */
const char *outfile_stem(const char *path, char *buf, size_t len);

/** Like outfile_open(), with the temporary name of process @p pid, for outputs several
 *  processes write together (all ranks use rank 0's pid). @p create: 1 creates it (O_TRUNC),
 *  0 opens the existing one for writing (another process created it). */
int outfile_open_pid(struct outfile *o, const char *path, long pid, int create, struct graph_error *err);

/** Write @p len bytes at the current offset (retries short writes and EINTR). On failure the
 *  output is aborted (temporary file removed). */
int outfile_write(struct outfile *o, const void *data, uint64_t len, struct graph_error *err);

/** A stdio stream writing the temporary file, owned by @p o (outfile_close / abort close it);
 *  NULL with a message when it cannot be made. Errors of the stream are found at close. */
FILE *outfile_stream(struct outfile *o, struct graph_error *err);

/** Sync and close the temporary file, then rename it over the final name; on failure the
 *  temporary file is removed. */
int outfile_commit(struct outfile *o, struct graph_error *err);

/** The two halves of outfile_commit(), for outputs several processes write: every writer
 *  syncs and closes (outfile_close), then one renames (outfile_rename) and the others
 *  outfile_forget(). Each removes the temporary file when it fails. */
int outfile_close(struct outfile *o, struct graph_error *err);
int outfile_rename(struct outfile *o, struct graph_error *err);
/** Close and unregister without removing the file (another process renames it). */
void outfile_forget(struct outfile *o);

/** A text output written through a buffer: the writer puts its lines at a pointer into
 *  outfile_buf::buf, asking outfile_buf_room() before each line, and ends with outfile_buf_commit(). */
struct outfile_buf
{
	struct outfile o;
	char *buf;
	size_t size;
};

/** outfile_open_text() of @p path with a buffer of @p size bytes. 0, or a negative errno with the
 *  message (nothing left behind). */
int outfile_buf_open(struct outfile_buf *b, const char *path, size_t size, struct graph_error *err);

/** Room for a line of at most @p line bytes at *p: the buffer is written out first when it has
 *  less left (*p then points at its start). 0, or a negative errno (the output aborted). */
static inline int outfile_buf_room(struct outfile_buf *b, char **p, size_t line, struct graph_error *err)
{
	if (*p <= b->buf + b->size - line)
		return 0;
	int rc = outfile_write(&b->o, b->buf, (uint64_t)(*p - b->buf), err);
	*p = b->buf;
	return rc;
}

/** With @p rc 0: write the buffer up to @p p and commit; else (an earlier call failed, the output
 *  is aborted) just end. Frees the buffer. Returns the result. */
int outfile_buf_commit(struct outfile_buf *b, char *p, int rc, struct graph_error *err);

/** Close and remove the temporary file (safe after a failed call; idempotent). */
void outfile_abort(struct outfile *o);

/** Put @p tmp (a path; copied) in the registry of files to remove on exit or signal.
 *  Returns the slot or -ENOSPC. Thread-safe. */
int outfile_register(const char *tmp);
/** Take slot @p slot out of the registry (the file itself is left alone); -1 is ignored. */
void outfile_unregister(int slot);

/** Install, once, the exit and signal handlers that remove the registered files. Signals
 *  whose disposition is "ignore" stay ignored. Call early in main(), before starting
 *  threads; installing again is a no-op. */
void outfile_cleanup_install(void);

/** Remove every registered file now (what the handlers do). Async-signal-safe. */
void outfile_cleanup_now(void);

#ifdef __cplusplus
}
#endif

#endif
