/* Atomic output files and the registry of live temporary files (see outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "graph_internal.h"

/* ------------------------------------------------------------------ the registry */

/* Names are copied into fixed slots so that the signal handler reads plain memory: no
 * allocation, no lock. A slot is published by storing its owner last. */
static char live_name[OUTFILE_MAX_LIVE][PATH_MAX];
static volatile pid_t live_owner[OUTFILE_MAX_LIVE]; /* 0: free */
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

int outfile_register(const char *tmp)
{
	if (strlen(tmp) >= PATH_MAX)
		return -ENAMETOOLONG;
	pthread_mutex_lock(&live_lock);
	int slot = -ENOSPC;
	for (int i = 0; i < OUTFILE_MAX_LIVE; i++)
		if (!__atomic_load_n(&live_owner[i], __ATOMIC_ACQUIRE))
		{
			strcpy(live_name[i], tmp);
			__atomic_store_n(&live_owner[i], getpid(), __ATOMIC_RELEASE);
			slot = i;
			break;
		}
	pthread_mutex_unlock(&live_lock);
	return slot;
}

void outfile_unregister(int slot)
{
	if (slot < 0 || slot >= OUTFILE_MAX_LIVE)
		return;
	pthread_mutex_lock(&live_lock);
	__atomic_store_n(&live_owner[slot], 0, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&live_lock);
}

/* Only unlink(), getpid() and atomic loads: async-signal-safe. A forked child does not
 * remove its parent's files (the owner is the registering process). */
void outfile_cleanup_now(void)
{
	pid_t self = getpid();
	for (int i = 0; i < OUTFILE_MAX_LIVE; i++)
		if (__atomic_load_n(&live_owner[i], __ATOMIC_ACQUIRE) == self)
		{
			unlink(live_name[i]);
			__atomic_store_n(&live_owner[i], 0, __ATOMIC_RELEASE);
		}
}

static const int cleanup_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
static struct sigaction previous[sizeof cleanup_signals / sizeof cleanup_signals[0]];

static void on_signal(int sig)
{
	int saved = errno;
	outfile_cleanup_now();
	/* Whatever was there before (the default: die of the signal) handles it next, once this
	 * handler returns and the signal is unblocked. */
	for (unsigned k = 0; k < sizeof cleanup_signals / sizeof cleanup_signals[0]; k++)
		if (cleanup_signals[k] == sig)
			sigaction(sig, &previous[k], NULL);
	raise(sig);
	errno = saved;
}

static void on_exit_cleanup(void)
{
	outfile_cleanup_now();
}

void outfile_cleanup_install(void)
{
	static int installed;
	if (installed)
		return;
	installed = 1;
	atexit(on_exit_cleanup);
	for (unsigned k = 0; k < sizeof cleanup_signals / sizeof cleanup_signals[0]; k++)
	{
		struct sigaction sa;
		memset(&sa, 0, sizeof sa);
		if (sigaction(cleanup_signals[k], NULL, &previous[k]) < 0 || previous[k].sa_handler == SIG_IGN)
			continue; /* nohup and friends: leave ignored signals ignored */
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sa.sa_flags = SA_RESTART;
		sigaction(cleanup_signals[k], &sa, NULL);
	}
}

/* ------------------------------------------------------------------ atomic outputs */

int outfile_tmpname(const char *path, long pid, char *buf, size_t len)
{
	int k = snprintf(buf, len, "%s.tmp.%ld", path, pid);
	return k < 0 || (size_t)k >= len || k >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static int out_error(struct graph_error *err, int e, const char *path, const char *what, const char *name)
{
	return graph_set_error(err, -e, "%s: %s %s: %s", path, what, name, strerror(e));
}

int outfile_open_pid(struct outfile *o, const char *path, long pid, int create, struct graph_error *err)
{
	o->path = path;
	o->fd = -1;
	o->slot = -1;
	o->f = NULL;
	o->gz = NULL;
	size_t len = strlen(path) + 32;
	if (!(o->tmp = malloc(len)))
		return graph_set_error(err, -ENOMEM, "%s: out of memory", path);
	if (outfile_tmpname(path, pid, o->tmp, len) < 0)
	{
		free(o->tmp);
		o->tmp = NULL;
		return graph_set_error(err, -ENAMETOOLONG, "%s: name too long for a temporary file beside it; use a shorter path",
				       path);
	}
	/* Registered before it exists: a signal between open() and registration would leave it. */
	if ((o->slot = outfile_register(o->tmp)) < 0)
	{
		int rc = o->slot;
		free(o->tmp);
		o->tmp = NULL;
		return graph_set_error(err, rc, "%s: more than %d outputs written at once", path, OUTFILE_MAX_LIVE);
	}
	o->fd = create ? open(o->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : open(o->tmp, O_WRONLY | O_CLOEXEC);
	if (o->fd < 0)
	{
		int e = errno;
		outfile_unregister(o->slot);
		out_error(err, e, path, create ? "cannot create the temporary file" : "cannot open the temporary file", o->tmp);
		free(o->tmp);
		o->tmp = NULL;
		return -e;
	}
	return 0;
}

int outfile_open(struct outfile *o, const char *path, struct graph_error *err)
{
	return outfile_open_pid(o, path, (long)getpid(), 1, err);
}

/* ------------------------------------------------------------------ gzip outputs */

#define GZ_OUT (1u << 18) /* compressed bytes written at a time */

struct gz_out
{
	z_stream z;
	unsigned char buf[GZ_OUT];
};

static int ends_gz(const char *path)
{
	size_t n = strlen(path);
	return n >= 4 && strcasecmp(path + n - 3, ".gz") == 0;
}

const char *outfile_stem(const char *path, char *buf, size_t len)
{
	size_t n = strlen(path);
	if (!ends_gz(path) || n - 3 >= len)
		return path;
	memcpy(buf, path, n - 3);
	buf[n - 3] = '\0';
	return buf;
}

int outfile_open_text(struct outfile *o, const char *path, struct graph_error *err)
{
	int rc = outfile_open(o, path, err);
	if (rc < 0 || !ends_gz(path))
		return rc;
	struct gz_out *g = calloc(1, sizeof(*g));
	/* windowBits 15 + 16: a gzip member, as gzip and zcat read it */
	if (!g || deflateInit2(&g->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
	{
		free(g);
		outfile_abort(o);
		return graph_set_error(err, -ENOMEM, "%s: out of memory for gzip compression", path);
	}
	o->gz = g;
	return 0;
}

static void gz_end(struct outfile *o)
{
	struct gz_out *g = o->gz;
	if (!g)
		return;
	deflateEnd(&g->z);
	free(g);
	o->gz = NULL;
}

void outfile_abort(struct outfile *o)
{
	gz_end(o);
	if (o->f)
		fclose(o->f); /* closes fd */
	else if (o->fd >= 0)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	if (o->tmp)
		unlink(o->tmp);
	outfile_unregister(o->slot);
	o->slot = -1;
	free(o->tmp);
	o->tmp = NULL;
}

static int write_raw(struct outfile *o, const void *data, uint64_t len, struct graph_error *err)
{
	const char *p = data;
	while (len)
	{
		ssize_t k = write(o->fd, p, len > (1u << 30) ? (1u << 30) : (size_t)len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
		{
			int e = k < 0 ? errno : EIO;
			graph_set_error(err, -e, "%s: write error: %s", o->path, strerror(e));
			outfile_abort(o);
			return -e;
		}
		p += k;
		len -= (uint64_t)k;
	}
	return 0;
}

/* Feed @p len bytes to the deflate stream (@p flush: Z_NO_FLUSH, or Z_FINISH to end the member)
 * and write what comes out. */
static int gz_feed(struct outfile *o, const void *data, uint64_t len, int flush, struct graph_error *err)
{
	struct gz_out *g = o->gz;
	const unsigned char *p = data;
	do
	{
		uInt take = len > (1u << 30) ? (1u << 30) : (uInt)len;
		g->z.next_in = (Bytef *)p;
		g->z.avail_in = take;
		p += take;
		len -= take;
		int last = flush == Z_FINISH && len == 0, zr;
		do
		{
			g->z.next_out = g->buf;
			g->z.avail_out = GZ_OUT;
			zr = deflate(&g->z, last ? Z_FINISH : Z_NO_FLUSH);
			if (zr == Z_STREAM_ERROR)
			{
				graph_set_error(err, -EIO, "%s: gzip compression failed", o->path);
				outfile_abort(o);
				return -EIO;
			}
			int rc = write_raw(o, g->buf, GZ_OUT - g->z.avail_out, err);
			if (rc < 0)
				return rc;
		} while (g->z.avail_out == 0 || (last && zr != Z_STREAM_END));
	} while (len > 0);
	return 0;
}

int outfile_write(struct outfile *o, const void *data, uint64_t len, struct graph_error *err)
{
	return o->gz ? gz_feed(o, data, len, Z_NO_FLUSH, err) : write_raw(o, data, len, err);
}

int outfile_buf_open(struct outfile_buf *b, const char *path, size_t size, struct graph_error *err)
{
	b->size = size;
	if (!(b->buf = malloc(size)))
		return graph_set_error(err, -ENOMEM, "%s: out of memory for a %zu-byte write buffer", path, size);
	int rc = outfile_open_text(&b->o, path, err);
	if (rc < 0)
		free(b->buf);
	return rc;
}

int outfile_buf_commit(struct outfile_buf *b, char *p, int rc, struct graph_error *err)
{
	if (rc == 0 && (rc = outfile_write(&b->o, b->buf, (uint64_t)(p - b->buf), err)) == 0)
		rc = outfile_commit(&b->o, err);
	free(b->buf);
	b->buf = NULL;
	return rc;
}

FILE *outfile_stream(struct outfile *o, struct graph_error *err)
{
	if (o->gz)
	{
		graph_set_error(err, -EINVAL, "%s: a gzipped output has no stdio stream", o->path);
		return NULL;
	}
	if (!o->f && !(o->f = fdopen(o->fd, "w")))
		graph_set_error(err, -errno, "%s: cannot write %s: %s", o->path, o->tmp, strerror(errno));
	return o->f;
}

int outfile_close(struct outfile *o, struct graph_error *err)
{
	const char *what = NULL;
	int e = 0;
	if (o->gz)
	{
		int rc = gz_feed(o, "", 0, Z_FINISH, err);
		if (rc < 0)
			return rc; /* aborted */
		gz_end(o);
	}
	if (o->f && (fflush(o->f) != 0 || ferror(o->f)))
		what = "write error", e = errno ? errno : EIO;
	else if (fsync(o->fd) < 0 && errno != EINVAL) /* EINVAL: a file that cannot be synced */
		what = "cannot sync", e = errno;
	else
	{
		int rc = o->f ? fclose(o->f) : close(o->fd);
		o->f = NULL;
		o->fd = -1;
		if (rc < 0)
			what = "write error", e = errno;
	}
	if (what)
	{
		graph_set_error(err, -e, "%s: %s: %s", o->path, what, strerror(e));
		outfile_abort(o);
		return -e;
	}
	return 0;
}

static void forget(struct outfile *o)
{
	outfile_unregister(o->slot);
	o->slot = -1;
	free(o->tmp);
	o->tmp = NULL;
}

int outfile_rename(struct outfile *o, struct graph_error *err)
{
	if (rename(o->tmp, o->path) < 0)
	{
		int e = errno;
		graph_set_error(err, -e, "%s: cannot rename the temporary file onto it: %s", o->path, strerror(e));
		outfile_abort(o);
		return -e;
	}
	forget(o);
	return 0;
}

int outfile_commit(struct outfile *o, struct graph_error *err)
{
	int rc = outfile_close(o, err);
	return rc < 0 ? rc : outfile_rename(o, err);
}

void outfile_forget(struct outfile *o)
{
	gz_end(o);
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	forget(o);
}
