// PHAST on a GPU: see phast_gpu.h for the algorithm and its choices, ch.h for the layout.
//
// Parameters: LPT lanes per thread (1, 2, 4, 8: 32, 64, 128, 256 sources per pass). Each level
// of each sweep has a plan (struct level_plan, made at the start of every pass): chained (run by
// block 0 alone, with block barriers, when its vertices and arcs are few: CHAIN_VERTICES_PER_WARP
// and CHAIN_ARCS_PER_WARP per warp of a block) or grid-wide (a grid barrier after it); and how
// many warps share a vertex (1: a warp per vertex, the row written once; more when the level has
// fewer vertices than the warps running it: each warp takes a slice of at least SPLIT_MIN_ARCS
// of the vertex's arcs and folds its minimum into the row with atomicMin). Block size: the
// tuner's, raised to the largest block with as many resident warps per SM (fewer blocks: a
// cheaper grid barrier and more warps for the chained levels); grid: every block that can be
// resident at once (a cooperative launch needs them all resident), divided among the passes that
// share the GPU (MK). Grid-wide upward levels of few arcs per vertex are filtered (up_filtered).
// The lanes' sums are added up in shared memory as rows are made, so that the wide kernels fit in
// 64 registers (two 512-thread blocks per SM); the downward sweep does not store the lowest
// level's rows when no output reads them (docs/apsp.md, "PHAST").
#include <cooperative_groups.h>
#include <mutex>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "common/buffers.h"
#include "common/fail.h"
#include "common/gpu_launch.h"
#include "phast/phast_gpu.h"
#include "phast/phast_gpu_plan.h"

namespace cg = cooperative_groups;

namespace
{
constexpr uint32_t INF = 0xffffffffu;
constexpr uint32_t CAP = 0xfffffffeu;
constexpr unsigned MAX_LANES = 256;
// A chained level costs its work's latency per warp of block 0 in turn; a grid-wide level costs
// the latency of its (smaller) share per warp plus a grid barrier (a few microseconds). The
// defaults of struct sssp_phast_gpu_knobs (phast_gpu.h), which benchmarks and tests change.
constexpr unsigned CHAIN_VERTICES_PER_WARP = 1;
constexpr unsigned CHAIN_ARCS_PER_WARP = 16;
constexpr unsigned SPLIT_MIN_ARCS = 4;
constexpr unsigned FILTER_MAX_DEGREE = 8; // up_filtered on levels of at most this many upward in-arcs per vertex
// rows a warp loads at once in a sweep (the unrolling of fold_arcs' loop)
#ifndef PHAST_ROWS_IN_FLIGHT
#define PHAST_ROWS_IN_FLIGHT 4
#endif
// the default of sssp_phast_gpu_knobs::store_all (a build with -DPHAST_STORE_ALL=1 measures the
// stores the default leaves out, in programs that have no knobs: docs/apsp.md)
#ifndef PHAST_STORE_ALL
#define PHAST_STORE_ALL 0
#endif
// the default of sssp_phast_gpu_knobs::narrow (docs/apsp.md, "PHAST"); -DPHAST_NARROW=0
// builds the 32-bit passes alone in, for programs that have no knobs
#ifndef PHAST_NARROW
#define PHAST_NARROW 1
#endif
constexpr int ROWS_IN_FLIGHT = PHAST_ROWS_IN_FLIGHT;
using phast_plan::CHAINED;
using phast_plan::FILTERED;
using phast_plan::level_plan;
using phast_plan::split_of;

struct params
{
	uint32_t n, levels, k; // k: sources in this pass
	uint32_t small_per_warp, chain_arcs, split, split_min, filter;
	uint32_t harmonic; // sssp_phast_out::harmonic
	// whether rows are read after the pass (full rows, target columns): else the downward sweep
	// does not store the lowest level's rows, which no vertex below reads (none is below)
	uint32_t keep_rows;
	const uint32_t *level_start, *pos;
	const unsigned long long *upin_start, *down_start;
	const uint2 *upin, *down;
	// written and read by different blocks between grid barriers: no __restrict__, no
	// read-only (non-coherent) loads on these
	uint32_t *dist;
	uint8_t *flag;
	level_plan *plan;
	unsigned long long *acc_sum;
	uint32_t *acc_ecc, *acc_cnt;
	unsigned long long *acc_harm_lo, *acc_harm_hi;
	uint32_t *top;      // narrow: the largest end of a split level's positions (atomicMax), then s_top
	uint32_t *overflow; // narrow: set when a final distance is NARROW_CAP or more (once per block)
	unsigned long long *prof; // knobs->profile: times of the steps (see stamp), else NULL
	uint32_t src[MAX_LANES];  // original ids
};

// Profile of one pass (sssp_phast_gpu_knobs::profile): block 0's thread 0 stamps the global timer
// (ns) at index 0 (entry), 1 (sources' rows done), 2 + c (upward level c done) and 2 + L + c
// (downward level c done). A grid-wide level's stamp follows its grid barrier.
__device__ __forceinline__ void stamp(const params &P, unsigned idx)
{
	if (P.prof && blockIdx.x == 0 && threadIdx.x == 0)
	{
		unsigned long long t;
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		P.prof[idx] = t;
	}
}

__device__ __forceinline__ uint32_t sat_add(uint32_t d, uint32_t w)
{
	uint32_t t = min(d, CAP - w) + w;
	return d == INF ? INF : t;
}

#include "phast/phast_gpu_rows.cuh" // the rows' formats: 32-bit, and 16-bit in narrow passes

// f(q, w) for each arc q -> (this vertex) of weight w in [b, e) of `arcs` (one warp; in the upward
// sweep only the arcs from tails already reached). Returns whether any arc counted. Unrolled, so that
// several rows are loaded at a time (f stores nothing).
template <bool UP, typename F>
__device__ __forceinline__ bool for_arcs(const params &P, const uint2 *arcs, unsigned long long b, unsigned long long e,
					 unsigned lane, F &&f)
{
	bool any = false;
	for (unsigned long long c = b; c < e; c += 32)
	{
		unsigned cnt = e - c < 32 ? (unsigned)(e - c) : 32;
		uint2 a = lane < cnt ? __ldg(&arcs[c + lane]) : make_uint2(0, 0);
		if (UP)
		{
			// keep the arcs from reached tails, packed into the first lanes
			unsigned m = __ballot_sync(0xffffffffu, lane < cnt && P.flag[a.x] != 0);
			cnt = __popc(m);
			if (!cnt)
				continue;
			any = true;
			unsigned from = lane < cnt ? __fns(m, 0, lane + 1) : 0;
			a.x = __shfl_sync(0xffffffffu, a.x, from);
			a.y = __shfl_sync(0xffffffffu, a.y, from);
		}
		else
			any = true;
#pragma unroll ROWS_IN_FLIGHT
		for (unsigned j = 0; j < cnt; j++)
			f(__shfl_sync(0xffffffffu, a.x, j), __shfl_sync(0xffffffffu, a.y, j));
	}
	return any;
}

// v = min(v, row(q) + w) over the arcs [b, e) of `arcs` (for_arcs), lane by lane in 32 bits
template <int LPT, bool N, bool UP>
__device__ bool fold_arcs(const params &P, const uint2 *arcs, unsigned long long b, unsigned long long e,
			  unsigned lane, uint32_t (&v)[LPT])
{
	return for_arcs<UP>(P, arcs, b, e, lane, [&](uint32_t q, uint32_t w) {
		uint32_t u[LPT];
		row_load<LPT, N>(P, q, lane, u);
		for (int i = 0; i < LPT; i++)
			v[i] = min(v[i], sat_add(u[i], w));
	});
}

#include "phast/phast_gpu_sums.cuh" // the summaries (add_sums) and their shared memory

// whole_vertex (below) in a narrow pass, for a vertex with a 16-bit row (p >= s_top): its row and its
// tails' in halves, two lanes a word, folded with the 16x2 instructions (min16x2, fold16)
template <int LPT, bool UP>
__device__ void whole_vertex16(const params &P, uint32_t p, unsigned lane, lane_sums (&s)[LPT], bool store)
{
	constexpr int H = LPT / 2;
	uint32_t x[H], reach[H];
	const bool reached = P.flag[p] != 0;
	if (reached)
		load_words<H>(thin_row<LPT>(P, p, lane), x);
	else
		fill_row<H>(x, 0xffffffffu);
	for (int i = 0; i < H; i++)
		reach[i] = x[i];
	const unsigned long long *st = UP ? P.upin_start : P.down_start;
	bool any = for_arcs<UP>(P, UP ? P.upin : P.down, __ldg(&st[p]), __ldg(&st[p + 1]), lane, [&](uint32_t q, uint32_t w) {
		uint32_t t[H];
		tail16<LPT>(P, q, lane, t);
		fold16<H>(t, w, x, reach);
	});
	fold16_end<H>(x, reach);
	if (UP)
	{
		if (reached || any)
		{
			store_words<H>(thin_row<LPT>(P, p, lane), x);
			if (!reached && lane == 0)
				P.flag[p] = 1;
		}
	}
	else
	{
		if (store)
			store_words<H>(thin_row<LPT>(P, p, lane), x);
		uint32_t v[LPT];
		unpack16<LPT>(x, v);
		add_sums<LPT, true>(P, s, v);
	}
}

// Vertex p with a warp of its own. Upward: the minimum over upward in-arcs from reached vertices;
// p becomes reached if one of them is (or if it is a source). Downward: its final row, stored
// unless @p store is false (a row nothing reads: the lowest level's, when no output reads rows).
template <int LPT, bool N, bool UP>
__device__ void whole_vertex(const params &P, uint32_t p, unsigned lane, lane_sums (&s)[LPT], bool store = true)
{
	if constexpr (N)
		if (p >= s_top)
		{
			whole_vertex16<LPT, UP>(P, p, lane, s, store);
			return;
		}
	uint32_t v[LPT];
	bool reached = P.flag[p] != 0;
	if (reached)
		row_load<LPT, N>(P, p, lane, v);
	else
		fill_row<LPT>(v, INF);
	const unsigned long long *st = UP ? P.upin_start : P.down_start;
	bool any = fold_arcs<LPT, N, UP>(P, UP ? P.upin : P.down, __ldg(&st[p]), __ldg(&st[p + 1]), lane, v);
	if (UP)
	{
		if (reached || any)
		{
			row_store<LPT, N>(P, p, lane, v);
			if (!reached && lane == 0)
				P.flag[p] = 1;
		}
	}
	else
	{
		if (store)
			row_store<LPT, N>(P, p, lane, v);
		add_sums<LPT, N>(P, s, v);
	}
}

// Slice j of g of vertex p's arcs: their minimum folded into p's row (set before the level: the
// source's row, the upward distances, or INF) lane by lane with atomicMin.
template <int LPT, bool N, bool UP> __device__ void slice_vertex(const params &P, uint32_t p, unsigned j, unsigned g, unsigned lane)
{
	const unsigned long long *st = UP ? P.upin_start : P.down_start;
	unsigned long long b = __ldg(&st[p]), e = __ldg(&st[p + 1]), per = (e - b + g - 1) / g;
	b += j * per;
	if (b >= e)
		return;
	e = min(e, b + per);
	uint32_t v[LPT];
	fill_row<LPT>(v, INF);
	if (!fold_arcs<LPT, N, UP>(P, UP ? P.upin : P.down, b, e, lane, v))
		return;
	row_lower<LPT, N>(P, p, lane, v);
	if (UP && lane == 0 && !P.flag[p])
		P.flag[p] = 1;
}

// A grid-wide upward level with a warp per vertex and few arcs per vertex (FILTER_MAX_DEGREE on
// average): most of its vertices are not in any source's upward search space (at the bottom of
// the hierarchy almost none are), so each lane first looks at one vertex of 32 (reached itself,
// or a reached tail among at most 32 upward in-arcs: a thread's own short loop), and the warp
// runs whole_vertex only for those that may be reached. Where vertices have many arcs the lanes'
// loops cost more than they save (docs/apsp.md, "PHAST"): hence FILTER_MAX_DEGREE.
template <int LPT, bool N>
__device__ void up_filtered(const params &P, uint32_t p0, uint32_t p1, unsigned long long wi, unsigned long long W,
			    unsigned lane, lane_sums (&s)[LPT])
{
	for (unsigned long long c = p0 + wi * 32; c < p1; c += W * 32)
	{
		const uint32_t p = (uint32_t)c + lane;
		bool maybe = false;
		if (p < p1)
		{
			maybe = P.flag[p] != 0;
			unsigned long long b = __ldg(&P.upin_start[p]), e = __ldg(&P.upin_start[p + 1]);
			if (e - b > 32)
				maybe = true;
			for (; b < e && !maybe; b++)
				maybe = P.flag[__ldg(&P.upin[b]).x] != 0;
		}
		for (unsigned m = __ballot_sync(0xffffffffu, maybe); m; m &= m - 1)
			whole_vertex<LPT, N, true>(P, (uint32_t)c + (unsigned)(__ffs(m) - 1), lane, s);
	}
}

// The plan of level b (thread of the grid: one level each).
__device__ level_plan plan_level(const params &P, int b, unsigned wpb, unsigned long long nw)
{
	level_plan l;
	l.p0 = P.level_start[b];
	l.p1 = P.level_start[b + 1];
	uint32_t V = l.p1 - l.p0;
	unsigned long long arcs[2] = { P.upin_start[l.p1] - P.upin_start[l.p0], P.down_start[l.p1] - P.down_start[l.p0] };
	uint32_t r[2];
	for (int d = 0; d < 2; d++)
	{
		bool chained = V <= (unsigned long long)wpb * P.small_per_warp && arcs[d] <= (unsigned long long)wpb * P.chain_arcs;
		unsigned long long W = chained ? wpb : nw, g = 1;
		if (P.split && V && W / V >= 2)
		{
			unsigned long long need = (arcs[d] + (unsigned long long)V * P.split_min - 1) / ((unsigned long long)V * P.split_min);
			g = min(W / V, need);
			g = g < 2 ? 1 : min(g, 4096ull);
		}
		r[d] = (chained ? CHAINED : 0) | (uint32_t)g;
		if (d == 0 && !chained && g == 1 && P.filter && arcs[0] <= (unsigned long long)V * FILTER_MAX_DEGREE)
			r[d] |= FILTERED;
	}
	l.up = r[0];
	l.down = r[1];
	return l;
}

// Rows of level l set to INF but for the sources', for the atomicMin of split vertices
// (warp wi of W).
template <int LPT, bool N> __device__ void clear_level(const params &P, const level_plan &l, unsigned long long wi,
					       unsigned long long W, unsigned lane)
{
	uint32_t v[LPT];
	fill_row<LPT>(v, INF);
	for (unsigned long long p = l.p0 + wi; p < l.p1; p += W)
		if (!P.flag[p])
			row_store<LPT, N>(P, (uint32_t)p, lane, v);
}

// One level of a sweep by warp wi of W (block 0's warps for a chained level, else the grid's).
// Upward, it also clears the rows of the next level (b - 1) if that one splits vertices in
// either sweep; downward, it first adds up the rows of the previous level (b - 1) if that one
// split its vertices (they were final only after its barrier).
template <int LPT, bool N, bool UP>
__device__ void sweep_level(const params &P, int b, unsigned long long wi, unsigned long long W, unsigned lane,
			    lane_sums (&s)[LPT])
{
	const level_plan l = P.plan[b];
	if (b > 0)
	{
		const level_plan o = P.plan[b - 1];
		if (UP && (split_of(o.up) > 1 || split_of(o.down) > 1))
			clear_level<LPT, N>(P, o, wi, W, lane);
		if (!UP && split_of(o.down) > 1)
			for (unsigned long long p = o.p0 + wi; p < o.p1; p += W)
			{
				uint32_t v[LPT];
				row_load<LPT, N>(P, (uint32_t)p, lane, v);
				add_sums<LPT, N>(P, s, v);
			}
	}
	const unsigned g = split_of(UP ? l.up : l.down);
	if (UP && (l.up & FILTERED))
		up_filtered<LPT, N>(P, l.p0, l.p1, wi, W, lane, s);
	else if (g <= 1)
	{
		const bool store = UP || P.keep_rows || b + 1 < (int)P.levels;
		for (unsigned long long p = l.p0 + wi; p < l.p1; p += W)
			whole_vertex<LPT, N, UP>(P, (uint32_t)p, lane, s, store);
	}
	else
		for (unsigned long long t = wi; t < (unsigned long long)(l.p1 - l.p0) * g; t += W)
			slice_vertex<LPT, N, UP>(P, l.p0 + (uint32_t)(t / g), (unsigned)(t % g), g, lane);
}

template <int LPT, bool N, bool UP> __device__ bool chained(const params &P, int b)
{
	return ((UP ? P.plan[b].up : P.plan[b].down) & CHAINED) != 0;
}

// A whole sweep: levels in sweep order, a chain of chained levels in block 0 (the other blocks
// skip it), a grid barrier after each grid-wide level or chain.
template <int LPT, bool N, bool UP> __device__ void sweep(const params &P, cg::grid_group &grid, lane_sums (&s)[LPT])
{
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, wpb = blockDim.x >> 5;
	const unsigned long long gw = (unsigned long long)blockIdx.x * wpb + wib;
	const unsigned long long nw = (unsigned long long)gridDim.x * wpb;
	const int L = (int)P.levels, step = UP ? -1 : 1;
	const unsigned base = UP ? 2 : 2 + L;
	for (int b = UP ? L - 1 : 0; b >= 0 && b < L;)
	{
		if (chained<LPT, N, UP>(P, b))
		{
			int c = b;
			for (; c >= 0 && c < L && chained<LPT, N, UP>(P, c); c += step)
				if (blockIdx.x == 0)
				{
					sweep_level<LPT, N, UP>(P, c, wib, wpb, lane, s);
					__syncthreads();
					stamp(P, base + c);
				}
			b = c;
		}
		else
		{
			sweep_level<LPT, N, UP>(P, b, gw, nw, lane, s);
			b += step;
		}
		if (UP || b < L)
			grid.sync();
		stamp(P, base + (unsigned)(b - step));
	}
}

template <int LPT, bool N> __device__ void phast_body(const params &P)
{
	constexpr unsigned K = 32 * LPT;
	cg::grid_group grid = cg::this_grid();
	const unsigned lane = threadIdx.x & 31, wpb = blockDim.x >> 5;
	const unsigned long long gw = (unsigned long long)blockIdx.x * wpb + (threadIdx.x >> 5);
	const unsigned long long nw = (unsigned long long)gridDim.x * wpb;
	const int L = (int)P.levels;
	stamp(P, 0);
	sums_clear(K); // the block sees them after the grid barriers below

	// 1. the levels' plans; the rows of the lowest level cleared if it splits vertices (every
	//    warp plans that one itself); then the sources' rows
	if constexpr (N)
	{
		if (threadIdx.x == 0)
		{
			s_top = P.n; // 32-bit rows until the split levels are known (a split lowest level: all)
			s_over = 0;
		}
		__syncthreads();
	}
	for (unsigned long long b = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; b < (unsigned)L;
	     b += (unsigned long long)gridDim.x * blockDim.x)
	{
		const level_plan pl = plan_level(P, (int)b, wpb, nw);
		P.plan[b] = pl;
		if (N && (split_of(pl.up) > 1 || split_of(pl.down) > 1))
			atomicMax(P.top, pl.p1);
	}
	if (L > 0)
	{
		level_plan low = plan_level(P, L - 1, wpb, nw);
		if (split_of(low.up) > 1 || split_of(low.down) > 1)
			clear_level<LPT, N>(P, low, gw, nw, lane);
	}
	grid.sync();
	if constexpr (N)
	{
		if (threadIdx.x == 0)
			s_top = *(volatile const uint32_t *)P.top; // the atomicMax of every block, after the barrier
		__syncthreads();
	}
	for (unsigned long long s = gw; s < P.k; s += nw)
	{
		uint32_t so = P.src[s], p = P.pos[so];
		uint32_t v[LPT];
		for (int i = 0; i < LPT; i++)
		{
			unsigned j = lane * LPT + i;
			v[i] = j < P.k && P.src[j] == so ? 0 : INF;
		}
		row_store<LPT, N>(P, p, lane, v);
		if (lane == 0)
			P.flag[p] = 1;
	}
	grid.sync();
	stamp(P, 1);

	// 2. upward sweep, lowest level (last block) first; 3. downward sweep, highest first
	lane_sums s[LPT];
	for (int i = 0; i < LPT; i++)
		s[i] = lane_sums{ 0, 0 };
	sweep<LPT, N, true>(P, grid, s);
	sweep<LPT, N, false>(P, grid, s);
	if (L > 0 && split_of(P.plan[L - 1].down) > 1)
	{
		// the last level's rows, final only now
		grid.sync();
		const level_plan l = P.plan[L - 1];
		for (unsigned long long p = l.p0 + gw; p < l.p1; p += nw)
		{
			uint32_t v[LPT];
			row_load<LPT, N>(P, (uint32_t)p, lane, v);
			add_sums<LPT, N>(P, s, v);
		}
	}

	// 4. the lanes' summaries: per block in shared memory, then one atomic per lane
	__syncthreads();
	if (N && threadIdx.x == 0 && s_over)
		*P.overflow = 1;
	sums_flush<LPT, N>(P, s);
}
} // namespace

// One persistent kernel per pass; a scan of the vertices with scattered row reads, most of
// them within a few cache lines of the previous (vertices in level then id order).
TUCCOMPI_KERNELCHAR(phast_sweep32, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep64, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep128, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep256, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep128n, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep256n, 1, medium_coalesced, low, high, low);
// One lane's distances gathered into original order: strided reads, coalesced writes.
TUCCOMPI_KERNELCHAR(phast_rows, 1, scatter, none, low, low);
// The targets' columns of a pass (phast_cols): a transpose through shared memory of fixed shape,
// COLS_TILE x COLS_TILE cells per block of COLS_TILE x COLS_ROWS threads (its block, KERNELCHAR_BLOCK):
// each warp reads one target's row of lanes (a gathered row, read whole) and writes a run of
// targets, each word moved once through the tile.
#define COLS_TILE 32
#define COLS_ROWS 8
TUCCOMPI_KERNELCHAR_BLOCK(phast_cols, COLS_TILE, COLS_ROWS, medium_coalesced, none, low, medium);

__global__ void phast_sweep32(params P)
{
	phast_body<1, false>(P);
}
__global__ void phast_sweep64(params P)
{
	phast_body<2, false>(P);
}
// PHAST_MAXREG=N: the wide passes' kernels held to N registers per thread, 64 by default: two blocks of
// 512 threads per SM instead of one (0: the compiler's choice; docs/apsp.md, "PHAST")
#ifndef PHAST_MAXREG
#define PHAST_MAXREG 64
#endif
#if PHAST_MAXREG > 0
#define PHAST_WIDE __maxnreg__(PHAST_MAXREG)
#else
#define PHAST_WIDE
#endif
__global__ void PHAST_WIDE phast_sweep128(params P)
{
	phast_body<4, false>(P);
}
__global__ void PHAST_WIDE phast_sweep256(params P)
{
	phast_body<8, false>(P);
}
// narrow passes (16-bit rows below the split levels), at 128 and 256 lanes
__global__ void PHAST_WIDE phast_sweep128n(params P)
{
	phast_body<4, true>(P);
}
__global__ void PHAST_WIDE phast_sweep256n(params P)
{
	phast_body<8, true>(P);
}

__global__ void phast_rows(const uint32_t *dist, const uint32_t *__restrict__ pos, uint32_t n, unsigned lanes,
			   unsigned lane, uint32_t *out)
{
	uint32_t o = blockIdx.x * blockDim.x + threadIdx.x;
	if (o < n)
		out[o] = dist[(size_t)__ldg(&pos[o]) * lanes + lane];
}

// out[i T + j] = distance of target j (original id) from the pass's source i < k. A block moves a
// tile of COLS_TILE targets x COLS_TILE sources: each target's row is read as consecutive lanes
// (one line per warp), the tile is turned in shared memory, and each source's run of targets is
// written as consecutive words. (One thread per cell would read a 32-byte sector per 4-byte
// distance, each from a different row: a scattered read per cell where the tile reads whole lines.)
__global__ void phast_cols(const uint32_t *dist, const uint32_t *__restrict__ pos, const uint32_t *__restrict__ targets,
			   uint32_t T, unsigned lanes, unsigned k, uint32_t *out)
{
	__shared__ uint32_t tile[COLS_TILE][COLS_TILE + 1]; // +1: the turned reads fall in distinct banks
	const uint32_t j0 = blockIdx.x * COLS_TILE;
	const unsigned i0 = blockIdx.y * COLS_TILE, tx = threadIdx.x;
	for (unsigned jj = threadIdx.y; jj < COLS_TILE; jj += COLS_ROWS)
		if (j0 + jj < T && i0 + tx < k)
			tile[jj][tx] = dist[(size_t)__ldg(&pos[__ldg(&targets[j0 + jj])]) * lanes + i0 + tx];
	__syncthreads();
	for (unsigned ii = threadIdx.y; ii < COLS_TILE; ii += COLS_ROWS)
		if (i0 + ii < k && j0 + tx < T)
			out[(size_t)(i0 + ii) * T + j0 + tx] = tile[tx][ii];
}

namespace
{
// A sweep kernel's launch: the tuner's geometry (whole warps: a warp per vertex) raised by fit_block,
// and this pass's part of the GPU's resident blocks when `share` passes run at once on it (MK)
struct launch
{
	const void *kern;
	dim3 grid, blk;
};

int plan_launch(const void *kern, struct tuccompi_kernel *kk, uint32_t n, int dev, int sms, unsigned share,
		launch *out, char *err, size_t errlen)
{
	struct tuccompi_geometry geo;
	if (tuccompi_gpu_geometry(kk, kern, n, 1, 0, &geo) < 0)
		return sssp_fail(err, errlen, -ENODEV, "PHAST GPU: no launch geometry: %s", tuccompi_last_error());
	unsigned block = geo.block_x * geo.block_y;
	block = block < 32 ? 32 : (block + 31) / 32 * 32;
	if (geo.carveout >= 0)
		cudaFuncSetAttribute(kern, cudaFuncAttributePreferredSharedMemoryCarveout, geo.carveout);
	int per_sm = 0;
	cudaError_t e = fit_block(kern, dev, block, &block, &per_sm);
	if (e != cudaSuccess)
		return sssp_fail(err, errlen, -EIO, "PHAST GPU: occupancy of the sweep kernel: %s", cudaGetErrorString(e));
	if (per_sm < 1)
		return sssp_fail(err, errlen, -ENODEV, "PHAST GPU: no block of this kernel can be resident on device %d", dev);
	unsigned nb = (unsigned)per_sm * (unsigned)sms / (share ? share : 1);
	*out = launch{ kern, dim3(nb ? nb : 1), dim3(block) };
	return 0;
}

size_t up256(size_t x)
{
	return (x + 255) & ~(size_t)255;
}

struct layout
{
	uint32_t *dist;
	uint8_t *flag;
	level_plan *plan;
	unsigned long long *acc_sum;
	uint32_t *acc_ecc, *acc_cnt;
	unsigned long long *acc_harm_lo, *acc_harm_hi;
	uint32_t *top, *overflow; // cleared with the sums before each pass
	uint32_t *staging;
	uint32_t *cols; // lanes x ntargets: a pass's target columns
	size_t bytes;
};

layout lay_out(void *base, uint32_t n, unsigned lanes, uint32_t ntargets)
{
	layout l;
	char *p = (char *)base;
	size_t off = 0;
	l.dist = (uint32_t *)(p + off);
	off += up256((size_t)n * lanes * sizeof(uint32_t));
	l.flag = (uint8_t *)(p + off);
	off += up256(n);
	l.plan = (level_plan *)(p + off);
	off += up256(((size_t)n + 1) * sizeof(level_plan)); // levels <= n
	l.acc_sum = (unsigned long long *)(p + off);
	off += up256(lanes * sizeof(unsigned long long));
	l.acc_ecc = (uint32_t *)(p + off);
	off += up256(lanes * sizeof(uint32_t));
	l.acc_cnt = (uint32_t *)(p + off);
	off += up256(lanes * sizeof(uint32_t));
	l.acc_harm_lo = (unsigned long long *)(p + off);
	off += up256(lanes * sizeof(unsigned long long));
	l.acc_harm_hi = (unsigned long long *)(p + off);
	off += up256(lanes * sizeof(unsigned long long));
	l.top = (uint32_t *)(p + off);
	l.overflow = l.top + 1;
	off += up256(2 * sizeof(uint32_t));
	l.staging = (uint32_t *)(p + off);
	off += up256((size_t)n * sizeof(uint32_t));
	l.cols = (uint32_t *)(p + off);
	off += up256((size_t)lanes * ntargets * sizeof(uint32_t));
	l.bytes = off;
	return l;
}

// Per host thread: pinned staging of the summaries (a StarPU CUDA worker is one thread).
struct host_acc
{
	unsigned long long sum[MAX_LANES];
	uint32_t ecc[MAX_LANES], cnt[MAX_LANES];
	unsigned long long harm_lo[MAX_LANES], harm_hi[MAX_LANES];
	uint32_t overflow;
};
thread_local host_acc *pinned_acc;
// Knob narrow 1: whether the distances of a hierarchy (its device level array) fit 16-bit rows, for
// the process. Its first pass tries them while the other threads' passes run 32-bit; the answer
// decides the later passes (a pass that meets too large a distance makes it WIDE). One hierarchy is
// remembered at a time.
enum fit_state
{
	PROBING,
	FITS,
	WIDE
};
struct
{
	std::mutex lock;
	const void *view;
	fit_state state;
} fit16;
unsigned long long narrow_passes, narrow_reruns; // sssp_phast_gpu_narrow_counts
} // namespace

extern "C" size_t sssp_phast_gpu_workspace_size(uint32_t n, unsigned lanes)
{
	return sssp_phast_gpu_workspace_size_cols(n, lanes, 0);
}

extern "C" size_t sssp_phast_gpu_workspace_size_cols(uint32_t n, unsigned lanes, uint32_t ntargets)
{
	if (lanes != 32 && lanes != 64 && lanes != 128 && lanes != 256)
		return 0;
	return lay_out(nullptr, n, lanes, ntargets).bytes;
}

#define CK(call) TUCCOMPI_CUDA_CHECK(call, "PHAST GPU", err, errlen)


extern "C" void sssp_phast_gpu_knobs_default(struct sssp_phast_gpu_knobs *k)
{
	k->chain_vertices = CHAIN_VERTICES_PER_WARP;
	k->chain_arcs = CHAIN_ARCS_PER_WARP;
	k->split = 1;
	k->split_min = SPLIT_MIN_ARCS;
	k->filter = 1;
	k->profile = 0;
	k->store_all = PHAST_STORE_ALL;
	k->narrow = PHAST_NARROW;
}

extern "C" int sssp_phast_gpu(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, unsigned lanes,
			      void *work, size_t work_bytes, struct sssp_summary *out, uint32_t *const *rows,
			      void *stream, unsigned share, const struct sssp_phast_gpu_knobs *knobs, char *err,
			      size_t errlen)
{
	struct sssp_phast_out o;
	memset(&o, 0, sizeof o);
	o.rows = rows;
	return sssp_phast_gpu_out(v, src, nsrc, lanes, work, work_bytes, out, &o, stream, share, knobs, err, errlen);
}

extern "C" int sssp_phast_gpu_out(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, unsigned lanes,
				  void *work, size_t work_bytes, struct sssp_summary *out, const struct sssp_phast_out *o,
				  void *stream, unsigned share, const struct sssp_phast_gpu_knobs *knobs, char *err,
				  size_t errlen)
{
	uint32_t *const *rows = o->rows;
	struct sssp_phast_gpu_knobs kn;
	if (knobs)
		kn = *knobs;
	else
		sssp_phast_gpu_knobs_default(&kn);
	uint32_t n = v->n;
	const void *kern = lanes == 32    ? (const void *)phast_sweep32
			   : lanes == 64  ? (const void *)phast_sweep64
			   : lanes == 128 ? (const void *)phast_sweep128
			   : lanes == 256 ? (const void *)phast_sweep256
					  : nullptr;
	struct tuccompi_kernel *kk = lanes == 32    ? TUCCOMPI_KERNEL(phast_sweep32)
				     : lanes == 64  ? TUCCOMPI_KERNEL(phast_sweep64)
				     : lanes == 128 ? TUCCOMPI_KERNEL(phast_sweep128)
						    : TUCCOMPI_KERNEL(phast_sweep256);
	if (!kern)
		return sssp_fail(err, errlen, -EINVAL, "PHAST GPU: %u lanes per pass; use 32, 64, 128 or 256", lanes);
	const int with_cols = o->cols || o->col_dst;
	layout l = lay_out(work, n, lanes, with_cols ? o->ntargets : 0);
	if (!work || work_bytes < l.bytes)
		return sssp_fail(err, errlen, -EINVAL, "PHAST GPU: workspace of %zu bytes, %zu needed (sssp_phast_gpu_workspace_size_cols)",
			    work_bytes, l.bytes);
	if (with_cols && o->ntargets && !o->targets)
		return sssp_fail(err, errlen, -EINVAL, "PHAST GPU: %u target columns without their device array", o->ntargets);
	for (unsigned i = 0; i < nsrc; i++)
		if (src[i] >= n)
			return sssp_fail(err, errlen, -EINVAL, "PHAST GPU: source %u is not a vertex (n = %u)", src[i], n);
	if (nsrc == 0)
		return 0;
	cudaStream_t s = (cudaStream_t)stream;

	int dev, sms, r;
	if ((r = sssp_gpu_device(1, &dev, &sms, "PHAST GPU", err, errlen)) < 0)
		return r;
	/* the pass's kernel and launch; the narrow kernel's (knob narrow), where a pass may keep 16-bit
	 * rows: at 128 and 256 lanes, when no output reads the rows */
	launch wide, thin;
	int rc = plan_launch(kern, kk, n, dev, sms, share, &wide, err, errlen);
	if (rc)
		return rc;
	const int may_narrow = kn.narrow && !(rows != nullptr || with_cols || kn.store_all) && (lanes == 128 || lanes == 256);
	if (may_narrow)
	{
		const bool c128 = lanes == 128;
		if ((rc = plan_launch(c128 ? (const void *)phast_sweep128n : (const void *)phast_sweep256n,
				      c128 ? TUCCOMPI_KERNEL(phast_sweep128n) : TUCCOMPI_KERNEL(phast_sweep256n), n, dev, sms,
				      share, &thin, err, errlen)))
			return rc;
	}

	if (!pinned_acc)
		CK(cudaMallocHost((void **)&pinned_acc, sizeof *pinned_acc));
	unsigned rblock = 0;
	if (rows && (r = sssp_gpu_block(TUCCOMPI_KERNEL(phast_rows), (const void *)phast_rows, n, 0, &rblock, "PHAST GPU", err,
					errlen)) < 0)
		return r;
	const uint32_t T = with_cols ? o->ntargets : 0;
	struct tuccompi_geometry cgeo;
	if (T && tuccompi_gpu_geometry(TUCCOMPI_KERNEL(phast_cols), (const void *)phast_cols, T, lanes, 0, &cgeo) < 0)
		return sssp_fail(err, errlen, -EIO, "PHAST GPU: tuccompi_gpu_geometry(phast_cols): %s", tuccompi_last_error());
	if (T && (cgeo.block_x != COLS_TILE || cgeo.block_y != COLS_ROWS))
		return sssp_fail(err, errlen, -EIO, "PHAST GPU: the tuner gave phast_cols %ux%u threads, not its %dx%d",
				 cgeo.block_x, cgeo.block_y, COLS_TILE, COLS_ROWS);

	params P;
	memset(&P, 0, sizeof P);
	P.n = n;
	P.levels = v->levels;
	P.small_per_warp = kn.chain_vertices;
	P.chain_arcs = kn.chain_arcs;
	P.split = kn.split;
	P.split_min = kn.split_min;
	P.filter = kn.filter;
	P.harmonic = o->harmonic != 0;
	P.keep_rows = rows != nullptr || T > 0 || kn.store_all;
	if (!P.split_min)
		P.split_min = 1;
	P.plan = l.plan;
	P.level_start = v->level_start;
	P.pos = v->pos;
	P.upin_start = (const unsigned long long *)v->upin_start;
	P.down_start = (const unsigned long long *)v->down_start;
	P.upin = (const uint2 *)v->upin;
	P.down = (const uint2 *)v->down;
	P.dist = l.dist;
	P.flag = l.flag;
	P.acc_sum = l.acc_sum;
	P.acc_ecc = l.acc_ecc;
	P.acc_cnt = l.acc_cnt;
	P.acc_harm_lo = l.acc_harm_lo;
	P.acc_harm_hi = l.acc_harm_hi;
	P.top = l.top;
	P.overflow = l.overflow;
	static unsigned profiled; // passes profiled by this process
	const unsigned to_profile = kn.profile;
	struct prof_buf
	{
		unsigned long long *d = nullptr, *h = nullptr;
		~prof_buf()
		{
			cudaFree(d);
			free(h);
		}
	} pb_;
	unsigned long long *&prof = pb_.d, *&prof_host = pb_.h;
	bool again = false; // the pass of sources g runs again, 32-bit: it did not fit 16-bit rows
	for (unsigned g = 0; g < nsrc;)
	{
		/* 16-bit rows unless this pass's sources did not fit a moment ago; knob 1: while this
		 * hierarchy's first pass (this one, perhaps) finds out whether its distances fit, and where
		 * they did not */
		bool thin_pass = may_narrow && !again, probe = false;
		if (thin_pass && kn.narrow == 1)
		{
			std::lock_guard<std::mutex> hold(fit16.lock);
			if (fit16.view != (const void *)v->level_start)
			{
				fit16.view = v->level_start;
				fit16.state = PROBING;
				probe = true;
			}
			else
				thin_pass = fit16.state == FITS;
		}
		const launch &lk = thin_pass ? thin : wide;
		again = false;
		P.prof = nullptr;
		if (to_profile && __atomic_fetch_add(&profiled, 1, __ATOMIC_RELAXED) < to_profile)
		{
			size_t pb = (2 * (size_t)v->levels + 2) * sizeof *prof;
			if (!prof && (cudaMalloc((void **)&prof, pb) != cudaSuccess || !(prof_host = (unsigned long long *)malloc(pb))))
				return sssp_fail(err, errlen, -EIO, "PHAST GPU: no memory for the profile");
			CK(cudaMemsetAsync(prof, 0, pb, s));
			P.prof = prof;
		}
		unsigned k = nsrc - g < lanes ? nsrc - g : lanes;
		P.k = k;
		memcpy(P.src, src + g, k * sizeof(uint32_t));
		CK(cudaMemsetAsync(l.flag, 0, n, s));
		CK(cudaMemsetAsync(l.acc_sum, 0, (char *)l.staging - (char *)l.acc_sum, s));
		void *args[] = { &P };
		CK(cudaLaunchCooperativeKernel(lk.kern, lk.grid, lk.blk, args, 0, s));
		if (rows)
			for (unsigned i = 0; i < k; i++)
				if (rows[g + i])
				{
					phast_rows<<<(n + rblock - 1) / rblock, rblock, 0, s>>>(l.dist, v->pos, n, lanes, i, l.staging);
					CK(cudaGetLastError());
					CK(cudaMemcpyAsync(rows[g + i], l.staging, (size_t)n * sizeof(uint32_t),
								 cudaMemcpyDeviceToHost, s));
				}
		if (T)
		{
			// the columns on the device, then only they cross to the host
			unsigned long long cells = (unsigned long long)k * T;
			dim3 cgrid((T + COLS_TILE - 1) / COLS_TILE, (k + COLS_TILE - 1) / COLS_TILE);
			phast_cols<<<cgrid, dim3(cgeo.block_x, cgeo.block_y), 0, s>>>(l.dist, v->pos, o->targets, T, lanes, k, l.cols);
			CK(cudaGetLastError());
			if (!o->col_dst)
				CK(cudaMemcpyAsync(o->cols + (size_t)g * T, l.cols, (size_t)cells * sizeof(uint32_t),
							 cudaMemcpyDeviceToHost, s));
			else
				CK((cudaError_t)sssp_gpu_cols_to_host(o->col_dst + g, o->col_pitch, l.cols, T, k, s));
		}
		CK(cudaMemcpyAsync(pinned_acc->sum, l.acc_sum, lanes * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
		CK(cudaMemcpyAsync(pinned_acc->ecc, l.acc_ecc, lanes * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
		CK(cudaMemcpyAsync(pinned_acc->cnt, l.acc_cnt, lanes * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
		CK(cudaMemcpyAsync(pinned_acc->harm_lo, l.acc_harm_lo, lanes * sizeof(unsigned long long),
					 cudaMemcpyDeviceToHost, s));
		CK(cudaMemcpyAsync(pinned_acc->harm_hi, l.acc_harm_hi, lanes * sizeof(unsigned long long),
					 cudaMemcpyDeviceToHost, s));
		if (thin_pass)
			CK(cudaMemcpyAsync(&pinned_acc->overflow, l.overflow, sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
		CK(cudaStreamSynchronize(s));
		if (P.prof)
		{
			CK(cudaMemcpy(prof_host, prof, (2 * (size_t)v->levels + 2) * sizeof *prof, cudaMemcpyDeviceToHost));
			phast_plan::phast_print_profile(v, l.plan, prof_host, lanes, k, lk.grid.x, lk.blk.x);
		}
		if (thin_pass)
		{
			__atomic_fetch_add(&narrow_passes, 1, __ATOMIC_RELAXED);
			if (kn.narrow == 1)
			{
				std::lock_guard<std::mutex> hold(fit16.lock);
				if (fit16.view == (const void *)v->level_start && (probe || pinned_acc->overflow))
					fit16.state = pinned_acc->overflow ? WIDE : FITS;
			}
			if (pinned_acc->overflow)
			{
				/* a distance of 65,534 or more: these sources again with 32-bit rows */
				__atomic_fetch_add(&narrow_reruns, 1, __ATOMIC_RELAXED);
				again = true;
				continue;
			}
		}
		for (unsigned i = 0; i < k; i++)
		{
			struct sssp_summary *so = &out[g + i];
			so->source = src[g + i];
			so->sum = pinned_acc->sum[i];
			so->ecc = pinned_acc->ecc[i];
			so->reached = pinned_acc->cnt[i];
			so->phases = v->levels;
			so->overflow = pinned_acc->ecc[i] >= SSSP_DIST_LIMIT;
			so->harmonic = o->harmonic ? sssp_harm_value(sssp_harm{ pinned_acc->harm_lo[i], pinned_acc->harm_hi[i] }) : 0;
		}
		g += lanes;
	}
	return 0;
}

extern "C" void sssp_phast_gpu_narrow_counts(unsigned long long *passes, unsigned long long *reruns)
{
	*passes = __atomic_load_n(&narrow_passes, __ATOMIC_RELAXED);
	*reruns = __atomic_load_n(&narrow_reruns, __ATOMIC_RELAXED);
}
