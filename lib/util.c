/* Small helpers of the core, each written once: the clock and the deadlines of timed waits, atomic
 * file output. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double _tuccompi_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void _tuccompi_abstime(double s, struct timespec *ts)
{
	clock_gettime(CLOCK_REALTIME, ts);
	if (s < 0)
		s = 0;
	long ns = ts->tv_nsec + (long)((s - (double)(time_t)s) * 1e9);
	ts->tv_sec += (time_t)s + ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
}

double tuccompi_wtime(void)
{
	return _tuccompi_now();
}

int _tuccompi_atomic_open(struct _tuccompi_atomic_file *af, const char *path)
{
	if (snprintf(af->path, sizeof(af->path), "%s", path) >= (int)sizeof(af->path))
		return _tuccompi_error(-ENAMETOOLONG, "file name too long: %s", path);
	snprintf(af->tmp, sizeof(af->tmp), "%s.tmp-%d", path, (int)getpid());
	af->f = fopen(af->tmp, "w");
	if (!af->f)
		return _tuccompi_error(-errno, "cannot create %s: %s (is the folder there and writable?)", af->tmp,
				       strerror(errno));
	return 0;
}

int _tuccompi_atomic_commit(struct _tuccompi_atomic_file *af)
{
	int bad = ferror(af->f);
	if (fflush(af->f) != 0 || fsync(fileno(af->f)) != 0)
		bad = 1;
	int e = errno;
	if (fclose(af->f) != 0 && !bad)
	{
		bad = 1;
		e = errno;
	}
	af->f = NULL;
	if (!bad && rename(af->tmp, af->path) == 0)
		return 0;
	if (!bad)
		e = errno;
	unlink(af->tmp);
	return _tuccompi_error(-(e ? e : EIO), "cannot write %s: %s (nothing was left behind)", af->path,
			       strerror(e ? e : EIO));
}

void _tuccompi_atomic_abort(struct _tuccompi_atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	unlink(af->tmp);
}
