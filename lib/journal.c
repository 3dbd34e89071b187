/* The resume journal: every rank appends the results of its finished tasks to JOURNAL.rank-R,
 * so that a run killed at any moment (kill -9 of a rank or of the whole job, a node lost) can
 * be resumed by running only what no journal holds.
 *
 * A file: a 48-byte header (magic "TCCJRN01", version, result size, task count, the caller's
 * key, a checksum of the header), then records: task id (8 bytes), its result, a CRC-32 of
 * both. Records are written with one write() per job as it finishes (so a killed process
 * loses nothing the kernel already has) and the file is synced to disk at most once a
 * second and at the end (a lost node loses at most the last second). A torn last record
 * (killed mid-write) fails its checksum and is ignored; the task runs again.
 *
 * Resuming, the root reads every JOURNAL.rank-* file, whatever the earlier number of ranks,
 * refuses a journal of another run (key, task count or result size differ), and tells every
 * rank which tasks are done; ranks then run only the others, and append to their own file. */
#include "taskset.h"

#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_MAGIC "TCCJRN01"
#define JOURNAL_VERSION 1u
#define HEADER_SIZE 48

struct _tuccompi_journal
{
	int fd;
	char path[PATH_MAX];
	pthread_mutex_t lock;
	double last_sync;
	int write_error;
	unsigned char *buf;
	size_t cap;
};

static uint32_t crc32_update(uint32_t crc, const void *data, size_t len)
{
	static uint32_t table[256];
	static int ready;
	if (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
	{
		for (uint32_t i = 0; i < 256; i++)
		{
			uint32_t c = i;
			for (int k = 0; k < 8; k++)
				c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
			table[i] = c;
		}
		__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	}
	const unsigned char *p = data;
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void make_header(unsigned char *h, const struct tuccompi_taskset *ts)
{
	memset(h, 0, HEADER_SIZE);
	memcpy(h, JOURNAL_MAGIC, 8);
	uint32_t version = JOURNAL_VERSION, rs = (uint32_t)ts->plugin.result_size;
	uint64_t n = ts->desc.ntasks, key = ts->desc.journal_key;
	memcpy(h + 8, &version, 4);
	memcpy(h + 12, &rs, 4);
	memcpy(h + 16, &n, 8);
	memcpy(h + 24, &key, 8);
	uint32_t crc = crc32_update(0, h, 40);
	memcpy(h + 40, &crc, 4);
}

static int write_all(int fd, const void *p, size_t len)
{
	const char *c = p;
	while (len)
	{
		ssize_t w = write(fd, c, len);
		if (w < 0)
		{
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Read one journal file into done[] (and results, on the reader): the number of records
 * taken, or a negative errno with a message. */
static long read_file(const char *path, const struct tuccompi_taskset *ts, uint8_t *done, unsigned char *results)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return _tuccompi_error(-errno, "cannot read journal %s: %s", path, strerror(errno));
	unsigned char h[HEADER_SIZE], want[HEADER_SIZE];
	make_header(want, ts);
	if (fread(h, 1, HEADER_SIZE, f) != HEADER_SIZE || memcmp(h, JOURNAL_MAGIC, 8) != 0)
	{
		fclose(f);
		return _tuccompi_error(-EINVAL, "%s is not a journal of this library (bad header); remove it", path);
	}
	if (memcmp(h, want, HEADER_SIZE) != 0)
	{
		fclose(f);
		return _tuccompi_error(-ESTALE,
				       "journal %s belongs to another run (its graph, sources, engine or options differ); "
				       "remove it, or run without resuming",
				       path);
	}
	size_t rs = ts->plugin.result_size, len = 8 + rs + 4;
	unsigned char *rec = malloc(len);
	if (!rec)
	{
		fclose(f);
		return _tuccompi_error(-ENOMEM, "out of memory reading %s", path);
	}
	long n = 0;
	while (fread(rec, 1, len, f) == len)
	{
		uint64_t id;
		uint32_t crc;
		memcpy(&id, rec, 8);
		memcpy(&crc, rec + 8 + rs, 4);
		if (crc32_update(0, rec, 8 + rs) != crc || id >= ts->desc.ntasks)
			break; /* a torn record: the rest of this file is not trusted */
		done[id] = 1;
		if (results && rs)
			memcpy(results + id * rs, rec + 8, rs);
		n++;
	}
	free(rec);
	fclose(f);
	return n;
}

/* Root: which tasks do the journals hold (their results into the root's results). */
static int read_all(struct tuccompi_taskset *ts, uint8_t *done)
{
	char pat[PATH_MAX + 16];
	snprintf(pat, sizeof(pat), "%s.rank-*", ts->desc.journal);
	glob_t g;
	int gr = glob(pat, 0, NULL, &g);
	if (gr == GLOB_NOMATCH)
		return 0; /* nothing to resume from: everything runs */
	if (gr != 0)
		return _tuccompi_error(-EIO, "cannot list the journal files %s", pat);
	int ret = 0;
	for (size_t i = 0; i < g.gl_pathc && ret == 0; i++)
	{
		long n = read_file(g.gl_pathv[i], ts, done, ts->local_results);
		if (n < 0)
			ret = (int)n;
	}
	globfree(&g);
	return ret;
}

int _tuccompi_journal_read(struct tuccompi_taskset *ts, uint8_t **done)
{
	uint64_t n = ts->desc.ntasks;
	*done = calloc(n ? n : 1, 1);
	if (!*done)
		return _tuccompi_error(-ENOMEM, "out of memory for the journal's %llu entries", (unsigned long long)n);
	int ret = read_all(ts, *done);
	if (ret < 0)
	{
		free(*done);
		*done = NULL;
	}
	return ret;
}

int _tuccompi_journal_skip(struct tuccompi_taskset *ts, const uint8_t *done)
{
	uint64_t n = ts->desc.ntasks, todo = 0;
	for (uint64_t i = 0; i < n; i++)
		todo += !done[i];
	ts->todo = malloc((todo ? todo : 1) * sizeof(uint64_t));
	if (!ts->todo)
		return _tuccompi_error(-ENOMEM, "out of memory for the tasks to run");
	for (uint64_t i = 0, k = 0; i < n; i++)
		if (!done[i])
			ts->todo[k++] = i;
	ts->ntodo = todo;
	ts->nresumed = n - todo;
	return 0;
}

int _tuccompi_journal_open(struct tuccompi_taskset *ts)
{
	uint64_t n = ts->desc.ntasks;
	int ret = 0;
	struct _tuccompi_journal *j = calloc(1, sizeof(*j));
	if (!j)
		return _tuccompi_error(-ENOMEM, "out of memory");
	snprintf(j->path, sizeof(j->path), "%s.rank-%d", ts->desc.journal, _tuccompi.rank);
	pthread_mutex_init(&j->lock, NULL);
	/* Resuming: append to our file if it is there (its header was checked by the root when the
	 * file system is shared; check again here in case it is not). Otherwise start it afresh. */
	struct stat sb;
	int append = ts->desc.resume && stat(j->path, &sb) == 0 && sb.st_size >= HEADER_SIZE;
	long good = 0;
	if (append)
	{
		uint8_t *scratch = calloc(n ? n : 1, 1);
		good = scratch ? read_file(j->path, ts, scratch, NULL) : -ENOMEM;
		free(scratch);
		if (good < 0)
		{
			free(j);
			return (int)good;
		}
	}
	j->fd = open(j->path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0666);
	/* A torn or damaged record ends what is trusted: cut the file there, or the records
	 * appended after it would never be read. */
	if (j->fd >= 0 && append &&
	    ftruncate(j->fd, (off_t)(HEADER_SIZE + (uint64_t)good * (8 + ts->plugin.result_size + 4))) < 0)
	{
		close(j->fd);
		j->fd = -1;
	}
	if (j->fd < 0)
	{
		ret = _tuccompi_error(-errno, "cannot open journal %s: %s (is its folder there and writable?)", j->path,
				      strerror(errno));
		free(j);
		return ret;
	}
	if (!append)
	{
		unsigned char h[HEADER_SIZE];
		make_header(h, ts);
		if ((ret = write_all(j->fd, h, HEADER_SIZE)) < 0 || fdatasync(j->fd) < 0)
		{
			ret = _tuccompi_error(ret < 0 ? ret : -errno, "cannot write journal %s: %s", j->path,
					      strerror(ret < 0 ? -ret : errno));
			close(j->fd);
			unlink(j->path);
			free(j);
			return ret;
		}
	}
	j->last_sync = _tuccompi_now();
	ts->journal = j;
	return 0;
}

void _tuccompi_journal_record(struct tuccompi_taskset *ts, const uint64_t *ids, unsigned n)
{
	struct _tuccompi_journal *j = ts->journal;
	size_t rs = ts->plugin.result_size, len = 8 + rs + 4;
	pthread_mutex_lock(&j->lock);
	if (j->cap < n * len)
	{
		free(j->buf);
		j->cap = n * len;
		j->buf = malloc(j->cap);
	}
	if (!j->buf)
	{
		j->cap = 0;
		j->write_error = ENOMEM;
		pthread_mutex_unlock(&j->lock);
		return;
	}
	for (unsigned i = 0; i < n; i++)
	{
		unsigned char *r = j->buf + i * len;
		memcpy(r, &ids[i], 8);
		if (rs)
			memcpy(r + 8, ts->local_results + ids[i] * rs, rs);
		uint32_t crc = crc32_update(0, r, 8 + rs);
		memcpy(r + 8 + rs, &crc, 4);
	}
	int ret = write_all(j->fd, j->buf, n * len);
	if (ret < 0 && !j->write_error)
		j->write_error = -ret;
	double t = _tuccompi_now();
	if (t - j->last_sync >= 1.0)
	{
		fdatasync(j->fd);
		j->last_sync = t;
	}
	pthread_mutex_unlock(&j->lock);
}

int _tuccompi_journal_close(struct tuccompi_taskset *ts)
{
	struct _tuccompi_journal *j = ts->journal;
	if (!j)
		return 0;
	ts->journal = NULL;
	int ret = 0;
	if (fdatasync(j->fd) < 0 && !j->write_error)
		j->write_error = errno;
	close(j->fd);
	if (j->write_error)
	{
		_tuccompi_warn("journal %s could not be written (%s): a resumed run would recompute those tasks", j->path,
			       strerror(j->write_error));
		ret = -j->write_error;
	}
	pthread_mutex_destroy(&j->lock);
	free(j->buf);
	free(j);
	return ret;
}

int tuccompi_journal_remove(const char *journal)
{
	if (!journal)
		return _tuccompi_error(-EINVAL, "tuccompi_journal_remove: NULL path");
	char pat[PATH_MAX + 16];
	snprintf(pat, sizeof(pat), "%s.rank-*", journal);
	glob_t g;
	if (glob(pat, 0, NULL, &g) != 0)
		return 0;
	int ret = 0;
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (unlink(g.gl_pathv[i]) < 0 && errno != ENOENT)
			ret = _tuccompi_error(-errno, "cannot remove %s: %s", g.gl_pathv[i], strerror(errno));
	globfree(&g);
	return ret;
}
