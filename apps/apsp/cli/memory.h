/* The memory a tool may take (the machine's, a cgroup's limit, --max-memory), and large outputs
 * whose pages are faulted in at once. */
#ifndef TUCCOMPI_APSP_CLI_MEMORY_H
#define TUCCOMPI_APSP_CLI_MEMORY_H

#include <stddef.h>
#include <stdint.h>

/** Bytes this process can still allocate: the smaller of the kernel's MemAvailable and the
 *  room left under a cgroup limit (v2 memory.max, v1 memory.limit_in_bytes, less what the
 *  group uses beyond reclaimable page cache). *what says which ("available memory" or
 *  "cgroup memory limit"). 0 when neither is known. */
uint64_t cli_memory_available(const char **what);

/** The memory limit a tool checks graphs against: @p option (--max-memory) when not 0, else
 *  cli_memory_available(). *what (static text) says where it comes from and how to change it,
 *  for messages. 0: no limit known. */
uint64_t cli_memory_limit(uint64_t option, const char **what);

/** @p n x @p size zeroed bytes whose pages are already in memory: the first touch (a page fault
 *  per 4 KiB page) done by @p nthreads threads at once (0: the machine's cores, at most 16), with
 *  transparent huge pages asked for. For large outputs that a run's workers would otherwise fault
 *  in one page at a time on their critical path (a 10,000 x 10,000 --matrix is 400 MB). Free
 *  with free(). NULL when out of memory or when n x size overflows. */
void *cli_calloc_touched(size_t n, size_t size, unsigned nthreads);

#endif
