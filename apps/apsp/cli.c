/* Helpers shared by the APSP application's command-line tools. */
#include <time.h>

#include "cli.h"

double cli_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
