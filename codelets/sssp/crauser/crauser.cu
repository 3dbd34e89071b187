// SSSP on a GPU: Crauser's algorithm in phases (Ortega-Arranz et al., HPCS 2013):
//   relax   - every vertex of the frontier (settled in the previous phase) becomes settled
//             and relaxes its out-arcs with an atomic minimum;
//   minimum - Delta = min over unsettled u of dist(u) + minOut(u) (Crauser's OUT criterion);
//   update  - unsettled vertices with dist <= Delta are final: they form the next frontier.
// Delta lives on the device (a ring of three slots, so no kernel ever resets a slot another
// one reads), and the host checks for the end only every few phases: it launches a batch
// sized from the phases the previous sources needed, then reads one counter.
//
// Two variants (TUCCOMPI_SSSP_KERNELS=paper|fused, default fused):
//   paper: relax, minimum, update per phase, as in the paper;
//   fused: minimum, then settle_relax = update + the next phase's relax in one pass. A vertex
//          settled with dist <= Delta relaxes its arcs at once: every value such a relaxation
//          writes is >= Delta (dist(w) + c >= dist(w) + minOut(w) >= Delta for the unsettled w
//          that defined Delta), so it can neither unsettle a vertex nor settle a wrong one; a
//          vertex lowered to exactly Delta during the pass is final whether it is caught in
//          this phase or the next. Two passes over the vertices per phase instead of three.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "common/buffers.h"
#include "common/sssp_env.h"
#include "sssp.h"

#define INF 0xffffffffu
enum
{
	UNSETTLED = 0,
	FRONTIER = 1,
	SETTLED = 2
};

struct misc
{
	uint32_t delta[3];
	int32_t last_active; // last phase whose update found a vertex to settle
	unsigned long long sum;
	uint32_t ecc, reached, overflow;
	unsigned long long harm_lo, harm_hi; // sssp_harm
};

// Table 2 of the TuCCompi paper for relax, minimum and update; ours for init and summary.
TUCCOMPI_KERNELCHAR(sssp_init, 1, coalesced, none, low, low);
TUCCOMPI_KERNELCHAR(relax, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR(minimum, 1, coalesced, low, low, medium);
TUCCOMPI_KERNELCHAR(update, 1, coalesced, low, low, low);
TUCCOMPI_KERNELCHAR(summary, 1, coalesced, low, low, low);
// settle_relax: a coalesced scan of every vertex in which a few per cent of the threads (the
// settled ones) scatter atomics: medium-coalesced rather than relax's scatter.
TUCCOMPI_KERNELCHAR(settle_relax, 1, medium_coalesced, low, high, low);

__global__ void sssp_init(uint32_t *dist, uint8_t *state, uint32_t n, uint32_t src, uint8_t src_state, struct misc *m)
{
	uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v < n)
	{
		dist[v] = v == src ? 0 : INF;
		state[v] = v == src ? src_state : UNSETTLED;
	}
	if (v == 0)
	{
		m->delta[0] = m->delta[1] = m->delta[2] = INF;
		m->last_active = -1;
		m->sum = 0;
		m->ecc = m->reached = m->overflow = 0;
		m->harm_lo = m->harm_hi = 0;
	}
}

__global__ void relax(const uint64_t *__restrict__ rowptr, const uint32_t *__restrict__ col,
		      const uint32_t *__restrict__ w, uint32_t *dist, uint8_t *state, uint32_t n)
{
	uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v >= n || state[v] != FRONTIER)
		return;
	state[v] = SETTLED;
	uint32_t d = dist[v];
	uint64_t end = rowptr[v + 1];
	for (uint64_t e = rowptr[v]; e < end; e++)
	{
		uint32_t t = col[e];
		if (state[t] != UNSETTLED)
			continue;
		unsigned long long nd = (unsigned long long)d + w[e];
		uint32_t nd32 = nd < INF - 1 ? (uint32_t)nd : INF - 1;
		if (nd32 < dist[t])
			atomicMin(&dist[t], nd32);
	}
}

// A vertex that gets settled says so with m->last_active = phase: once per warp (a vote),
// since tens of thousands of threads writing one word serialise in L2 (a kernel that did so
// took longer than one that reads more).
__device__ __forceinline__ void note_active(bool settled, struct misc *m, int phase)
{
	if (__any_sync(0xffffffffu, settled) && (threadIdx.x & 31) == 0)
		m->last_active = phase;
}

__global__ void settle_relax(const uint64_t *__restrict__ rowptr, const uint32_t *__restrict__ col,
			     const uint32_t *__restrict__ w, uint32_t *dist, uint8_t *state, uint32_t n, struct misc *m,
			     int phase)
{
	uint32_t delta = m->delta[phase % 3];
	uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v == 0)
		m->delta[(phase + 1) % 3] = INF; // for minimum(phase + 1); nobody reads it now
	uint32_t d = INF;
	bool settle = false;
	if (v < n && state[v] == UNSETTLED)
	{
		d = dist[v];
		settle = d != INF && d <= delta;
	}
	note_active(settle, m, phase);
	if (!settle)
		return;
	state[v] = SETTLED;
	uint64_t end = rowptr[v + 1];
	for (uint64_t e = rowptr[v]; e < end; e++)
	{
		uint32_t t = col[e];
		if (state[t] == SETTLED)
			continue;
		unsigned long long nd = (unsigned long long)d + w[e];
		uint32_t nd32 = nd < INF - 1 ? (uint32_t)nd : INF - 1;
		if (nd32 < dist[t])
			atomicMin(&dist[t], nd32);
	}
}

__device__ __forceinline__ uint32_t warp_min(uint32_t x)
{
	for (int o = 16; o > 0; o >>= 1)
		x = min(x, __shfl_down_sync(0xffffffffu, x, o));
	return x;
}

__global__ void minimum(const uint32_t *__restrict__ dist, const uint8_t *__restrict__ state,
			const uint32_t *__restrict__ min_out, uint32_t n, struct misc *m, int slot)
{
	__shared__ uint32_t part[32];
	uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t c = INF;
	if (v < n && state[v] == UNSETTLED)
	{
		uint32_t d = dist[v], mo = min_out[v];
		if (d != INF && mo != INF)
		{
			unsigned long long s = (unsigned long long)d + mo;
			c = s < INF - 1 ? (uint32_t)s : INF - 1;
		}
	}
	c = warp_min(c);
	unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = (blockDim.x + 31) >> 5;
	if (lane == 0)
		part[warp] = c;
	__syncthreads();
	if (warp == 0)
	{
		c = lane < nwarps ? part[lane] : INF;
		c = warp_min(c);
		if (lane == 0 && c != INF)
			atomicMin(&m->delta[slot], c);
	}
}

__global__ void update(const uint32_t *__restrict__ dist, uint8_t *state, uint32_t n, struct misc *m, int phase)
{
	uint32_t delta = m->delta[phase % 3];
	uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
	if (v == 0)
		m->delta[(phase + 1) % 3] = INF; // for minimum(phase + 1); nobody reads it now
	bool settle = false;
	if (v < n && state[v] == UNSETTLED)
	{
		uint32_t d = dist[v];
		if (d != INF && d <= delta)
		{
			state[v] = FRONTIER;
			settle = true;
		}
	}
	note_active(settle, m, phase);
}

// h += the sssp_harm of the lane o places down (a step of a warp's reduction).
__device__ static inline void harm_shfl_down(struct sssp_harm *h, int o)
{
	struct sssp_harm g = { __shfl_down_sync(0xffffffffu, h->lo, o), __shfl_down_sync(0xffffffffu, h->hi, o) };
	sssp_harm_add(h, g);
}

__global__ void summary(const uint32_t *__restrict__ dist, uint32_t n, struct misc *m)
{
	__shared__ unsigned long long psum[32];
	__shared__ uint32_t pmax[32], pcnt[32];
	__shared__ struct sssp_harm pharm[32];
	uint32_t v = blockIdx.x * blockDim.x + threadIdx.x;
	uint32_t d = v < n ? dist[v] : INF;
	unsigned long long s = d != INF ? d : 0;
	uint32_t mx = d != INF ? d : 0, cnt = d != INF;
	struct sssp_harm h = sssp_harm_term(d);
	for (int o = 16; o > 0; o >>= 1)
	{
		s += __shfl_down_sync(0xffffffffu, s, o);
		mx = max(mx, __shfl_down_sync(0xffffffffu, mx, o));
		cnt += __shfl_down_sync(0xffffffffu, cnt, o);
		harm_shfl_down(&h, o);
	}
	unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = (blockDim.x + 31) >> 5;
	if (lane == 0)
	{
		psum[warp] = s;
		pmax[warp] = mx;
		pcnt[warp] = cnt;
		pharm[warp] = h;
	}
	__syncthreads();
	if (warp == 0)
	{
		s = lane < nwarps ? psum[lane] : 0;
		mx = lane < nwarps ? pmax[lane] : 0;
		cnt = lane < nwarps ? pcnt[lane] : 0;
		h = lane < nwarps ? pharm[lane] : sssp_harm{ 0, 0 };
		for (int o = 16; o > 0; o >>= 1)
		{
			s += __shfl_down_sync(0xffffffffu, s, o);
			mx = max(mx, __shfl_down_sync(0xffffffffu, mx, o));
			cnt += __shfl_down_sync(0xffffffffu, cnt, o);
			harm_shfl_down(&h, o);
		}
		if (lane == 0 && cnt)
		{
			atomicAdd(&m->sum, s);
			atomicMax(&m->ecc, mx);
			atomicAdd(&m->reached, cnt);
			sssp_harm_atomic_add(&m->harm_lo, &m->harm_hi, h);
			if (mx >= SSSP_DIST_LIMIT)
				m->overflow = 1;
		}
	}
}

// A CUDA call; on error, one line in err and -EIO (TUCCOMPI_CUDA_CHECK). A failed GPULAUNCH fails
// the next GPUSYN.
#define CK(call) TUCCOMPI_CUDA_CHECK(call, "sssp", err, errlen)

// Per stream worker (one host thread each): pinned staging and the phase estimate.
static thread_local struct misc *host_misc;
static thread_local double phase_estimate;

extern "C" size_t sssp_gpu_misc_size(void)
{
	return sizeof(struct misc);
}

extern "C" int sssp_gpu_run(const struct sssp_gpu_graph *g, uint32_t src, const struct sssp_gpu_work *wk,
			    uint32_t *row, struct sssp_summary *out, char *err, size_t errlen)
{
	uint32_t n = g->n;
	uint32_t *dist = wk->dist;
	uint8_t *state = wk->state;
	struct misc *m = (struct misc *)wk->misc;
	cudaStream_t s = tuccompi_gpu_stream();
	if (!host_misc)
		CK(cudaMallocHost((void **)&host_misc, sizeof(*host_misc)));

	static int fused = -1;
	if (fused < 0)
	{
		char why[200];
		if (sssp_kernels_fused(&fused, why, sizeof why) < 0) /* the engine's prepare refuses it first */
			fprintf(stderr, "sssp: %s; using the fused kernels\n", why);
	}
	TUCCOMPI_GPULAUNCH(sssp_init, n, dist, state, n, src, (uint8_t)(fused ? UNSETTLED : FRONTIER), m);
	int phase = 0;
	int batch = phase_estimate > 8 ? (int)(0.9 * phase_estimate) : 8;
	for (;;)
	{
		for (int i = 0; i < batch; i++, phase++)
			if (fused)
			{
				TUCCOMPI_GPULAUNCH(minimum, n, dist, state, g->min_out, n, m, phase % 3);
				TUCCOMPI_GPULAUNCH(settle_relax, n, g->rowptr, g->col, g->w, dist, state, n, m, phase);
			}
			else
			{
				TUCCOMPI_GPULAUNCH(relax, n, g->rowptr, g->col, g->w, dist, state, n);
				TUCCOMPI_GPULAUNCH(minimum, n, dist, state, g->min_out, n, m, phase % 3);
				TUCCOMPI_GPULAUNCH(update, n, dist, state, n, m, phase);
			}
		CK(cudaMemcpyAsync(&host_misc->last_active, &m->last_active, sizeof(int32_t), cudaMemcpyDeviceToHost,
					s));
		if (TUCCOMPI_GPUSYN() != 0)
		{
			snprintf(err, errlen, "sssp: %s", tuccompi_last_error());
			return -EIO;
		}
		if (host_misc->last_active < phase - 1)
			break; // the last phase found nothing to settle: done
		batch = 4;
	}
	uint32_t phases = (uint32_t)(host_misc->last_active + 2);
	phase_estimate = phase_estimate == 0 ? phases : 0.8 * phase_estimate + 0.2 * phases;

	TUCCOMPI_GPULAUNCH(summary, n, dist, n, m);
	CK(cudaMemcpyAsync(host_misc, m, sizeof(*m), cudaMemcpyDeviceToHost, s));
	if (row)
		CK(cudaMemcpyAsync(row, dist, (size_t)n * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
	if (TUCCOMPI_GPUSYN() != 0)
	{
		snprintf(err, errlen, "sssp: %s", tuccompi_last_error());
		return -EIO;
	}
	out->source = src;
	out->sum = host_misc->sum;
	out->ecc = host_misc->ecc;
	out->reached = host_misc->reached;
	out->phases = phases;
	out->overflow = host_misc->overflow;
	out->harmonic = sssp_harm_value(sssp_harm{ host_misc->harm_lo, host_misc->harm_hi });
	return 0;
}

extern "C" void sssp_cuda(struct tuccompi_task *t, void *arg)
{
	struct sssp_args *a = (struct sssp_args *)arg;
	struct sssp_gpu_graph g = {
		a->n,
		(const uint64_t *)tuccompi_task_shared(t, 0),
		(const uint32_t *)tuccompi_task_shared(t, 1),
		(const uint32_t *)tuccompi_task_shared(t, 2),
		(const uint32_t *)tuccompi_task_shared(t, 3),
	};
	struct sssp_gpu_work wk = {
		(uint32_t *)tuccompi_task_workspace(t, 0),
		(uint8_t *)tuccompi_task_workspace(t, 1),
		tuccompi_task_workspace(t, 2),
	};
	uint32_t src = *(const uint32_t *)tuccompi_task_input(t);
	// the row comes to the host for the rows and trees, and for the target columns (gathered here:
	// this engine's device code is the paper's, one source per task)
	int want = sssp_wants_rows(a) || a->ntargets;
	uint32_t *row = want ? sssp_thread_rows(a->n, 1) : NULL;
	if (want && !row)
	{
		tuccompi_task_fail(t, -ENOMEM, "sssp: no pinned host memory for a row of %u distances", a->n);
		return;
	}
	struct sssp_summary *out = (struct sssp_summary *)tuccompi_task_result(t);
	char err[256] = "";
	int ret = sssp_gpu_run(&g, src, &wk, row, out, err, sizeof(err));
	if (ret < 0)
	{
		tuccompi_task_fail(t, ret, "%s", err);
		return;
	}
	if (row)
	{
		sssp_emit_row(a, t, src, row);
		sssp_emit_cols(a, t, row);
	}
}
