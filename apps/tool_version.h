/* --version of the programs in apps/: one line on stdout naming the program, the version of
 * the headers it was built with, and the library it runs with (and what that was built with).
 * Starts nothing (no StarPU). */
#ifndef TUCCOMPI_TOOL_VERSION_H
#define TUCCOMPI_TOOL_VERSION_H

#include <stdio.h>
#include <tuccompi.h>

#define TOOL_STR_(x) #x
#define TOOL_STR(x) TOOL_STR_(x)
/** The version of the headers a program was built with, "MAJOR.MINOR.PATCH". */
#define TOOL_VERSION TOOL_STR(TUCCOMPI_VERSION_MAJOR) "." TOOL_STR(TUCCOMPI_VERSION_MINOR) "." TOOL_STR(TUCCOMPI_VERSION_PATCH)

/** Print "PROG VERSION (libtuccompi-starpu VERSION: CUDA yes, MPI yes, FxT no)". */
static inline void tool_print_version(const char *prog)
{
	printf("%s %s (libtuccompi-starpu %s: CUDA %s, MPI %s, FxT %s)\n", prog, TOOL_VERSION, tuccompi_version(),
	       tuccompi_have_cuda() ? "yes" : "no", tuccompi_have_mpi() ? "yes" : "no", tuccompi_have_fxt() ? "yes" : "no");
}

/** The same for programs that do not load the library (tuccompi-graph: graphs only), so that
 *  they start fast and run where the runtime's dependencies are missing. */
static inline void tool_print_version_static(const char *prog)
{
	printf("%s %s (built with libtuccompi-starpu %s headers; runs without the library)\n", prog, TOOL_VERSION,
	       TOOL_VERSION);
}

#endif
