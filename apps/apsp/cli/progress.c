/* The progress line of a run (progress.h). */
#include "progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

int cli_progress_wanted(void)
{
	return isatty(1) || isatty(2);
}

void cli_progress_format(char *buf, size_t len, double done, uint64_t total, double elapsed_s, int approx)
{
	enum { WIDTH = 30 };
	char bar[WIDTH + 1], eta[32];
	int fill = total ? (int)(WIDTH * done / (double)total) : 0;
	for (int i = 0; i < WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[WIDTH] = '\0';
	double rate = elapsed_s > 0 ? done / elapsed_s : 0;
	/* No estimate before the first task is done: "ETA 0 s" would be a lie. */
	if (done > 0 && rate > 0)
		snprintf(eta, sizeof eta, "%.0f s", ((double)total - done) / rate);
	else
		snprintf(eta, sizeof eta, "--");
	snprintf(buf, len, "[%s] %s%.0f/%" PRIu64 " SSSP  %.1f SSSP/s  ETA %s   ", bar, approx ? "~" : "", done, total, rate,
		 eta);
}
