/* Inside the contraction hierarchy (ch.h): the object, shared by its builder (ch_build.c), its
 * cache file (ch_file.c) and its accessors (ch.c). */
#ifndef TUCCOMPI_SSSP_CH_INTERNAL_H
#define TUCCOMPI_SSSP_CH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/fail.h"
#include "phast/ch.h"

#define NONE UINT32_MAX /* middle vertex of an arc of the input graph */

struct sssp_ch
{
	struct sssp_ch_stats st;
	uint32_t n, levels;
	uint64_t up_arcs, down_arcs;
	uint32_t *level_start, *pos, *orig;
	uint64_t *up_start, *upin_start, *down_start;
	struct sssp_ch_arc *up, *upin, *down;
	uint32_t *up_mid, *down_mid;
};

/* A hierarchy of n vertices, levels levels, up and down arcs, its arrays allocated (at least one
 * element each, so that every buffer has a valid pointer); NULL when out of memory. */
struct sssp_ch *sssp_ch_alloc(uint32_t n, uint32_t levels, uint64_t up, uint64_t down);

#endif
