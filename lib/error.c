/* Error reporting: one line per failure, kept per thread for tuccompi_last_error(). Errors of
 * other threads (the MS feeder, StarPU's workers) travel on the task set and are set here
 * again on the caller's thread by tuccompi_wait(). */
#include "internal.h"

#include <stdio.h>
#include <string.h>

static __thread char last_error[1024];

int _tuccompi_error(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return err;
}

int _tuccompi_error_set(int err, const char *msg)
{
	snprintf(last_error, sizeof(last_error), "%s", msg);
	return err;
}

void _tuccompi_clear_error(void)
{
	last_error[0] = '\0';
}

const char *tuccompi_last_error(void)
{
	return last_error;
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
