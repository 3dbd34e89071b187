/* The helpers shared by the APSP application's command-line tools (tuccompi-apsp,
 * tuccompi-graph), one topic a file under cli/: strict numbers (numbers.h), option tables
 * (options.h), generator specs and the rounding warning (graphs.h), source and target sets
 * (vertex_set.h), output-path checks (out_paths.h), the memory limit (memory.h) and the progress
 * line (progress.h). Atomic outputs and the cleanup of temporary files on signals are in
 * graph/outfile.h (the graph library writes through them too). This header gathers them, with
 * the SSSP engines' view of a graph, for the tests and benchmarks. */
#ifndef TUCCOMPI_APSP_CLI_H
#define TUCCOMPI_APSP_CLI_H

#include "cli/graphs.h"
#include "cli/memory.h"
#include "cli/numbers.h"
#include "cli/options.h"
#include "cli/out_paths.h"
#include "cli/progress.h"
#include "cli/vertex_set.h"
#include "graph_view.h"
#include "outfile.h"

#endif
