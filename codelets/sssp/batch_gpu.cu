// Batched SSSP on a GPU: 32 shortest-path trees per traversal, one warp lane per source.
//
// Algorithm: label-correcting frontier relaxation (Bellman-Ford with a work list), optionally
// with one near/far threshold for all 32 sources (near-far / delta-stepping: Davidson, Baxter,
// Garland, Owens, "Work-efficient parallel GPU methods for single-source shortest paths",
// IPDPS 2014; Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
// J. Algorithms 49(1), 2003), direction-optimising push/pull (Beamer, Asanovic, Patterson,
// "Direction-optimizing breadth-first search", SC 2012) and many sources per pass (the
// multi-source BFS idea of Then et al., "The more the merrier: efficient multi-source graph
// traversal", VLDB 2014). Distances are exact: every improvement of a (vertex, source) pair is
// expanded later at a distance no larger, until no pair improves.
//
// Data (the workspace, batch_gpu.h): dist[v][lane] (128 bytes per vertex: one cache line holds
// the 32 sources of a vertex); frontier lane masks F[2][v] (pairs improved and not yet expanded,
// double-buffered: a step reads F[p] and writes F[p^1]) with their vertex lists L[2] (a vertex is
// appended when its mask goes from 0 to non-zero); the far pile FM[v] (pairs at or above the
// threshold T) with lists FL[2]; a chunk queue Q (high-degree vertices of a PUSH step, in chunks of
// C arcs) and the in-chunks HP of high in-degree vertices for PULL steps.
//
// One cooperative kernel runs the whole traversal; steps are separated by a grid barrier whose
// last arriving block runs the control step (batch_gpu_logic.h: which step comes next, counter
// resets) before it releases the others, so the host never round-trips per iteration. Steps:
//   PUSH   warps take 32 frontier vertices at a time: vertices with <= SPARSE active lanes are
//          expanded one thread per vertex (grid-like graphs, where the 32 sources' waves rarely
//          meet), the others one warp per vertex (lanes = sources, one coalesced row per arc): by
//          the same warp when its group holds few of them or the frontier is sparse on average,
//          else as records of the chunk queue for PUSHB; vertices of degree > C go to the queue
//          in chunks of C arcs. A relaxation reads the target's distance, atomicMin()s it only
//          when smaller, and marks the improved lanes in F[p^1] (below T) or FM (at or above T)
//          with one atomicOr per warp or thread; four arcs at a time, each kind of request issued
//          for all four before any answer is needed.
//   PUSHB  the records, one warp each (dense vertices of random graphs; R-MAT hubs' 1e5 arcs
//          spread over the whole grid).
//   PULL   when the frontier is large (more than n/PULL vertices) and dense (PULL_DENSITY new
//          lanes per vertex): warps take 4 consecutive vertices, whose in-arcs are contiguous,
//          gather their tails' masks 32 at a time, read the rows of the tails in the frontier and
//          lower their own rows (atomicMin: the in-chunks of a high in-degree vertex, separate
//          items, run concurrently).
//   CLEAR  zeroes the masks a PULL read (a PUSH zeroes them as it goes).
//   RAISE  no near pair left: T = (smallest far distance) + delta; far pairs below the new T go to
//          the frontier, those at or above it stay, those below the old T are spent.
// Lists are appended through a 32-entry buffer per warp in shared memory (one atomicAdd per 32
// entries). Mutable state is read with ld.global.cg (L2), so no stale L1 line survives a barrier.
//
// Plain kernels: init (distances to INF, masks to 0, control), summary (per lane: 64-bit sum, max,
// count), rows (transpose into per-source rows for the host). Block sizes come from the tuner
// (tuccompi_gpu_geometry); the device loop's grid is the occupancy limit times the SMs / share.
// Launches are checked and reported (never abort): the library's GPULAUNCH aborts on errors,
// so this engine launches itself with the tuner's geometry.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "batch_gpu.h"
#include "batch_gpu_logic.h"

#define INF SSSP_BATCH_INF
#define FULL 0xffffffffu
#define LANES SSSP_BATCH_LANES
#define MAX_WARPS 32 // blocks of at most 1024 threads

TUCCOMPI_KERNELCHAR(batch_init, 1, coalesced, none, low, low);
// The device loop: data-dependent rows of a 128 MB array (scatter), few instructions per access,
// lines evicted long before reuse (C high), no reuse (D low).
TUCCOMPI_KERNELCHAR(batch_loop, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR(batch_loop_occ, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR(batch_summary, 1, coalesced, low, low, low);
// Transpose through a shared-memory tile: coalesced both ways, each word reused once (D medium).
TUCCOMPI_KERNELCHAR(batch_rows, 1, coalesced, none, low, medium);

// Per-lane results of the summary kernel, and the control block the host reads back.
struct batch_dev
{
	struct sssp_batch_ctl ctl;
	unsigned long long sum[LANES];
	uint32_t ecc[LANES];
	uint32_t reached[LANES];
};

struct kparams
{
	uint32_t n, nsrc, chunk, sparse_popc;
	struct sssp_batch_cfg cfg;
	unsigned long long timeout_ns;
	const uint64_t *rowptr;
	const uint32_t *col, *w;
	const uint64_t *in_rowptr;
	const uint32_t *in_col, *in_w;
	uint32_t *dist;
	uint32_t *F[2], *L[2], *FL[2];
	uint32_t *FM;
	uint32_t *Qv, *Qm, *Qc;
	uint32_t *HPv, *HPc;
	struct batch_dev *dev;
	uint32_t *cnt;
	uint32_t src[LANES];
};

// ------------------------------------------------------------------ workspace layout

struct layout
{
	size_t dist, F0, F1, FM, L0, L1, FL0, FL1, Qv, Qm, Qc, HPv, HPc, dev, cnt, stage, total;
};

static size_t place(size_t *off, size_t bytes)
{
	size_t at = *off;
	*off = (at + bytes + 255) & ~(size_t)255;
	return at;
}

static void layout_of(uint32_t n, int with_rows, struct layout *l)
{
	size_t off = 0, nn = n ? n : 1, w4 = nn * sizeof(uint32_t);
	l->dist = place(&off, nn * LANES * sizeof(uint32_t));
	l->F0 = place(&off, w4);
	l->F1 = place(&off, w4);
	l->FM = place(&off, w4);
	l->L0 = place(&off, w4);
	l->L1 = place(&off, w4);
	l->FL0 = place(&off, w4);
	l->FL1 = place(&off, w4);
	l->Qv = place(&off, 2 * w4);
	l->Qm = place(&off, 2 * w4);
	l->Qc = place(&off, 2 * w4);
	l->HPv = place(&off, 2 * w4);
	l->HPc = place(&off, 2 * w4);
	l->dev = place(&off, sizeof(struct batch_dev));
	l->cnt = place(&off, SSSP_BATCH_CNT(SSSP_BATCH_NCOUNTERS) * sizeof(uint32_t));
	l->stage = with_rows ? place(&off, nn * LANES * sizeof(uint32_t)) : 0;
	l->total = off;
}

extern "C" size_t sssp_batch_gpu_workspace_size(uint32_t n, int with_rows)
{
	struct layout l;
	layout_of(n, with_rows, &l);
	return l.total + 256; // the base is aligned up to 256 bytes
}

// ------------------------------------------------------------------ small device helpers

__device__ __forceinline__ uint32_t ldcg(const uint32_t *p)
{
	return __ldcg(p);
}

__device__ __forceinline__ unsigned lane_id(void)
{
	return threadIdx.x & 31;
}

__device__ __forceinline__ unsigned long long global_ns(void)
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

__device__ __forceinline__ uint32_t rd_volatile(const uint32_t *p)
{
	return *(const volatile uint32_t *)p;
}

// A warp's output of one step: buffered appends to the frontier list and the far list, and the
// smallest far distance it produced (per lane; reduced when flushed).
struct wout
{
	uint32_t *near_list, *near_cnt;
	uint32_t *far_list, *far_cnt, *far_min;
	uint32_t *sb_near, *sb_far; // 32 entries each, this warp's shared memory
	uint32_t nb, fb;            // buffered entries (warp-uniform)
	uint32_t fmin;              // per lane
	uint32_t np;                // per lane: pairs put into the next frontier
	uint32_t *np_cnt;
};

__device__ __forceinline__ void buf_flush(uint32_t *sb, uint32_t &cnt, uint32_t *list, uint32_t *gcnt)
{
	__syncwarp();
	if (cnt)
	{
		uint32_t base = 0;
		if (lane_id() == 0)
			base = atomicAdd(gcnt, cnt);
		base = __shfl_sync(FULL, base, 0);
		if (lane_id() < cnt)
			list[base + lane_id()] = sb[lane_id()];
		cnt = 0;
	}
	__syncwarp();
}

// Append v (the same on every lane).
__device__ __forceinline__ void buf_put1(uint32_t *sb, uint32_t &cnt, uint32_t *list, uint32_t *gcnt, uint32_t v)
{
	if (cnt == 32)
		buf_flush(sb, cnt, list, gcnt);
	if (lane_id() == 0)
		sb[cnt] = v;
	cnt++;
}

// Append v of every lane where pred holds (called by the whole warp).
__device__ __forceinline__ void buf_putb(uint32_t *sb, uint32_t &cnt, uint32_t *list, uint32_t *gcnt, uint32_t v,
					 bool pred)
{
	uint32_t b = __ballot_sync(FULL, pred);
	if (!b)
		return;
	uint32_t k = __popc(b);
	if (cnt + k > 32)
		buf_flush(sb, cnt, list, gcnt);
	if (pred)
		sb[cnt + __popc(b & ((1u << lane_id()) - 1))] = v;
	__syncwarp();
	cnt += k;
}

__device__ __forceinline__ void wout_flush(struct wout &o)
{
	buf_flush(o.sb_near, o.nb, o.near_list, o.near_cnt);
	buf_flush(o.sb_far, o.fb, o.far_list, o.far_cnt);
	uint32_t m = o.fmin;
	for (int s = 16; s > 0; s >>= 1)
		m = min(m, __shfl_xor_sync(FULL, m, s));
	if (lane_id() == 0 && m != INF)
		atomicMin(o.far_min, m);
	o.fmin = INF;
	uint32_t np = o.np;
	for (int s = 16; s > 0; s >>= 1)
		np += __shfl_xor_sync(FULL, np, s);
	if (lane_id() == 0 && np)
		atomicAdd(o.np_cnt, np);
	o.np = 0;
}

// Warp mode: target t, candidate nd per lane, `pre` = the lane's candidate beat the distance it read.
__device__ __forceinline__ void update_warp(const struct kparams &P, uint32_t *Fn, uint32_t T, struct wout &o,
					    uint32_t t, uint32_t nd, bool pre)
{
	bool better = false;
	if (pre)
		better = nd < atomicMin(&P.dist[(size_t)t * LANES + lane_id()], nd);
	o.np += better && nd < T;
	uint32_t nbits = __ballot_sync(FULL, better && nd < T);
	uint32_t fbits = __ballot_sync(FULL, better && nd >= T);
	if (nbits)
	{
		uint32_t old = 0;
		if (lane_id() == 0)
			old = atomicOr(&Fn[t], nbits);
		old = __shfl_sync(FULL, old, 0);
		if (!old)
			buf_put1(o.sb_near, o.nb, o.near_list, o.near_cnt, t);
	}
	if (fbits)
	{
		if (better && nd >= T)
			o.fmin = min(o.fmin, nd);
		uint32_t old = 0;
		if (lane_id() == 0)
			old = atomicOr(&P.FM[t], fbits);
		old = __shfl_sync(FULL, old, 0);
		if (!old)
			buf_put1(o.sb_far, o.fb, o.far_list, o.far_cnt, t);
	}
}

// Four relaxations at once, in three rounds of independent requests (the atomicMin()s, then the
// atomicOr()s of the masks, then the appends): a round trip to L2 or memory each, not one per
// relaxation and kind. Warp mode: targets t[q] (the same on every lane), this lane's candidates.
__device__ __forceinline__ void update4_warp(const struct kparams &P, uint32_t *Fn, uint32_t T, struct wout &o,
					     const uint32_t t[4], const uint32_t nd[4], const bool pre[4])
{
	const unsigned lane = lane_id();
	bool better[4];
	uint32_t nb[4], fb[4], on[4], of[4];
#pragma unroll
	for (int q = 0; q < 4; q++)
		better[q] = pre[q] && nd[q] < atomicMin(&P.dist[(size_t)t[q] * LANES + lane], nd[q]);
#pragma unroll
	for (int q = 0; q < 4; q++)
	{
		bool near = better[q] && nd[q] < T, far = better[q] && nd[q] >= T;
		o.np += near;
		if (far)
			o.fmin = min(o.fmin, nd[q]);
		nb[q] = __ballot_sync(FULL, near);
		fb[q] = __ballot_sync(FULL, far);
		on[q] = of[q] = 1;
	}
	if (lane == 0)
	{
#pragma unroll
		for (int q = 0; q < 4; q++)
		{
			if (nb[q])
				on[q] = atomicOr(&Fn[t[q]], nb[q]);
			if (fb[q])
				of[q] = atomicOr(&P.FM[t[q]], fb[q]);
		}
	}
#pragma unroll
	for (int q = 0; q < 4; q++)
	{
		if (!__shfl_sync(FULL, on[q], 0))
			buf_put1(o.sb_near, o.nb, o.near_list, o.near_cnt, t[q]);
		if (!__shfl_sync(FULL, of[q], 0))
			buf_put1(o.sb_far, o.fb, o.far_list, o.far_cnt, t[q]);
	}
}

// Thread mode: each lane relaxes its own pairs (t[q], lane l).
__device__ __forceinline__ void update4_thread(const struct kparams &P, uint32_t *Fn, uint32_t T, struct wout &o,
					       const uint32_t t[4], uint32_t l, const uint32_t nd[4], const bool pre[4])
{
	bool better[4], an[4], af[4];
#pragma unroll
	for (int q = 0; q < 4; q++)
		better[q] = pre[q] && nd[q] < atomicMin(&P.dist[(size_t)t[q] * LANES + l], nd[q]);
#pragma unroll
	for (int q = 0; q < 4; q++)
	{
		bool near = better[q] && nd[q] < T, far = better[q] && nd[q] >= T;
		o.np += near;
		an[q] = near && atomicOr(&Fn[t[q]], 1u << l) == 0;
		af[q] = far && atomicOr(&P.FM[t[q]], 1u << l) == 0;
		if (far)
			o.fmin = min(o.fmin, nd[q]);
	}
#pragma unroll
	for (int q = 0; q < 4; q++)
	{
		buf_putb(o.sb_near, o.nb, o.near_list, o.near_cnt, t[q], an[q]);
		buf_putb(o.sb_far, o.fb, o.far_list, o.far_cnt, t[q], af[q]);
	}
}

// Warp mode: relax arcs [b, e) of v for the lanes of mask m.
__device__ void relax_warp(const struct kparams &P, uint32_t *Fn, uint32_t T, struct wout &o, uint32_t v, uint32_t m,
			   uint64_t b, uint64_t e)
{
	const unsigned lane = lane_id();
	bool act = (m >> lane) & 1;
	uint32_t d = act ? ldcg(&P.dist[(size_t)v * LANES + lane]) : INF;
	act = act && d != INF;
	for (uint64_t base = b; base < e; base += 32)
	{
		uint64_t j = base + lane;
		uint32_t c = 0, wt = 0;
		if (j < e)
		{
			c = __ldg(&P.col[j]);
			wt = __ldg(&P.w[j]);
		}
		uint32_t cnt = e - base < 32 ? (uint32_t)(e - base) : 32;
		for (uint32_t k = 0; k < cnt; k += 4)
		{
			uint32_t t[4], nd[4], cur[4];
			// the four targets' rows are read before any atomic: four requests in flight
#pragma unroll
			for (int q = 0; q < 4; q++)
			{
				uint32_t kk = (k + q) & 31;
				t[q] = __shfl_sync(FULL, c, kk);
				uint32_t wq = __shfl_sync(FULL, wt, kk);
				nd[q] = act && k + q < cnt ? sssp_batch_sat(d, wq) : INF;
				cur[q] = nd[q] != INF ? ldcg(&P.dist[(size_t)t[q] * LANES + lane]) : 0;
			}
			bool pre[4];
#pragma unroll
			for (int q = 0; q < 4; q++)
				pre[q] = nd[q] < cur[q];
			update4_warp(P, Fn, T, o, t, nd, pre);
		}
	}
}

// Thread mode: every lane with act relaxes all out-arcs of its own vertex v for its lanes m
// (its arcs [b, b + deg)), four arcs per round. The pair's distance and the arcs are loaded
// together, and the targets are atomicMin()ed without reading them first: on grid-like graphs a
// step is a chain of round trips (list, mask, distance and arcs, atomicMin, atomicOr, append) and
// a third of these relaxations improve anyway.
__device__ void relax_thread(const struct kparams &P, uint32_t *Fn, uint32_t T, struct wout &o, uint32_t v, uint32_t m,
			     uint64_t b, uint32_t deg, bool act)
{
	uint32_t rest = act && deg ? m : 0, l = 0, d = INF, j = 0;
	bool have = false;
	while (__any_sync(FULL, have || rest))
	{
		bool fresh = !have && rest;
		if (fresh)
		{
			l = __ffs(rest) - 1;
			rest &= rest - 1;
			j = 0;
			have = true;
		}
		uint32_t t[4], w4[4], nd[4];
		bool pre[4];
#pragma unroll
		for (int q = 0; q < 4; q++)
		{
			pre[q] = have && j + q < deg;
			t[q] = pre[q] ? __ldg(&P.col[b + j + q]) : 0;
			w4[q] = pre[q] ? __ldg(&P.w[b + j + q]) : 0;
		}
		if (fresh)
			d = ldcg(&P.dist[(size_t)v * LANES + l]);
#pragma unroll
		for (int q = 0; q < 4; q++)
		{
			nd[q] = pre[q] ? sssp_batch_sat(d, w4[q]) : INF;
			pre[q] = pre[q] && nd[q] != INF;
		}
		j += 4;
		if (have && j >= deg)
			have = false;
		update4_thread(P, Fn, T, o, t, l, nd, pre);
	}
}

// ------------------------------------------------------------------ the steps

// PUSH: a warp takes 32 frontier vertices. Sparse ones (<= sparse_popc active lanes) are expanded
// at once, one thread each; dense ones one warp each, by this warp when they are few
// (SSSP_BATCH_INLINE_DENSE), else as records of the chunk queue for PUSHB, like the chunks of C arcs
// of heavy vertices (a warp-aggregated append).
__device__ void step_push(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			  uint32_t W)
{
	const unsigned lane = lane_id();
	uint32_t *Fc = P.F[S.p], *Fn = P.F[S.p ^ 1], *Lc = P.L[S.p];
	const uint32_t C = P.chunk;
	for (uint64_t g = gw; g * 32 < S.n_cur; g += W)
	{
		uint64_t i = g * 32 + lane;
		bool valid = i < S.n_cur;
		uint32_t v = 0, m = 0;
		uint64_t b = 0, dg = 0;
		if (valid)
		{
			v = ldcg(&Lc[i]);
			m = ldcg(&Fc[v]);
			Fc[v] = 0;
			b = __ldg(&P.rowptr[v]);
			dg = __ldg(&P.rowptr[v + 1]) - b;
		}
		bool work = valid && dg > 0 && m != 0;
		bool heavy = work && dg > C;
		bool dense = work && !heavy && (uint32_t)__popc(m) > P.sparse_popc;
		uint32_t dm = __ballot_sync(FULL, dense);
		bool defer = S.defer && (uint32_t)__popc(dm) > SSSP_BATCH_INLINE_DENSE;
		uint32_t need = heavy ? sssp_batch_nchunks(dg, C) : dense && defer ? 1 : 0;
		uint32_t incl = need;
		for (int sh = 1; sh < 32; sh <<= 1)
		{
			uint32_t t = __shfl_up_sync(FULL, incl, sh);
			if (lane >= (unsigned)sh)
				incl += t;
		}
		uint32_t total = __shfl_sync(FULL, incl, 31);
		if (total)
		{
			uint32_t at = 0;
			if (lane == 0)
				at = atomicAdd(&P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_Q)], total);
			at = __shfl_sync(FULL, at, 0) + incl - need;
			for (uint32_t c = 0; c < need; c++)
			{
				P.Qv[at + c] = v;
				P.Qm[at + c] = m;
				P.Qc[at + c] = c;
			}
		}
		while (!defer && dm)
		{
			int jl = __ffs(dm) - 1;
			dm &= dm - 1;
			uint32_t vv = __shfl_sync(FULL, v, jl), mm = __shfl_sync(FULL, m, jl);
			uint64_t bb = __shfl_sync(FULL, b, jl), ee = bb + __shfl_sync(FULL, dg, jl);
			relax_warp(P, Fn, S.T, o, vv, mm, bb, ee);
		}
		bool sparse = work && !heavy && !dense;
		if (__any_sync(FULL, sparse))
			relax_thread(P, Fn, S.T, o, v, m, b, (uint32_t)dg, sparse);
	}
}

// PUSHB: one warp per chunk record: arcs [c*C, (c+1)*C) of v for the lanes of mask m.
__device__ void step_pushb(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			   uint32_t W)
{
	uint32_t *Fn = P.F[S.p ^ 1];
	for (uint32_t r = gw; r < S.n_q; r += W)
	{
		uint32_t v = ldcg(&P.Qv[r]), m = ldcg(&P.Qm[r]), c = ldcg(&P.Qc[r]);
		uint64_t b = __ldg(&P.rowptr[v]) + (uint64_t)c * P.chunk, e = __ldg(&P.rowptr[v + 1]);
		if (b + P.chunk < e)
			e = b + P.chunk;
		relax_warp(P, Fn, S.T, o, v, m, b, e);
	}
}

// The next (up to) four in-neighbours of the set `has` (warp-uniform): their rows' lanes that are
// in the frontier, read together (four requests in flight), as candidates d + w; kq: the vertex of
// the group each belongs to (vk of its lane).
__device__ __forceinline__ void pull_gather4(const struct kparams &P, uint32_t &has, uint32_t u, uint32_t mk,
					     uint32_t wt, uint32_t vk, uint32_t c[4], uint32_t kq[4], bool ok[4])
{
	const unsigned lane = lane_id();
	uint32_t d[4], w4[4];
#pragma unroll
	for (int q = 0; q < 4; q++)
	{
		ok[q] = has != 0;
		int j = ok[q] ? __ffs(has) - 1 : 0;
		if (ok[q])
			has &= has - 1;
		uint32_t uq = __shfl_sync(FULL, u, j), mq = __shfl_sync(FULL, mk, j);
		w4[q] = __shfl_sync(FULL, wt, j);
		kq[q] = __shfl_sync(FULL, vk, j);
		d[q] = ok[q] && (mq >> lane) & 1 ? ldcg(&P.dist[(size_t)uq * LANES + lane]) : INF;
	}
#pragma unroll
	for (int q = 0; q < 4; q++)
		c[q] = sssp_batch_sat(d[q], w4[q]);
}

// Gather over in-arcs [ib, ie) of v (a light vertex of a group with a heavy one, or an in-chunk
// of a heavy vertex) and lower v's row.
__device__ void pull_one(const struct kparams &P, const uint32_t *Fc, uint32_t *Fn, uint32_t T, struct wout &o,
			 uint32_t v, uint64_t ib, uint64_t ie)
{
	const unsigned lane = lane_id();
	uint32_t cand = INF;
	for (uint64_t base = ib; base < ie; base += 32)
	{
		uint64_t e = base + lane;
		uint32_t u = 0, wt = 0, mk = 0;
		if (e < ie)
		{
			u = __ldg(&P.in_col[e]);
			wt = __ldg(&P.in_w[e]);
			mk = ldcg(&Fc[u]);
		}
		uint32_t has = __ballot_sync(FULL, mk != 0);
		while (has)
		{
			uint32_t c[4], kq[4];
			bool ok[4];
			pull_gather4(P, has, u, mk, wt, 0, c, kq, ok);
			cand = min(cand, min(min(c[0], c[1]), min(c[2], c[3])));
		}
	}
	bool pre = cand != INF && cand < ldcg(&P.dist[(size_t)v * LANES + lane]);
	update_warp(P, Fn, T, o, v, cand, pre);
}

#define PULL_GROUP 4 // consecutive vertices per warp item of a PULL step (update4_warp lowers them)
static_assert(PULL_GROUP == 4, "step_pull flushes a group with update4_warp");

// PULL: a warp item is PULL_GROUP consecutive vertices, whose in-arcs are one contiguous range:
// the lanes load up to 32 of them and their tails' masks at once, whichever vertex they belong
// to; the warp reads the rows of the tails in the frontier four at a time and keeps a running
// minimum per vertex of the group; at the end it lowers the group's rows together (update4_warp).
// A group with a heavy vertex (in-degree > C: done by its in-chunks, the items after the groups)
// takes its light vertices one at a time.
__device__ void step_pull(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			  uint32_t W)
{
	const unsigned lane = lane_id();
	const uint32_t *Fc = P.F[S.p];
	uint32_t *Fn = P.F[S.p ^ 1];
	const uint64_t ngroups = ((uint64_t)P.n + PULL_GROUP - 1) / PULL_GROUP;
	const uint64_t total = ngroups + S.n_hp;
	for (uint64_t it = gw; it < total; it += W)
	{
		if (it >= ngroups)
		{
			uint32_t r = (uint32_t)(it - ngroups);
			uint32_t v = ldcg(&P.HPv[r]);
			uint64_t ib = __ldg(&P.in_rowptr[v]) + (uint64_t)ldcg(&P.HPc[r]) * P.chunk;
			uint64_t ie = __ldg(&P.in_rowptr[v + 1]);
			if (ib + P.chunk < ie)
				ie = ib + P.chunk;
			pull_one(P, Fc, Fn, S.T, o, v, ib, ie);
			continue;
		}
		uint32_t v0 = (uint32_t)(it * PULL_GROUP);
		uint32_t cnt = P.n - v0 < PULL_GROUP ? P.n - v0 : PULL_GROUP;
		// lane k <= cnt holds r_k = in_rowptr[v0 + k]
		uint64_t rk = lane <= cnt ? __ldg(&P.in_rowptr[v0 + lane]) : 0;
		uint64_t rk1 = __shfl_down_sync(FULL, rk, 1);
		bool heavy = lane < cnt && rk1 - rk > P.chunk;
		if (__ballot_sync(FULL, heavy))
		{
			for (uint32_t k = 0; k < cnt; k++)
			{
				uint64_t a = __shfl_sync(FULL, rk, k), b = __shfl_sync(FULL, rk, k + 1);
				if (b > a && b - a <= P.chunk)
					pull_one(P, Fc, Fn, S.T, o, v0 + k, a, b);
			}
			continue;
		}
		uint64_t A = __shfl_sync(FULL, rk, 0), B = __shfl_sync(FULL, rk, cnt);
		uint32_t cand[PULL_GROUP];
#pragma unroll
		for (int i = 0; i < PULL_GROUP; i++)
			cand[i] = INF;
		for (uint64_t base = A; base < B; base += 32)
		{
			uint64_t e = base + lane;
			uint32_t u = 0, wt = 0, mk = 0, vk = 0;
			if (e < B)
			{
				u = __ldg(&P.in_col[e]);
				wt = __ldg(&P.in_w[e]);
				mk = ldcg(&Fc[u]);
			}
			for (uint32_t k = 1; k < cnt; k++) // the vertex of arc e: boundaries r_1..r_{cnt-1} at or below e
				vk += __shfl_sync(FULL, rk, k) <= e;
			uint32_t has = __ballot_sync(FULL, mk != 0);
			while (has)
			{
				uint32_t c[4], kq[4];
				bool ok[4];
				pull_gather4(P, has, u, mk, wt, vk, c, kq, ok);
#pragma unroll
				for (int q = 0; q < 4; q++)
#pragma unroll
					for (int i = 0; i < PULL_GROUP; i++)
						if (ok[q] && kq[q] == (uint32_t)i)
							cand[i] = min(cand[i], c[q]);
			}
		}
		uint32_t t[PULL_GROUP];
		bool pre[PULL_GROUP];
#pragma unroll
		for (int i = 0; i < PULL_GROUP; i++)
		{
			t[i] = v0 + i;
			pre[i] = cand[i] != INF && cand[i] < ldcg(&P.dist[(size_t)t[i] * LANES + lane]);
		}
		update4_warp(P, Fn, S.T, o, t, cand, pre);
	}
}

__device__ void step_clear(const struct kparams &P, const struct sssp_batch_ctl &S, uint32_t gw, uint32_t W)
{
	uint32_t *Fc = P.F[S.p];
	const uint32_t *Lc = P.L[S.p];
	for (uint64_t i = (uint64_t)gw * 32 + lane_id(); i < S.n_cur; i += (uint64_t)W * 32)
		Fc[ldcg(&Lc[i])] = 0;
}

// RAISE: o.far_* point at the other far list (the one this step fills).
__device__ void step_raise(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			   uint32_t W)
{
	const unsigned lane = lane_id();
	const uint32_t *FLc = P.FL[S.fr];
	uint32_t *Fn = P.F[S.p ^ 1];
	for (uint32_t i = gw; i < S.n_far; i += W)
	{
		uint32_t v = ldcg(&FLc[i]);
		uint32_t bits = ldcg(&P.FM[v]);
		bool a = (bits >> lane) & 1;
		uint32_t d = a ? ldcg(&P.dist[(size_t)v * LANES + lane]) : INF;
		int cls = a ? sssp_batch_raise_class(d, S.T_old, S.T) : SSSP_BATCH_DROP;
		uint32_t kb = __ballot_sync(FULL, cls == SSSP_BATCH_KEEP), mb = __ballot_sync(FULL, cls == SSSP_BATCH_MOVE);
		o.np += cls == SSSP_BATCH_MOVE;
		if (lane == 0)
			P.FM[v] = kb; // this warp is v's only writer in a RAISE step
		if (kb)
		{
			if (cls == SSSP_BATCH_KEEP)
				o.fmin = min(o.fmin, d);
			buf_put1(o.sb_far, o.fb, o.far_list, o.far_cnt, v);
		}
		if (mb)
		{
			if (lane == 0)
				Fn[v] = mb; // zero before: F[p^1] is clear, v is once in the far list
			buf_put1(o.sb_near, o.nb, o.near_list, o.near_cnt, v);
		}
	}
}

// Prologue: block 0 seeds the sources into F[0]/L[0]; every thread lists in-chunks.
__device__ void step_prologue(const struct kparams &P)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
	{
		uint32_t c = 0;
		for (uint32_t i = 0; i < P.nsrc; i++)
		{
			uint32_t s = P.src[i];
			P.dist[(size_t)s * LANES + i] = 0;
			uint32_t old = P.F[0][s];
			P.F[0][s] = old | (1u << i);
			if (!old)
				P.L[0][c++] = s;
		}
		P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_L0)] = c;
	}
	if (!P.cfg.pull_div)
		return;
	uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, nth = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t v = tid; v < P.n; v += nth)
	{
		uint64_t deg = __ldg(&P.in_rowptr[v + 1]) - __ldg(&P.in_rowptr[v]);
		if (deg > P.chunk)
		{
			uint32_t k = sssp_batch_nchunks(deg, P.chunk);
			uint32_t at = atomicAdd(&P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_HP)], k);
			for (uint32_t c = 0; c < k; c++)
			{
				P.HPv[at + c] = (uint32_t)v;
				P.HPc[at + c] = c;
			}
		}
	}
}

// The control step, in the last block to reach a barrier while every other block waits: the
// control block and the control counters are loaded at once (independent loads), decided on
// (batch_gpu_logic.h), and stored back. The abort word is not written back (a block whose wait
// timed out owns it).
__device__ void control_step(const struct kparams &P)
{
	volatile struct sssp_batch_ctl *vc = &P.dev->ctl;
	volatile uint32_t *vcnt = P.cnt;
	struct sssp_batch_ctl c;
	uint32_t k[SSSP_BATCH_NCTL];
	c.mode = vc->mode;
	c.p = vc->p;
	c.fr = vc->fr;
	c.T = vc->T;
	c.T_old = vc->T_old;
	c.n_cur = vc->n_cur;
	c.n_q = vc->n_q;
	c.n_far = vc->n_far;
	c.n_hp = vc->n_hp;
	c.abort = 0;
	c.defer = vc->defer;
	c.steps = vc->steps;
	c.push = vc->push;
	c.pushb = vc->pushb;
	c.pull = vc->pull;
	c.clear = vc->clear;
	c.raise = vc->raise;
#pragma unroll
	for (int i = 0; i < SSSP_BATCH_NCTL; i++)
		k[i] = vcnt[SSSP_BATCH_CNT(i)];
	sssp_batch_control(&c, k, &P.cfg);
	vc->mode = c.mode;
	vc->p = c.p;
	vc->fr = c.fr;
	vc->T = c.T;
	vc->T_old = c.T_old;
	vc->n_cur = c.n_cur;
	vc->n_q = c.n_q;
	vc->n_far = c.n_far;
	vc->n_hp = c.n_hp;
	vc->defer = c.defer;
	vc->steps = c.steps;
	vc->push = c.push;
	vc->pushb = c.pushb;
	vc->pull = c.pull;
	vc->clear = c.clear;
	vc->raise = c.raise;
#pragma unroll
	for (int i = 0; i < SSSP_BATCH_NCTL; i++)
		vcnt[SSSP_BATCH_CNT(i)] = k[i];
}

// Grid barrier with the control step in the last block to arrive. Blocks arrive in groups
// (block % SSSP_BATCH_BAR_GROUPS: a few dozen atomics on each counter instead of hundreds on one),
// and wait on their group's copy of the generation word. Blocks are co-resident (a cooperative
// launch); a wait longer than the timeout sets ctl.abort instead of hanging. Returns the next
// step's control block in S (shared memory).
__device__ void grid_barrier(const struct kparams &P, uint32_t step, struct sssp_batch_ctl *S)
{
	__syncthreads();
	if (threadIdx.x == 0)
	{
		volatile struct sssp_batch_ctl *c = &P.dev->ctl;
		const uint32_t G = SSSP_BATCH_BAR_GROUPS, grp = blockIdx.x % G;
		const uint32_t ngroups = gridDim.x < G ? gridDim.x : G, gsize = (gridDim.x - grp + G - 1) / G;
		uint32_t *sub = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_BARSUB + grp)];
		uint32_t *top = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_BARTOP)];
		uint32_t *gen = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_GEN + grp)];
		__threadfence();
		bool last = false;
		if (atomicAdd(sub, 1u) == gsize - 1)
		{
			*(volatile uint32_t *)sub = 0; // the whole group is here
			__threadfence();
			last = atomicAdd(top, 1u) == ngroups - 1;
		}
		if (last)
		{
			*(volatile uint32_t *)top = 0;
			__threadfence();
			control_step(P);
			__threadfence();
			for (uint32_t g = 0; g < ngroups; g++)
				*(volatile uint32_t *)&P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_GEN + g)] = step + 1;
		}
		else
		{
			unsigned long long t0 = global_ns();
			unsigned ns = 32;
			while ((int32_t)(rd_volatile(gen) - (step + 1)) < 0)
			{
				__nanosleep(ns);
				if (ns < 256)
					ns *= 2;
				if (global_ns() - t0 > P.timeout_ns)
				{
					c->abort = 1;
					break;
				}
			}
		}
		__threadfence();
		S->mode = c->mode;
		S->p = c->p;
		S->fr = c->fr;
		S->T = c->T;
		S->T_old = c->T_old;
		S->n_cur = c->n_cur;
		S->n_q = c->n_q;
		S->n_far = c->n_far;
		S->n_hp = c->n_hp;
		S->abort = c->abort;
		S->defer = c->defer;
	}
	__syncthreads();
}

// Dynamic shared memory: 2 x 32 words per warp (the append buffers), BATCH_LOOP_SHMEM(block).
#define BATCH_LOOP_SHMEM(threads) ((size_t)(threads) / 32 * 2 * 32 * sizeof(uint32_t))

__device__ __forceinline__ void batch_loop_body(const struct kparams &P)
{
	extern __shared__ uint32_t sbuf[];
	__shared__ struct sssp_batch_ctl S;
	const uint32_t wib = threadIdx.x >> 5;
	const uint32_t gw = blockIdx.x * (blockDim.x >> 5) + wib, W = gridDim.x * (blockDim.x >> 5);
	step_prologue(P);
	for (uint32_t step = 0;; step++)
	{
		grid_barrier(P, step, &S);
		if (S.abort || S.mode == SSSP_BATCH_DONE)
			break;
		struct wout o;
		o.near_list = P.L[S.p ^ 1];
		o.near_cnt = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_L0 + (S.p ^ 1))];
		uint32_t fr = S.mode == SSSP_BATCH_RAISE ? S.fr ^ 1 : S.fr;
		o.far_list = P.FL[fr];
		o.far_cnt = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_FL0 + fr)];
		o.far_min = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_FMIN0 + fr)];
		o.sb_near = &sbuf[wib * 64];
		o.sb_far = &sbuf[wib * 64 + 32];
		o.nb = o.fb = 0;
		o.fmin = INF;
		o.np = 0;
		o.np_cnt = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_NP)];
		switch (S.mode)
		{
		case SSSP_BATCH_PUSH:
			step_push(P, S, o, gw, W);
			break;
		case SSSP_BATCH_PUSHB:
			step_pushb(P, S, o, gw, W);
			break;
		case SSSP_BATCH_PULL:
			step_pull(P, S, o, gw, W);
			break;
		case SSSP_BATCH_CLEAR:
			step_clear(P, S, gw, W);
			break;
		case SSSP_BATCH_RAISE:
			step_raise(P, S, o, gw, W);
			break;
		default:
			break;
		}
		wout_flush(o);
	}
}

// The device loop as built: up to 1024 threads per block at 64 registers (the register file
// limits a 256-thread block to 4 per SM). batch_loop_occ (TUCCOMPI_SSSP_BATCH_OCC=5): at most
// 256 threads and 48 registers, so 5 blocks per SM (40 warps instead of 32) at the price of
// spilling a few registers to L1: more warps hide more memory latency, if the spills cost less.
__global__ void __launch_bounds__(1024) batch_loop(const struct kparams P)
{
	batch_loop_body(P);
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define OCC_MIN_BLOCKS 4 // Turing: 1024 threads per SM
#else
#define OCC_MIN_BLOCKS 5
#endif
__global__ void __launch_bounds__(256, OCC_MIN_BLOCKS) batch_loop_occ(const struct kparams P)
{
	batch_loop_body(P);
}

// ------------------------------------------------------------------ plain kernels

__global__ void batch_init(uint4 *dist4, uint64_t n4, uint32_t *F0, uint32_t *F1, uint32_t *FM, uint32_t n,
			   struct batch_dev *dev, uint32_t *cnt, uint32_t T0)
{
	uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, nth = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t i = tid; i < n4; i += nth)
		dist4[i] = make_uint4(INF, INF, INF, INF);
	for (uint64_t i = tid; i < n; i += nth)
	{
		F0[i] = 0;
		F1[i] = 0;
		FM[i] = 0;
	}
	for (uint64_t i = tid; i < SSSP_BATCH_CNT(SSSP_BATCH_NCOUNTERS); i += nth)
	{
		uint32_t k = (uint32_t)i / SSSP_BATCH_CNT(1);
		cnt[i] = k == SSSP_BATCH_C_FMIN0 || k == SSSP_BATCH_C_FMIN1 ? INF : 0;
	}
	for (uint64_t i = tid; i < LANES; i += nth)
	{
		dev->sum[i] = 0;
		dev->ecc[i] = 0;
		dev->reached[i] = 0;
	}
	if (tid == 0)
	{
		memset(&dev->ctl, 0, sizeof(dev->ctl));
		dev->ctl.mode = SSSP_BATCH_PROLOGUE;
		dev->ctl.T = T0;
		dev->ctl.T_old = T0;
	}
}

// One warp per vertex; per lane: sum, max and count of the finite distances.
__global__ void batch_summary(const uint32_t *__restrict__ dist, uint32_t n, uint32_t nsrc, struct batch_dev *dev)
{
	__shared__ unsigned long long ssum[MAX_WARPS][32];
	__shared__ uint32_t smax[MAX_WARPS][32], scnt[MAX_WARPS][32];
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, nw = blockDim.x >> 5;
	unsigned long long s = 0;
	uint32_t mx = 0, c = 0;
	for (uint64_t v = (uint64_t)blockIdx.x * nw + wib; v < n; v += (uint64_t)gridDim.x * nw)
	{
		uint32_t d = dist[v * LANES + lane];
		if (d != INF)
		{
			s += d;
			mx = max(mx, d);
			c++;
		}
	}
	ssum[wib][lane] = s;
	smax[wib][lane] = mx;
	scnt[wib][lane] = c;
	__syncthreads();
	if (wib == 0)
	{
		for (unsigned k = 1; k < nw; k++)
		{
			s += ssum[k][lane];
			mx = max(mx, smax[k][lane]);
			c += scnt[k][lane];
		}
		if (lane < nsrc && c)
		{
			atomicAdd(&dev->sum[lane], s);
			atomicMax(&dev->ecc[lane], mx);
			atomicAdd(&dev->reached[lane], c);
		}
	}
}

// Tiles of 32 vertices x 32 lanes, transposed through shared memory into stage[lane][v].
__global__ void batch_rows(const uint32_t *__restrict__ dist, uint32_t n, uint32_t nsrc, uint32_t *stage)
{
	__shared__ uint32_t tile[32][33];
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, nw = blockDim.x >> 5;
	for (uint64_t base = (uint64_t)blockIdx.x * 32; base < n; base += (uint64_t)gridDim.x * 32)
	{
		for (unsigned r = wib; r < 32; r += nw)
			tile[r][lane] = base + r < n ? dist[(base + r) * LANES + lane] : INF;
		__syncthreads();
		for (unsigned l = wib; l < nsrc; l += nw)
			if (base + lane < n)
				stage[(size_t)l * n + base + lane] = tile[lane][l];
		__syncthreads();
	}
}

// ------------------------------------------------------------------ host

static thread_local struct sssp_batch_stats last_stats;
static thread_local int have_last_stats;

extern "C" int sssp_batch_gpu_last_stats(struct sssp_batch_stats *out)
{
	if (!have_last_stats)
		return -ENOENT;
	*out = last_stats;
	return 0;
}

static unsigned long env_ulong(const char *name, unsigned long dflt)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return dflt;
	char *end;
	unsigned long v = strtoul(s, &end, 10);
	return *end ? dflt : v;
}

#define FAIL(code, ...)                                           \
	do                                                        \
	{                                                         \
		if (err && errlen)                                \
			snprintf(err, errlen, __VA_ARGS__);       \
		return (code);                                    \
	} while (0)

// A CUDA call; on error, wait for what this call already queued (the caller may free `work`).
#define CK(call)                                                                                              \
	do                                                                                                    \
	{                                                                                                     \
		cudaError_t e_ = (call);                                                                      \
		if (e_ != cudaSuccess)                                                                        \
		{                                                                                             \
			if (launched)                                                                         \
				cudaStreamSynchronize(s);                                                     \
			FAIL(-EIO, "sssp_batch_gpu_run: %s: %s", #call, cudaGetErrorString(e_));              \
		}                                                                                             \
	} while (0)

static int geometry(struct tuccompi_kernel *k, const void *func, uint64_t nx, size_t shmem, unsigned *bx, char *err,
		    size_t errlen)
{
	struct tuccompi_geometry g;
	if (tuccompi_gpu_geometry(k, func, nx ? nx : 1, 1, shmem, &g) < 0)
		FAIL(-EIO, "sssp_batch_gpu_run: tuccompi_gpu_geometry(%s): %s", k->kc.name, tuccompi_last_error());
	if (g.block_x < 32 || g.block_x % 32 || g.block_x > 1024)
		FAIL(-EIO, "sssp_batch_gpu_run: the tuner gave %u threads per block for %s; need a multiple of 32 up to 1024",
		     g.block_x, k->kc.name);
	*bx = g.block_x;
	return 0;
}

static unsigned grid_for(uint64_t threads, unsigned bx, unsigned cap)
{
	uint64_t g = (threads + bx - 1) / bx;
	if (g < 1)
		g = 1;
	return g > cap ? cap : (unsigned)g;
}

extern "C" int sssp_batch_gpu_run(const struct sssp_batch_dgraph *g, const uint32_t *src, unsigned nsrc, void *work,
				  const struct sssp_batch_params *p, void *stream, struct sssp_summary *out,
				  uint32_t *rows, char *err, size_t errlen)
{
	int launched = 0;
	cudaStream_t s = (cudaStream_t)stream;
	if (!g || !src || !work || !out)
		FAIL(-EINVAL, "sssp_batch_gpu_run: NULL graph, sources, workspace or output");
	if (nsrc < 1 || nsrc > LANES)
		FAIL(-EINVAL, "sssp_batch_gpu_run: %u sources; a batch takes 1 to %d", nsrc, LANES);
	if (!g->n || !g->rowptr || !g->in_rowptr || (g->m && (!g->col || !g->w || !g->in_col || !g->in_w)))
		FAIL(-EINVAL, "sssp_batch_gpu_run: graph without vertices or without its arrays (out- and in-arcs)");
	for (unsigned i = 0; i < nsrc; i++)
		if (src[i] >= g->n)
			FAIL(-EINVAL, "sssp_batch_gpu_run: source %u (index %u) is not a vertex (n = %u)", src[i], i, g->n);

	struct kparams P;
	memset(&P, 0, sizeof(P));
	P.n = g->n;
	P.nsrc = nsrc;
	P.chunk = sssp_batch_chunk(g->n, g->m, (uint32_t)env_ulong("TUCCOMPI_SSSP_BATCH_CHUNK", SSSP_BATCH_CHUNK_MIN));
	P.sparse_popc = (uint32_t)env_ulong("TUCCOMPI_SSSP_BATCH_SPARSE", SSSP_BATCH_SPARSE_POPC);
	P.cfg.n = g->n;
	P.cfg.delta = p ? p->delta : 0;
	unsigned long pd = env_ulong("TUCCOMPI_SSSP_BATCH_PULL", SSSP_BATCH_PULL_DIV);
	P.cfg.pull_div = pd > 0xffffffffUL ? 0xffffffffu : (uint32_t)pd;
	P.cfg.pull_density = (uint32_t)env_ulong("TUCCOMPI_SSSP_BATCH_PULL_DENSITY", SSSP_BATCH_PULL_DENSITY);
	P.timeout_ns = (unsigned long long)env_ulong("TUCCOMPI_SSSP_BATCH_TIMEOUT", 60) * 1000000000ull;
	P.rowptr = g->rowptr;
	P.col = g->col;
	P.w = g->w;
	P.in_rowptr = g->in_rowptr;
	P.in_col = g->in_col;
	P.in_w = g->in_w;
	for (unsigned i = 0; i < nsrc; i++)
		P.src[i] = src[i];

	struct layout l;
	layout_of(g->n, rows != NULL, &l);
	char *base = (char *)(((uintptr_t)work + 255) & ~(uintptr_t)255);
	P.dist = (uint32_t *)(base + l.dist);
	P.F[0] = (uint32_t *)(base + l.F0);
	P.F[1] = (uint32_t *)(base + l.F1);
	P.FM = (uint32_t *)(base + l.FM);
	P.L[0] = (uint32_t *)(base + l.L0);
	P.L[1] = (uint32_t *)(base + l.L1);
	P.FL[0] = (uint32_t *)(base + l.FL0);
	P.FL[1] = (uint32_t *)(base + l.FL1);
	P.Qv = (uint32_t *)(base + l.Qv);
	P.Qm = (uint32_t *)(base + l.Qm);
	P.Qc = (uint32_t *)(base + l.Qc);
	P.HPv = (uint32_t *)(base + l.HPv);
	P.HPc = (uint32_t *)(base + l.HPc);
	P.dev = (struct batch_dev *)(base + l.dev);
	P.cnt = (uint32_t *)(base + l.cnt);
	uint32_t *stage = rows ? (uint32_t *)(base + l.stage) : NULL;

	int dev, sms = 0, coop = 0;
	CK(cudaGetDevice(&dev));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	CK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
	if (!coop)
		FAIL(-ENODEV, "sssp_batch_gpu_run: device %d cannot launch cooperative kernels", dev);

	// Block sizes from the tuner; the device loop's grid from the occupancy of that block size.
	int occ = env_ulong("TUCCOMPI_SSSP_BATCH_OCC", 0) == 5;
	const void *loop_fn = occ ? (const void *)batch_loop_occ : (const void *)batch_loop;
	unsigned bx_init, bx_loop, bx_sum, bx_rows = 0;
	int r;
	if ((r = geometry(TUCCOMPI_KERNEL(batch_init), (const void *)batch_init, (uint64_t)g->n * 8, 0, &bx_init, err,
			  errlen)) < 0 ||
	    (r = geometry(occ ? TUCCOMPI_KERNEL(batch_loop_occ) : TUCCOMPI_KERNEL(batch_loop), loop_fn, g->n,
			  BATCH_LOOP_SHMEM(256), &bx_loop, err, errlen)) < 0 ||
	    (r = geometry(TUCCOMPI_KERNEL(batch_summary), (const void *)batch_summary, (uint64_t)g->n * 32, 0, &bx_sum,
			  err, errlen)) < 0 ||
	    (rows && (r = geometry(TUCCOMPI_KERNEL(batch_rows), (const void *)batch_rows, g->n, 0, &bx_rows, err,
				   errlen)) < 0))
		return r;
	int bps = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, loop_fn, (int)bx_loop, BATCH_LOOP_SHMEM(bx_loop)));
	if (bps < 1)
		FAIL(-EIO, "sssp_batch_gpu_run: batch_loop cannot run %u threads per block on device %d", bx_loop, dev);
	unsigned share = p && p->share > 1 ? p->share : 1;
	uint64_t grid = (uint64_t)bps * (unsigned)sms / share;
	// no more warps than frontier vertices can ever need (small graphs: a cheaper barrier)
	uint64_t useful = ((uint64_t)g->n * 32 + bx_loop - 1) / bx_loop;
	if (grid > useful)
		grid = useful;
	if (grid < 1)
		grid = 1;

	unsigned cap = (unsigned)sms * 32;
	uint32_t T0 = P.cfg.delta ? P.cfg.delta : INF;
	launched = 1;
	batch_init<<<grid_for((uint64_t)g->n * 8, bx_init, cap), bx_init, 0, s>>>(
		(uint4 *)P.dist, (uint64_t)g->n * 8, P.F[0], P.F[1], P.FM, g->n, P.dev, P.cnt, T0);
	CK(cudaGetLastError());
	void *args[] = { &P };
	CK(cudaLaunchCooperativeKernel(loop_fn, dim3((unsigned)grid), dim3(bx_loop), args, BATCH_LOOP_SHMEM(bx_loop), s));
	batch_summary<<<grid_for((uint64_t)g->n * 32, bx_sum, cap), bx_sum, 0, s>>>(P.dist, g->n, nsrc, P.dev);
	CK(cudaGetLastError());
	if (rows)
	{
		batch_rows<<<grid_for(((uint64_t)g->n + 31) / 32 * bx_rows, bx_rows, cap), bx_rows, 0, s>>>(P.dist, g->n,
													 nsrc, stage);
		CK(cudaGetLastError());
		CK(cudaMemcpyAsync(rows, stage, (size_t)nsrc * g->n * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
	}
	struct batch_dev res;
	CK(cudaMemcpyAsync(&res, P.dev, sizeof(res), cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	launched = 0;

	last_stats.steps = res.ctl.steps;
	last_stats.push = res.ctl.push;
	last_stats.pushb = res.ctl.pushb;
	last_stats.pull = res.ctl.pull;
	last_stats.clear = res.ctl.clear;
	last_stats.raise = res.ctl.raise;
	last_stats.grid = (uint32_t)grid;
	last_stats.block = bx_loop;
	last_stats.chunk = P.chunk;
	last_stats.delta = P.cfg.delta;
	last_stats.pull_div = P.cfg.pull_div;
	last_stats.pull_density = P.cfg.pull_density;
	last_stats.sparse_popc = P.sparse_popc;
	last_stats.occ = occ ? 5 : 0;
	have_last_stats = 1;
	if (res.ctl.abort || res.ctl.mode != SSSP_BATCH_DONE)
		FAIL(-ETIMEDOUT,
		     "sssp_batch_gpu_run: the device loop's grid barrier waited more than %lu s (%u blocks of %u threads, "
		     "share %u): were other kernels holding the GPU? raise share or TUCCOMPI_SSSP_BATCH_TIMEOUT",
		     (unsigned long)(P.timeout_ns / 1000000000ull), (unsigned)grid, bx_loop, share);
	for (unsigned i = 0; i < nsrc; i++)
	{
		out[i].source = src[i];
		out[i].sum = res.sum[i];
		out[i].ecc = res.ecc[i];
		out[i].reached = res.reached[i];
		out[i].phases = res.ctl.steps;
		out[i].overflow = res.ecc[i] >= SSSP_DIST_LIMIT;
	}
	return 0;
}
