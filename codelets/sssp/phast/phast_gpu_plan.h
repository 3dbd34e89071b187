// GPU PHAST's level plans, shared by its kernel (phast_gpu.cu) and its profile (phast_gpu_profile.cu).
#ifndef TUCCOMPI_SSSP_PHAST_GPU_PLAN_H
#define TUCCOMPI_SSSP_PHAST_GPU_PLAN_H

#include <stdint.h>

#include "phast/ch.h"

namespace phast_plan
{
constexpr uint32_t CHAINED = 0x80000000u;  // in level_plan::up / down: run by block 0
constexpr uint32_t FILTERED = 0x40000000u; // in level_plan::up: up_filtered

// A level of the hierarchy and, per sweep, CHAINED | FILTERED | warps per vertex.
struct level_plan
{
	uint32_t p0, p1, up, down;
};

__host__ __device__ __forceinline__ unsigned split_of(uint32_t plan)
{
	return plan & ~(CHAINED | FILTERED);
}

// knobs->profile: print on stderr where a pass of @p k sources (of @p lanes) went, from the times @p t
// its kernel stamped (2 + 2 L entries) and its device plans @p dplan (L of them), per class of levels.
void phast_print_profile(const struct sssp_ch_view *v, const level_plan *dplan, const unsigned long long *t,
			 unsigned lanes, unsigned k, unsigned grid, unsigned blk);
} // namespace phast_plan

#endif
