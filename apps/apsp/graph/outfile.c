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
#include <unistd.h>

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

void outfile_abort(struct outfile *o)
{
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

int outfile_write(struct outfile *o, const void *data, uint64_t len, struct graph_error *err)
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

FILE *outfile_stream(struct outfile *o, struct graph_error *err)
{
	if (!o->f && !(o->f = fdopen(o->fd, "w")))
		graph_set_error(err, -errno, "%s: cannot write %s: %s", o->path, o->tmp, strerror(errno));
	return o->f;
}

int outfile_close(struct outfile *o, struct graph_error *err)
{
	const char *what = NULL;
	int e = 0;
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
	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	o->f = NULL;
	o->fd = -1;
	forget(o);
}
