/* The progress line of a run: whether to show it, and its text. */
#ifndef TUCCOMPI_APSP_CLI_PROGRESS_H
#define TUCCOMPI_APSP_CLI_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/** Whether a progress line should be shown: standard output or standard error is a terminal
 *  (mpirun gives ranks a terminal on stdout only; the line itself goes to stderr). */
int cli_progress_wanted(void);

/** One progress line, without newline: a bar, done/total (with "~" when @p approx, i.e. an
 *  estimate from rank 0's share), the rate and an ETA ("ETA --" until a task is done). */
void cli_progress_format(char *buf, size_t len, double done, uint64_t total, double elapsed_s, int approx);

#endif
