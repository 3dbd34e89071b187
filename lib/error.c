/* Error reporting: one line per failure, in the library's one carrier (struct _tuccompi_fail):
 * per thread for tuccompi_last_error(); a job's, a task set's or a GPU launch's failure, met on
 * another thread (the MS feeder, StarPU's workers), is raised again on the caller's thread
 * (tuccompi_wait()). */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static __thread struct _tuccompi_fail last;

int _tuccompi_fail_vset(struct _tuccompi_fail *f, int err, const char *fmt, va_list ap)
{
	if (f->err)
		return f->err; /* the first reason is the one to tell */
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	/* the line before the error: a reader that sees the error finds its line */
	__atomic_store_n(&f->err, err < 0 ? err : -EIO, __ATOMIC_RELEASE);
	return f->err;
}

int _tuccompi_fail_set(struct _tuccompi_fail *f, int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int ret = _tuccompi_fail_vset(f, err, fmt, ap);
	va_end(ap);
	return ret;
}

int _tuccompi_fail_raise(const struct _tuccompi_fail *f)
{
	int err = __atomic_load_n(&f->err, __ATOMIC_ACQUIRE);
	if (!err || f == &last)
		return err;
	snprintf(last.msg, sizeof(last.msg), "%s", f->msg);
	last.err = err;
	return err;
}

int _tuccompi_error(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last.msg, sizeof(last.msg), fmt, ap);
	va_end(ap);
	last.err = err;
	return err;
}

void _tuccompi_clear_error(void)
{
	last.err = 0;
	last.msg[0] = '\0';
}

const char *tuccompi_last_error(void)
{
	return last.msg;
}

const char *tuccompi_strerror(int err)
{
	if (err > 0)
		return "no error (positive value)";
	if (err == 0)
		return "success";
	return strerror(-err);
}

static void vprint(const char *fmt, va_list ap)
{
	char line[1024];
	vsnprintf(line, sizeof(line), fmt, ap);
	if (_tuccompi.nranks > 1)
		fprintf(stderr, "[tuccompi %d/%d] %s\n", _tuccompi.rank, _tuccompi.nranks, line);
	else
		fprintf(stderr, "[tuccompi] %s\n", line);
}

void _tuccompi_log(const char *fmt, ...)
{
	if (_tuccompi.quiet)
		return;
	va_list ap;
	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
}

void _tuccompi_warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
}
