/* How the ranks of one node share it (lib/runtime.c places a rank with these): which GPUs each
 * local rank drives and which block of the node's cores it gets. Pure functions of the node's
 * shape, the same on every rank, so that the blocks never overlap; tests/core/node_split checks
 * them. */
#ifndef TUCCOMPI_NODE_SPLIT_H
#define TUCCOMPI_NODE_SPLIT_H

#include "internal.h"

#define TUCCOMPI_SPLIT_MAX_RANKS 1024 /* ranks of one node beyond which blocks are equal */

/* The GPUs the node split gives local rank @j of @ls when the node has @g (device d to rank d mod
 * ls; with fewer GPUs than ranks, the first ranks one each), at most @cap when @cap > 0; their ids
 * go to @ids when not NULL. */
TUCCOMPI_INTERNAL int _tuccompi_split_gpus(int g, int ls, int j, int cap, unsigned *ids);

/* Local rank @lr's block [*first, *last) of the node's @ncores cores, rank j needing need[j] cores
 * (0: any share will do). Equal blocks, unless a rank needs more than its share: then each such
 * rank gets what it needs and the others share the rest, at least two cores each; where that
 * does not fit, equal blocks. A GPU's rank needs a core for each stream worker and one for
 * StarPU-MPI's polling thread: with an equal block that is short of them, its threads share cores
 * and every unit of the node waits for them. */
TUCCOMPI_INTERNAL void _tuccompi_split_cores(int ncores, int ls, int lr, const int *need, int *first, int *last);

#endif
