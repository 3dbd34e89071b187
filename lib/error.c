/* Error reporting: one line per failure, kept per thread for tuccompi_last_error(). */
#include "internal.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static __thread char last_error[1024];

int _tuccompi_error(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
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

void _tuccompi_log(const char *fmt, ...)
{
	if (_tuccompi.quiet)
		return;
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (_tuccompi.nranks > 1)
		fprintf(stderr, "[tuccompi %d/%d] %s\n", _tuccompi.rank, _tuccompi.nranks, line);
	else
		fprintf(stderr, "[tuccompi] %s\n", line);
}

double _tuccompi_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
