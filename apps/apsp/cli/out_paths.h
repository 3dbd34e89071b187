/* The output paths of the tools, checked before any work. Errors as in numbers.h. (Writing the
 * outputs atomically is graph/outfile.h's.) */
#ifndef TUCCOMPI_APSP_CLI_OUT_PATHS_H
#define TUCCOMPI_APSP_CLI_OUT_PATHS_H

#include "graph.h"

/** An output path and the option that named it. */
struct cli_output
{
	const char *option; /**< "-o", "--stats", ... */
	const char *path;   /**< NULL: not given */
	int stdout_ok;      /**< "-" means standard output */
	int is_dir;         /**< a folder the program creates (--trace DIR): outputs may go into it */
};

/** Before any work: every output's folder exists and is writable (or is an is_dir output,
 *  which must be a folder or creatable), the output is not a folder, not one of @p inputs
 *  (same device and inode when both exist, or the same real path), and not another output. -EINVAL for a clash (a bad argument), another negative
 *  errno for a folder that cannot take the file. */
int cli_check_outputs(const struct cli_output *outs, unsigned nout, const char *const *inputs, unsigned nin,
		      struct graph_error *err);

#endif
