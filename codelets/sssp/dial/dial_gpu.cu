// The dial engine on a GPU: 512 shortest-path trees per traversal by bit-parallel levels (dial.h
// explains the algorithm; dial_gpu.h the interface).
//
// Data (the workspace): ring[R][n][16] (R = wmax + 1 slots of 64-byte masks: the pairs pending at
// level d live in slot d mod R; level d writes only slots d+1..d+wmax, never its own), seen[n][16],
// bm[R][n/32] (the vertices with pairs pending in a slot), the control block and the per-source
// accumulators. One cooperative kernel runs every level; levels are separated by a grid barrier whose
// last block to arrive (all its threads) folds the level's per-source counts into the summaries
// (sum += d c, reached += c, ecc = d, harmonic += c / d, exactly as sssp_summarize) and jumps to the
// next level whose slot holds pairs (levels with none are skipped), or ends the traversal.
//
// A level: warps take the slot's bitmap words, 32 vertices each, and a half-warp takes one vertex
// (lane j holds word j of its masks: sources 32j..32j+31, one 64-byte request per mask): new =
// pending & ~seen, clears the pending mask, seen |= new, counts the new pairs per source in shared
// memory, and ORs new into ring[(d + w) mod R][x] of each out-arc (x, w) (a reduction, no answer
// awaited) with x's bit in that slot's bitmap. Mutable state is read with ld.global.cg: the vertices
// are processed by other SMs from level to level, and L1 is not coherent.
//
// Heavy vertices (more than heavy_deg out-arcs, R-MAT's hubs): one half-warp pushing 100,000 arcs one
// by one would hold the whole level. Their visitor only records the vertex and its new masks in a
// list (with the running count of 64-arc chunks, one 64-bit atomic for both); the control step then
// holds the level for a second phase in which every half-warp of the grid takes chunks of the listed
// vertices' arcs. Levels without a heavy vertex cost no second barrier. The list holds every vertex;
// a shorter one (heavy_cap, for the tests) leaves the heavy vertices beyond it to push their own arcs.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "common/buffers.h"
#include "common/fail.h"
#include "common/gpu_launch.h"
#include "dial/dial_gpu.h"

#define L SSSP_DIAL_GPU_LANES
#define WORDS (L / 32)
#define BLOCK 256
#define NONE 0xffffffffu
#define CHUNK 64 // arcs per half-warp in the heavy phase

// The level loop: data-dependent 64-byte masks of a ring of several hundred MB (scatter), few
// instructions per access, no reuse before eviction. Written for blocks of BLOCK threads (its shared
// counters, its warps' layout, __launch_bounds__): the tuner gives it that block and its cache.
TUCCOMPI_KERNELCHAR_BLOCK(dial_loop, BLOCK, 1, scatter, low, high, low);
// The kernels around it, one thread per element: the sources' first pairs, the targets' slots, the
// rows and the columns; each a gather or scatter by vertex or target (scatter), nothing computed.
TUCCOMPI_KERNELCHAR(dial_start, 1, scatter, none, low, low);
TUCCOMPI_KERNELCHAR(dial_tix, 1, scatter, none, low, low);
TUCCOMPI_KERNELCHAR(dial_rows, 1, scatter, none, low, low);
TUCCOMPI_KERNELCHAR(dial_cols, 1, scatter, none, low, low);

struct dial_ctl
{
	uint32_t level, done, abort, levels;
	unsigned long long touched[2]; // bit t: slot t has pairs pending
	uint32_t bar_count, bar_gen;
	unsigned long long heavy; // this level's heavy list: vertices << 32 | chunks
	uint32_t in_heavy, pad;   // the level's second phase (the heavy vertices' arcs) runs
};

struct dial_acc
{
	unsigned long long sum[L], hlo[L], hhi[L];
	uint32_t ecc[L], reached[L], cnt[L];
};

struct dparams
{
	uint32_t n, R, nw;
	const uint64_t *rowptr;
	const uint32_t *col, *w;
	uint32_t *ring, *seen, *bm;
	struct dial_ctl *ctl;
	struct dial_acc *acc;
	uint32_t *dist;      // [n][L] with rows, else NULL
	const uint32_t *tix; // [n]: the target slot of a vertex (NONE), with targets, else NULL
	uint32_t *dcol;      // [target slot][L]
	uint32_t heavy_deg, heavy_cap;
	uint32_t *hv, *hbase, *hnw; // the heavy list: vertex, first chunk, new masks [heavy_cap][WORDS]
	unsigned long long timeout_ns;
};

__device__ __forceinline__ unsigned long long global_ns(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

__device__ __forceinline__ void push(const struct dparams &P, uint64_t e, uint32_t deg, uint32_t nw, uint32_t slot,
				     unsigned j, unsigned long long &tm0, unsigned long long &tm1);

// The level's step for two vertices at once, one per half-warp (lane j = word j of its masks; `has`:
// this half has a vertex). Every lane of the warp calls it, and every collective is the whole warp's:
// the halves' arc loops run in step, for the larger degree.
__device__ __forceinline__ void visit(const struct dparams &P, bool has, uint32_t v, uint32_t d, uint32_t slot,
				      unsigned j, uint32_t *cnt, unsigned long long &tm0, unsigned long long &tm1)
{
	const unsigned FULL = 0xffffffffu;
	uint32_t nw = 0;
	uint64_t e = 0, e1 = 0;
	if (has)
	{
		uint32_t *pend = P.ring + ((size_t)slot * P.n + v) * WORDS + j;
		uint32_t *seen = P.seen + (size_t)v * WORDS + j;
		uint32_t pd = __ldcg(pend), sn = __ldcg(seen);
		e = __ldg(&P.rowptr[v]);
		e1 = __ldg(&P.rowptr[v + 1]);
		if (pd)
			__stcg(pend, 0u);
		nw = pd & ~sn;
		if (nw)
		{
			__stcg(seen, sn | nw);
			uint32_t ti = P.tix ? __ldg(&P.tix[v]) : NONE;
			for (uint32_t y = nw; y; y &= y - 1)
			{
				uint32_t s = 32 * j + (uint32_t)(__ffs(y) - 1);
				atomicAdd(&cnt[s], 1u);
				if (P.dist)
					P.dist[(size_t)v * L + s] = d;
				if (ti != NONE)
					P.dcol[(size_t)ti * L + s] = d;
			}
		}
	}
	// a half with no new pair pushes nothing
	unsigned ball = __ballot_sync(FULL, nw != 0), mine = (threadIdx.x & 16) ? ball >> 16 : ball & 0xffffu;
	uint32_t deg = mine ? (uint32_t)(e1 - e) : 0;
	// a heavy vertex goes to the list (its half's lane 0 reserves the entry and its chunks)
	const bool heavy = deg > P.heavy_deg;
	uint32_t idx = NONE;
	if (heavy && j == 0)
	{
		unsigned long long r = atomicAdd(&P.ctl->heavy, (1ull << 32) | ((deg + CHUNK - 1) / CHUNK));
		idx = (uint32_t)(r >> 32);
		if (idx < P.heavy_cap)
		{
			__stcg(&P.hv[idx], v);
			__stcg(&P.hbase[idx], (uint32_t)r);
		}
	}
	idx = __shfl_sync(FULL, idx, 0, 16);
	if (heavy && idx < P.heavy_cap)
	{
		__stcg(&P.hnw[(size_t)idx * WORDS + j], nw);
		deg = 0;
	}
	push(P, e, deg, nw, slot, j, tm0, tm1);
}

// Each half-warp pushes its new masks (lane j: word j) along arcs [e, e + deg) of one vertex. Every lane
// of the warp calls it (whole-warp collectives: the halves' loops run in step, for the larger count).
__device__ __forceinline__ void push(const struct dparams &P, uint64_t e, uint32_t deg, uint32_t nw, uint32_t slot,
				     unsigned j, unsigned long long &tm0, unsigned long long &tm1)
{
	const unsigned FULL = 0xffffffffu;
	uint32_t most = max(deg, __shfl_xor_sync(FULL, deg, 16));
	for (uint32_t at = 0; at < most; at += 16)
	{
		uint32_t c = 0, w = 0;
		if (at + j < deg)
		{
			c = __ldg(&P.col[e + at + j]);
			w = __ldg(&P.w[e + at + j]);
		}
		uint32_t k_end = min(most - at, 16u);
		for (uint32_t k = 0; k < k_end; k++)
		{
			uint32_t x = __shfl_sync(FULL, c, k, 16), wk = __shfl_sync(FULL, w, k, 16);
			if (at + k >= deg)
				continue; // this half's vertex has fewer arcs
			uint32_t t = slot + wk;
			if (t >= P.R)
				t -= P.R;
			if (nw)
				atomicOr(&P.ring[((size_t)t * P.n + x) * WORDS + j], nw);
			if (j == 0)
				atomicOr(&P.bm[(size_t)t * P.nw + (x >> 5)], 1u << (x & 31));
			if (t < 64)
				tm0 |= 1ull << t;
			else
				tm1 |= 1ull << (t - 64);
		}
	}
}

// After level d's vertex phase: fold its counts into the summaries (every thread of the last block),
// then thread 0 either holds the level for its heavy phase or picks the next level; after the heavy
// phase, it picks the next level. Returns the next level, the stop flag and the heavy phase's flag in
// *lvl, *stop, *hvy (shared).
__device__ void control(const struct dparams &P, uint32_t d, bool heavy_phase, uint32_t *lvl, uint32_t *stop,
			uint32_t *hvy)
{
	struct dial_acc *A = P.acc;
	struct sssp_harm term = sssp_harm_term(d);
	for (unsigned i = threadIdx.x; i < L && !heavy_phase; i += blockDim.x)
	{
		uint32_t c = __ldcg(&A->cnt[i]);
		if (!c)
			continue;
		// through L2: the last block runs on any SM, whose L1 may hold lines of an earlier level
		__stcg(&A->cnt[i], 0u);
		__stcg(&A->sum[i], __ldcg(&A->sum[i]) + (unsigned long long)d * c);
		__stcg(&A->reached[i], __ldcg(&A->reached[i]) + c);
		__stcg(&A->ecc[i], d);
		struct sssp_harm h = { __ldcg(&A->hlo[i]), __ldcg(&A->hhi[i]) };
		sssp_harm_add_times(&h, term, c);
		__stcg(&A->hlo[i], (unsigned long long)h.lo);
		__stcg(&A->hhi[i], (unsigned long long)h.hi);
	}
	if (threadIdx.x == 0)
	{
		volatile struct dial_ctl *C = P.ctl;
		*hvy = !heavy_phase && C->heavy;
		C->in_heavy = *hvy;
		if (*hvy)
		{
			*lvl = d, *stop = 0;
			return;
		}
		C->heavy = 0;
		unsigned long long m[2] = { C->touched[0], C->touched[1] };
		uint32_t slot = d % P.R, k;
		m[slot >> 6] &= ~(1ull << (slot & 63));
		for (k = 1; k < P.R; k++)
		{
			uint32_t t = (slot + k) % P.R;
			if (m[t >> 6] >> (t & 63) & 1)
				break;
		}
		C->touched[0] = m[0], C->touched[1] = m[1];
		C->levels = C->levels + 1;
		if (k == P.R)
			C->done = 1;
		else
			C->level = d + k;
		*lvl = d + k;
		*stop = k == P.R;
	}
}

// The heavy phase: chunk c of the list's arcs (chunks numbered in list order) goes to half-warp c mod 2W
// of the grid.
__device__ __forceinline__ void push_heavy(const struct dparams &P, uint32_t slot, uint32_t gw, uint32_t W, unsigned h,
					   unsigned j, unsigned long long &tm0, unsigned long long &tm1)
{
	unsigned long long hv = __ldcg(&P.ctl->heavy);
	uint32_t H = min((uint32_t)(hv >> 32), P.heavy_cap), last = __ldcg(&P.hv[H - 1]);
	uint32_t total = __ldcg(&P.hbase[H - 1]) +
			 (uint32_t)((__ldg(&P.rowptr[last + 1]) - __ldg(&P.rowptr[last]) + CHUNK - 1) / CHUNK);
	for (uint32_t c0 = 2 * gw; c0 < total; c0 += 2 * W) // whole warps: push's collectives
	{
		uint32_t c = c0 + h, deg = 0, nw = 0;
		uint64_t e = 0;
		if (c < total)
		{
			uint32_t lo = 0, hi = H - 1; // the last entry whose first chunk is <= c
			while (lo < hi)
			{
				uint32_t mid = (lo + hi + 1) / 2;
				if (__ldcg(&P.hbase[mid]) <= c)
					lo = mid;
				else
					hi = mid - 1;
			}
			uint32_t v = __ldcg(&P.hv[lo]);
			uint64_t e0 = __ldg(&P.rowptr[v]), e1 = __ldg(&P.rowptr[v + 1]);
			e = e0 + (uint64_t)(c - __ldcg(&P.hbase[lo])) * CHUNK;
			deg = (uint32_t)min((uint64_t)CHUNK, e1 - e);
			nw = __ldcg(&P.hnw[(size_t)lo * WORDS + j]);
		}
		push(P, e, deg, nw, slot, j, tm0, tm1);
	}
}

__global__ void __launch_bounds__(BLOCK) dial_loop(struct dparams P)
{
	__shared__ uint32_t cnt[L];
	__shared__ unsigned long long touched[2];
	__shared__ uint32_t s_level, s_stop, s_last, s_heavy;
	const unsigned lane = threadIdx.x & 31, h = lane >> 4, j = lane & 15;
	const uint32_t gw = blockIdx.x * (BLOCK / 32) + (threadIdx.x >> 5), W = gridDim.x * (BLOCK / 32);
	for (unsigned i = threadIdx.x; i < L; i += BLOCK)
		cnt[i] = 0;
	if (threadIdx.x == 0)
	{
		volatile struct dial_ctl *C = P.ctl;
		touched[0] = touched[1] = 0;
		s_level = C->level;
		s_stop = C->done;
		s_heavy = 0;
	}
	__syncthreads();
	for (uint32_t gen = 1; !s_stop; gen++)
	{
		const uint32_t d = s_level, slot = d % P.R;
		uint32_t *bm = P.bm + (size_t)slot * P.nw;
		const bool heavy_phase = s_heavy;
		unsigned long long tm0 = 0, tm1 = 0; // slots this thread pushed into
		if (heavy_phase)
			push_heavy(P, slot, gw, W, h, j, tm0, tm1);
		for (uint32_t wi = gw; wi < P.nw && !heavy_phase; wi += W)
		{
			// one load for the warp (a lane that stored the clear first would make another lane read 0)
			uint32_t x = __shfl_sync(0xffffffffu, lane == 0 ? __ldcg(&bm[wi]) : 0u, 0);
			if (!x)
				continue;
			if (lane == 0)
				__stcg(&bm[wi], 0u);
			while (x)
			{
				uint32_t b0 = __ffs(x) - 1;
				x &= x - 1;
				uint32_t b1 = x ? __ffs(x) - 1 : 32;
				if (x)
					x &= x - 1;
				uint32_t b = h ? b1 : b0;
				visit(P, b < 32, wi * 32 + (b & 31), d, slot, j, cnt, tm0, tm1);
			}
		}
		for (int o = 16; o; o >>= 1)
		{
			tm0 |= __shfl_xor_sync(0xffffffffu, tm0, o);
			tm1 |= __shfl_xor_sync(0xffffffffu, tm1, o);
		}
		if (lane == 0 && (tm0 | tm1))
		{
			atomicOr(&touched[0], tm0);
			atomicOr(&touched[1], tm1);
		}
		__syncthreads();
		for (unsigned i = threadIdx.x; i < L; i += BLOCK)
			if (cnt[i])
			{
				atomicAdd(&P.acc->cnt[i], cnt[i]);
				cnt[i] = 0;
			}
		if (threadIdx.x == 0)
		{
			if (touched[0])
				atomicOr(&P.ctl->touched[0], touched[0]);
			if (touched[1])
				atomicOr(&P.ctl->touched[1], touched[1]);
			touched[0] = touched[1] = 0;
		}
		// the grid barrier; its last block runs the control step
		__syncthreads();
		if (threadIdx.x == 0)
		{
			__threadfence();
			s_last = atomicAdd(&P.ctl->bar_count, 1u) == gridDim.x - 1;
		}
		__syncthreads();
		if (s_last)
		{
			__threadfence();
			control(P, d, heavy_phase, &s_level, &s_stop, &s_heavy);
			__syncthreads();
			if (threadIdx.x == 0)
			{
				volatile struct dial_ctl *C = P.ctl;
				C->bar_count = 0;
				__threadfence();
				C->bar_gen = gen;
			}
		}
		else if (threadIdx.x == 0)
		{
			volatile struct dial_ctl *C = P.ctl;
			unsigned long long t0 = global_ns();
			unsigned ns = 32;
			while ((int32_t)(C->bar_gen - gen) < 0)
			{
				__nanosleep(ns);
				if (ns < 256)
					ns *= 2;
				if (global_ns() - t0 > P.timeout_ns)
				{
					C->abort = 1;
					break;
				}
			}
			__threadfence();
			s_level = C->level;
			s_stop = C->done | C->abort;
			s_heavy = C->in_heavy;
		}
		__syncthreads();
	}
}

// The pairs of the sources at level 0.
__global__ void dial_start(struct dparams P, const uint32_t *src, unsigned nsrc)
{
	unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < nsrc)
	{
		uint32_t s = src[i];
		atomicOr(&P.ring[(size_t)s * WORDS + i / 32], 1u << (i % 32));
		atomicOr(&P.bm[s >> 5], 1u << (s & 31));
	}
	if (i == 0)
		P.ctl->touched[0] = 1;
}

// The target slot of each vertex: the first index of the vertex in the target list.
__global__ void dial_tix(uint32_t *tix, const uint32_t *targets, uint32_t T)
{
	for (uint64_t j = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; j < T; j += (uint64_t)gridDim.x * blockDim.x)
		atomicMin(&tix[targets[j]], (uint32_t)j);
}

// cols[i T + j] = d(src[i], targets[j]).
__global__ void dial_cols(const uint32_t *dcol, const uint32_t *tix, const uint32_t *targets, uint32_t T, unsigned nsrc,
			  uint32_t *cols)
{
	for (uint64_t x = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; x < (uint64_t)T * nsrc;
	     x += (uint64_t)gridDim.x * blockDim.x)
	{
		uint64_t i = x / T, j = x % T;
		cols[x] = dcol[(size_t)tix[targets[j]] * L + i];
	}
}

// stage[i n + v] = dist[v][i] for i < k.
__global__ void dial_rows(const uint32_t *dist, uint32_t n, unsigned k, uint32_t *stage)
{
	for (uint64_t x = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x; x < (uint64_t)n * k;
	     x += (uint64_t)gridDim.x * blockDim.x)
	{
		uint64_t i = x / n, v = x % n;
		stage[x] = dist[v * L + i];
	}
}

// ------------------------------------------------------------------ the host side

struct layout
{
	size_t ring, seen, bm, ctl, acc, src, hv, hbase, hnw, dist, stage, tix, dcol, cols, total;
};

// Heavy vertices the workspace's list holds per level: every vertex (a level visits each once). A
// shorter list fills with the first heavy vertices to arrive and leaves the hubs that come later to one
// half-warp each, which then holds the whole level.
static uint32_t heavy_cap_of(uint32_t n)
{
	return n ? n : 1;
}

static size_t place(size_t *off, size_t bytes)
{
	size_t at = *off;
	*off = (at + bytes + 255) & ~(size_t)255;
	return at;
}

static void layout_of(uint32_t n, uint32_t wmax, int with_rows, uint32_t T, struct layout *l)
{
	size_t off = 0, nn = n ? n : 1, R = (size_t)wmax + 1, nw = (nn + 31) / 32;
	l->ring = place(&off, R * nn * WORDS * 4);
	l->seen = place(&off, nn * WORDS * 4);
	l->bm = place(&off, R * nw * 4);
	l->ctl = place(&off, sizeof(struct dial_ctl));
	l->acc = place(&off, sizeof(struct dial_acc));
	l->src = place(&off, L * 4);
	l->hv = place(&off, (size_t)heavy_cap_of(n) * 4);
	l->hbase = place(&off, (size_t)heavy_cap_of(n) * 4);
	l->hnw = place(&off, (size_t)heavy_cap_of(n) * WORDS * 4);
	l->dist = with_rows ? place(&off, nn * L * 4) : 0;
	l->stage = with_rows ? place(&off, nn * SSSP_DIAL_GPU_ROW_LANES * 4) : 0;
	l->tix = T ? place(&off, nn * 4) : 0;
	l->dcol = T ? place(&off, (size_t)T * L * 4) : 0;
	l->cols = T ? place(&off, (size_t)T * L * 4) : 0;
	l->total = off;
}

extern "C" size_t sssp_dial_gpu_workspace_size(uint32_t n, uint32_t wmax, int with_rows, uint32_t ntargets)
{
	struct layout l;
	layout_of(n, wmax ? wmax : 1, with_rows, ntargets, &l);
	return l.total + 256;
}

// One way to fail (common/fail.h): a line in err, a negative errno; sssp_dial_gpu_run waits for the
// stream before it returns an error (its caller may then free the workspace).
#define FAIL(code, ...) return sssp_fail(err, errlen, (code), __VA_ARGS__)
#define WHO "sssp_dial_gpu_run"
#define CK(call) TUCCOMPI_CUDA_CHECK(call, WHO, err, errlen)

static int dial_run(const struct sssp_dial_dgraph *g, const uint32_t *src, unsigned nsrc, void *work,
		    const struct sssp_dial_params *p, void *stream, struct sssp_summary *out, uint32_t *rows, char *err,
		    size_t errlen)
{
	cudaStream_t s = (cudaStream_t)stream;
	if (!g || !src || !work || !p || !out || nsrc < 1 || nsrc > L || (rows && nsrc > SSSP_DIAL_GPU_ROW_LANES))
		FAIL(-EINVAL, "sssp_dial_gpu_run: bad arguments (%u sources; 1..%d, 1..%d with rows)", nsrc, L,
		     SSSP_DIAL_GPU_ROW_LANES);
	if (p->wmax < 1 || p->wmax > SSSP_DIAL_WMAX)
		FAIL(-EINVAL, "sssp_dial_gpu_run: heaviest arc %u, need 1..%d", p->wmax, SSSP_DIAL_WMAX);
	for (unsigned i = 0; i < nsrc; i++)
		if (src[i] >= g->n)
			FAIL(-EINVAL, "sssp_dial_gpu_run: source %u is not a vertex (n = %u)", src[i], g->n);
	const uint32_t T = p->targets ? p->ntargets : 0;
	if (T && !p->cols && !p->col_dst)
		FAIL(-EINVAL, "sssp_dial_gpu_run: targets without a place for their columns");
	struct layout l;
	layout_of(g->n, p->wmax, rows != NULL, T, &l);
	char *base = (char *)(((uintptr_t)work + 255) & ~(uintptr_t)255);
	struct dparams P;
	memset(&P, 0, sizeof P);
	P.n = g->n;
	P.R = p->wmax + 1;
	P.nw = (g->n + 31) / 32;
	P.rowptr = g->rowptr;
	P.col = g->col;
	P.w = g->w;
	P.ring = (uint32_t *)(base + l.ring);
	P.seen = (uint32_t *)(base + l.seen);
	P.bm = (uint32_t *)(base + l.bm);
	P.ctl = (struct dial_ctl *)(base + l.ctl);
	P.acc = (struct dial_acc *)(base + l.acc);
	P.dist = rows ? (uint32_t *)(base + l.dist) : NULL;
	P.tix = T ? (const uint32_t *)(base + l.tix) : NULL;
	P.dcol = T ? (uint32_t *)(base + l.dcol) : NULL;
	P.heavy_deg = p->heavy_deg ? p->heavy_deg : SSSP_DIAL_GPU_HEAVY_DEG;
	P.heavy_cap = heavy_cap_of(g->n);
	if (p->heavy_cap && p->heavy_cap < P.heavy_cap)
		P.heavy_cap = p->heavy_cap;
	P.hv = (uint32_t *)(base + l.hv);
	P.hbase = (uint32_t *)(base + l.hbase);
	P.hnw = (uint32_t *)(base + l.hnw);
	P.timeout_ns = (unsigned long long)(p->timeout_s ? p->timeout_s : 60) * 1000000000ull;
	uint32_t *dsrc = (uint32_t *)(base + l.src);

	int dev, sms, r;
	if ((r = sssp_gpu_device(1, &dev, &sms, WHO, err, errlen)) < 0)
		return r;
	// blocks from the tuner: the loop's own (KERNELCHAR_BLOCK), the others' as it chooses
	unsigned bx, bx_start, bx_tix = 0, bx_rows = 0, bx_cols = 0;
	if ((r = sssp_gpu_block(TUCCOMPI_KERNEL(dial_loop), (const void *)dial_loop, g->n, 0, &bx, WHO, err, errlen)) < 0 ||
	    (r = sssp_gpu_block(TUCCOMPI_KERNEL(dial_start), (const void *)dial_start, nsrc, 0, &bx_start, WHO, err,
				errlen)) < 0 ||
	    (T && (r = sssp_gpu_block(TUCCOMPI_KERNEL(dial_tix), (const void *)dial_tix, T, 0, &bx_tix, WHO, err, errlen)) < 0) ||
	    (rows && (r = sssp_gpu_block(TUCCOMPI_KERNEL(dial_rows), (const void *)dial_rows, (uint64_t)g->n * nsrc, 0,
					 &bx_rows, WHO, err, errlen)) < 0) ||
	    (T && (r = sssp_gpu_block(TUCCOMPI_KERNEL(dial_cols), (const void *)dial_cols, (uint64_t)T * nsrc, 0, &bx_cols,
				      WHO, err, errlen)) < 0))
		return r;
	if (bx != BLOCK)
		FAIL(-EIO, "sssp_dial_gpu_run: the tuner gave dial_loop %u threads per block, not its %d", bx, BLOCK);
	int bps = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, dial_loop, BLOCK, 0));
	if (bps < 1)
		FAIL(-EIO, "sssp_dial_gpu_run: dial_loop cannot run on device %d", dev);
	unsigned share = p->share > 1 ? p->share : 1;
	uint64_t grid = (uint64_t)bps * (unsigned)sms / share;
	uint64_t useful = ((uint64_t)P.nw + BLOCK / 32 - 1) / (BLOCK / 32); // a warp per bitmap word at most
	grid = grid > useful ? useful : grid;
	grid = p->grid_max && grid > p->grid_max ? p->grid_max : grid;
	grid = grid < 1 ? 1 : grid;

	// clear the ring, masks, bitmaps and accumulators (the layout keeps them contiguous up to src)
	CK(cudaMemsetAsync(base + l.ring, 0, l.src - l.ring, s));
	if (rows)
		CK(cudaMemsetAsync(P.dist, 0xff, (size_t)g->n * L * 4, s));
	if (T)
	{
		CK(cudaMemsetAsync(base + l.tix, 0xff, (size_t)g->n * 4, s));
		CK(cudaMemsetAsync(P.dcol, 0xff, (size_t)T * L * 4, s));
		dial_tix<<<sssp_grid_for(T, bx_tix, sms * 8), bx_tix, 0, s>>>((uint32_t *)(base + l.tix), p->targets, T);
		CK(cudaGetLastError());
	}
	CK(cudaMemcpyAsync(dsrc, src, nsrc * sizeof(uint32_t), cudaMemcpyHostToDevice, s));
	dial_start<<<sssp_grid_for(nsrc, bx_start, L), bx_start, 0, s>>>(P, dsrc, nsrc);
	CK(cudaGetLastError());
	void *args[] = { &P };
	CK(cudaLaunchCooperativeKernel((const void *)dial_loop, dim3((unsigned)grid), dim3(BLOCK), args, 0, s));
	if (rows)
	{
		uint32_t *stage = (uint32_t *)(base + l.stage);
		dial_rows<<<sssp_grid_for((uint64_t)g->n * nsrc, bx_rows, sms * 16), bx_rows, 0, s>>>(P.dist, g->n, nsrc, stage);
		CK(cudaGetLastError());
		CK(cudaMemcpyAsync(rows, stage, (size_t)nsrc * g->n * 4, cudaMemcpyDeviceToHost, s));
	}
	if (T)
	{
		uint32_t *dcols = (uint32_t *)(base + l.cols);
		dial_cols<<<sssp_grid_for((uint64_t)T * nsrc, bx_cols, sms * 16), bx_cols, 0, s>>>(P.dcol, P.tix, p->targets, T,
												   nsrc, dcols);
		CK(cudaGetLastError());
		if (!p->col_dst)
			CK(cudaMemcpyAsync(p->cols, dcols, (size_t)nsrc * T * 4, cudaMemcpyDeviceToHost, s));
		else
			CK((cudaError_t)sssp_gpu_cols_to_host(p->col_dst, p->col_pitch, dcols, T, nsrc, s));
	}
	// the control block and the accumulators, in one copy
	static thread_local struct
	{
		struct dial_ctl c;
		struct dial_acc a;
	} *res;
	if (!res && cudaMallocHost((void **)&res, sizeof *res) != cudaSuccess)
		FAIL(-ENOMEM, "sssp_dial_gpu_run: no pinned host memory for %zu bytes", sizeof *res);
	CK(cudaMemcpyAsync(&res->c, P.ctl, sizeof res->c, cudaMemcpyDeviceToHost, s));
	CK(cudaMemcpyAsync(&res->a, P.acc, sizeof res->a, cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	if (res->c.abort || !res->c.done)
		FAIL(-ETIMEDOUT,
		     "sssp_dial_gpu_run: the level loop's grid barrier waited more than %u s (%u blocks of %d threads, "
		     "share %u): were other kernels holding the GPU? raise share (MK) or the timeout",
		     p->timeout_s ? p->timeout_s : 60, (unsigned)grid, BLOCK, share);
	for (unsigned i = 0; i < nsrc; i++)
	{
		struct sssp_summary *o = &out[i];
		memset(o, 0, sizeof *o);
		o->source = src[i];
		o->sum = res->a.sum[i];
		o->ecc = res->a.ecc[i];
		o->reached = res->a.reached[i];
		o->phases = res->c.levels;
		o->harmonic = sssp_harm_value(sssp_harm{ res->a.hlo[i], res->a.hhi[i] });
	}
	return 0;
}

extern "C" int sssp_dial_gpu_run(const struct sssp_dial_dgraph *g, const uint32_t *src, unsigned nsrc, void *work,
				 const struct sssp_dial_params *p, void *stream, struct sssp_summary *out,
				 uint32_t *rows, char *err, size_t errlen)
{
	return sssp_gpu_settle(dial_run(g, src, nsrc, work, p, stream, out, rows, err, errlen), stream);
}
