// What the two ways of running Brandes' sweeps on a GPU share (brandes_gpu.cu: Kahn's rounds;
// brandes_gpu_order.cu: one pass in the order of distances): constants, the warp's exact sum of its
// 64 slots, and the ordered sweeps' entry points. Device code only (included by .cu files).
#ifndef TUCCOMPI_SSSP_BRANDES_GPU_CUH
#define TUCCOMPI_SSSP_BRANDES_GPU_CUH

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "brandes/brandes.h"
#include "common/fail.h"
#include "common/gpu_launch.h"

#define BRANDES_INF 0xffffffffu
#define BRANDES_FULL 0xffffffffu
#define BRANDES_SLOTS 64

// Warp-wide: add the lanes' contributions (x[h] where on[h]) into *dst exactly; lane 0 writes.
// Integer additions: the result does not depend on their order.
__device__ __forceinline__ void brandes_warp_add_exact(struct tuccompi_exact *dst, const double x[2], const bool on[2])
{
	struct tuccompi_exact s = { { 0, 0, 0 } };
	for (int h = 0; h < 2; h++)
		if (on[h] && x[h] != 0.0)
			tuccompi_exact_add(&s, x[h]);
#pragma unroll
	for (int off = 16; off > 0; off >>= 1)
	{
		struct tuccompi_exact o;
		for (int i = 0; i < 3; i++)
			o.w[i] = __shfl_down_sync(BRANDES_FULL, (unsigned long long)s.w[i], off);
		tuccompi_exact_combine(&s, &o);
	}
	if ((threadIdx.x & 31) == 0 && (s.w[0] | s.w[1] | s.w[2]))
		tuccompi_exact_combine(dst, &s);
}

// Host side, one way to fail (common/fail.h): a line in err, a negative errno; sssp_brandes_gpu waits
// for its stream before it returns an error (its caller may then free the workspace).
#define BRANDES_FAIL(code, ...) return sssp_fail(err, errlen, (code), __VA_ARGS__)
#define BRANDES_CK(call) TUCCOMPI_CUDA_CHECK(call, "sssp_brandes_gpu", err, errlen)

// Host side: the next 256-byte aligned place for bytes in a workspace laid out from offset *off.
static inline size_t brandes_place(size_t *off, size_t bytes)
{
	size_t at = *off;
	*off = (at + bytes + 255) & ~(size_t)255;
	return at;
}

/** Whether the ordered sweeps can run this graph: every arc weighs at least 1 (so a tight arc always
 *  joins two different distances), and its pairs and chunks fit in 31 bits. */
bool brandes_order_applies(uint32_t n, const struct sssp_brandes_shape *s);

enum
{
	BRANDES_AUTO,   // where the ordered sweeps apply, time both ways on a graph's first batches
	BRANDES_ORDER,  // the ordered sweeps where they apply
	BRANDES_ROUNDS, // Kahn's rounds always
};

/** The way of a batch on @p g (TUCCOMPI_BRANDES_SWEEP, brandes_order_applies(), and in auto mode
 *  the graph's trials so far): *ordered; *trial >= 0 when the batch is a timed trial, to be reported
 *  to brandes_sweep_done(). 0, or -EINVAL for a bad TUCCOMPI_BRANDES_SWEEP (one line in @p err). */
int brandes_sweep_pick(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *s, int *ordered, int *trial,
		       char *err, size_t errlen);

/** A trial's time (no-op for trial < 0). */
void brandes_sweep_done(const struct sssp_brandes_graph *g, int trial, double seconds);

/** Device bytes the ordered sweeps need beyond what they borrow from the rounds' workspace (n
 *  vertices, m arcs); 0 where they do not apply. */
size_t brandes_order_workspace_size(uint32_t n, uint64_t m, const struct sssp_brandes_shape *s);

/** The rounds' workspace the ordered sweeps borrow. */
struct brandes_order_borrowed
{
	double *sigma, *delta;        // n * 64 each
	double *part;                 // 64 per chunk of the vertices of more than one (shape's heavy_in, heavy_out)
	const unsigned long long *T;  // per in-arc: its tight slots (the forward count's)
	uint32_t *keys;               // n * 64 (the rounds' counts, free once T is made)
};

/** Both sweeps and the sums for one batch, once T is made, as one of @p share batches at once on
 *  the GPU: 0, or -EIO with one line in @p err. */
int brandes_order_run(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *shape, const uint32_t *src,
		      unsigned nsrc, const uint32_t *dist, struct tuccompi_exact *acc, const struct brandes_order_borrowed *b,
		      void *work, unsigned share, cudaStream_t s, char *err, size_t errlen);

#endif
