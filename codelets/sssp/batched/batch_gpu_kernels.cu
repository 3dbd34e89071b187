// Batched SSSP on a GPU, the device code: 32 or 64 shortest-path trees per traversal, one or two
// sources per warp lane. The host driver is batch_gpu.cu; the relaxations batch_gpu_relax.cuh.
//
// Algorithm: label-correcting frontier relaxation (Bellman-Ford with a work list), optionally
// with one near/far threshold for all sources of a traversal (near-far / delta-stepping: Davidson,
// Baxter, Garland, Owens, "Work-efficient parallel GPU methods for single-source shortest paths",
// IPDPS 2014; Meyer, Sanders, "Delta-stepping: a parallelizable shortest path algorithm",
// J. Algorithms 49(1), 2003), direction-optimising push/pull (Beamer, Asanovic, Patterson,
// "Direction-optimizing breadth-first search", SC 2012) and many sources per pass (the
// multi-source BFS idea of Then et al., "The more the merrier: efficient multi-source graph
// traversal", VLDB 2014). Distances are exact: every improvement of a (vertex, source) pair is
// expanded later at a distance no larger, until no pair improves.
//
// Lanes: a traversal serves 32 K sources, K = 1 or 2 (the template parameter of the device code;
// sssp_batch_knobs::lanes picks, batch_gpu.h). Source i is slot i of a vertex's distance row
// dist[v][32 K] and bit i of its masks (32- or 64-bit words); lane l of a warp holds slots l and
// l + 32, so a warp reads or lowers a row with K coalesced 128-byte requests, and the ballot of the
// slots l + 32h is bits 32h..32h+31 of a mask. Each step of the device loop is a few chains of
// dependent round trips to memory per warp item (list entry -> mask -> arcs -> rows -> atomics), and
// the device is mostly idle waiting on them (a small share of DRAM bandwidth: docs/apsp.md); with K = 2 the
// same chains, arc reads, mask words and grid barriers serve twice the sources.
//
// Data (the workspace, batch_gpu.h; laid out for 64 lanes whatever K): dist[v][32 K]; frontier masks
// F[2][v] (pairs improved and not yet expanded, double-buffered: a step reads F[p] and writes F[p^1])
// with their vertex lists L[2] (a vertex is appended when its mask goes from 0 to non-zero); the far
// pile FM[v] (pairs at or above the threshold T) with lists FL[2]; a chunk queue Q (high-degree
// vertices of a PUSH step, in chunks of C arcs) and the in-chunks HP of high in-degree vertices for
// PULL steps.
//
// One cooperative kernel runs the whole traversal; steps are separated by a grid barrier whose
// last arriving block runs the control step (batch_gpu_logic.h: which step comes next, counter
// resets) before it releases the others, so the host never round-trips per iteration. Steps:
//   PUSH   warps take 32 frontier vertices at a time: vertices with <= SPARSE active lanes are
//          expanded one thread per vertex (grid-like graphs, where the sources' waves rarely
//          meet), the others one warp per vertex (lanes = sources, coalesced rows per arc): by
//          the same warp when its group holds few of them or the frontier is sparse on average,
//          else as records of the chunk queue for PUSHB; vertices of degree > C go to the queue
//          in chunks of C arcs. A relaxation reads the target's distance, atomicMin()s it only
//          when smaller, and marks the improved lanes in F[p^1] (below T) or FM (at or above T)
//          with one atomicOr per warp or thread; four arcs at a time, each kind of request issued
//          for all four before any answer is needed; a vertex's row and its first 32 arcs are
//          requested together, and the next 32 arcs before the current ones are used.
//   PUSHB  the records, one warp each (dense vertices of random graphs; R-MAT hubs' 1e5 arcs
//          spread over the whole grid).
//   PULL   when the frontier is large (more than n/PULL vertices) and dense (PULL_DENSITY new
//          lanes per vertex): warps take 3 consecutive vertices, whose in-arcs are contiguous (the
//          warp's next group's in_rowptr is requested before this one is worked on); the tails'
//          masks 32 at a time, then the rows of the tails in the frontier 8 or 4 at a time (all
//          requests out before the first answer is used), then only the slots of the group's own
//          rows that got a candidate (holding nothing more in registers across the gathers: the
//          loop's registers bound it). A warp is the only writer of its group's rows and next-frontier masks in a pull
//          (F[p^1] starts clear), so it stores them without atomics or read-back; the in-chunks of a
//          high in-degree vertex, separate items that run concurrently, use atomicMin/atomicOr.
//   CLEAR  zeroes the masks a PULL read (a PUSH zeroes them as it goes).
//   RAISE  no near pair left: T = (smallest far distance) + delta; far pairs below the new T go to
//          the frontier, those at or above it stay, those below the old T are spent.
// Lists are appended through a 32-entry buffer per warp in shared memory (one atomicAdd per 32
// entries). Mutable state is read with ld.global.cg (L2), so no stale L1 line survives a barrier.
//
// Plain kernels: init (distances to INF, masks to 0, control), summary (per lane: 64-bit sum, max,
// count), rows (transpose into per-source rows for the host). Block sizes come from the tuner
#include "batched/batch_gpu_kernels.h"

#define INF SSSP_BATCH_INF
#define FULL 0xffffffffu

// A vertex's mask: bit i = source i of the traversal.
template <int K>
struct lanes;
template <>
struct lanes<1>
{
	typedef uint32_t mask;
};
template <>
struct lanes<2>
{
	typedef unsigned long long mask;
};
#define MASK(K) typename lanes<K>::mask

#include "batched/batch_gpu_relax.cuh"

// ------------------------------------------------------------------ the steps

// PUSH: a warp takes 32 frontier vertices. Sparse ones (<= sparse_popc active lanes) are expanded
// at once, one thread each; dense ones one warp each, by this warp when they are few
// (SSSP_BATCH_INLINE_DENSE), else as records of the chunk queue for PUSHB, like the chunks of C arcs
// of heavy vertices (a warp-aggregated append).
template <int K>
__device__ void step_push(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			  uint32_t W)
{
	typedef MASK(K) mask_t;
	const unsigned lane = lane_id();
	mask_t *Fc = (mask_t *)P.F[S.p], *Fn = (mask_t *)P.F[S.p ^ 1], *Qm = (mask_t *)P.Qm;
	const uint32_t *Lc = P.L[S.p];
	const uint32_t C = P.chunk;
	for (uint64_t g = gw; g * 32 < S.n_cur; g += W)
	{
		uint64_t i = g * 32 + lane;
		bool valid = i < S.n_cur;
		uint32_t v = 0;
		mask_t m = 0;
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
		bool dense = work && !heavy && popc_m(m) > P.sparse_popc;
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
				Qm[at + c] = m;
				P.Qc[at + c] = c;
			}
		}
		while (!defer && dm)
		{
			int jl = __ffs(dm) - 1;
			dm &= dm - 1;
			uint32_t vv = __shfl_sync(FULL, v, jl);
			mask_t mm = __shfl_sync(FULL, m, jl);
			uint64_t bb = __shfl_sync(FULL, b, jl), ee = bb + __shfl_sync(FULL, dg, jl);
			relax_warp<K>(P, Fn, S.T, o, vv, mm, bb, ee);
		}
		bool sparse = work && !heavy && !dense;
		if (__any_sync(FULL, sparse))
			relax_thread<K>(P, Fn, S.T, o, v, m, b, (uint32_t)dg, sparse);
	}
}

// PUSHB: one warp per chunk record: arcs [c*C, (c+1)*C) of v for the slots of mask m.
template <int K>
__device__ void step_pushb(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			   uint32_t W)
{
	typedef MASK(K) mask_t;
	mask_t *Fn = (mask_t *)P.F[S.p ^ 1];
	const mask_t *Qm = (const mask_t *)P.Qm;
	for (uint32_t r = gw; r < S.n_q; r += W)
	{
		uint32_t v = ldcg(&P.Qv[r]), c = ldcg(&P.Qc[r]);
		mask_t m = ldcg(&Qm[r]);
		uint64_t b = __ldg(&P.rowptr[v]) + (uint64_t)c * P.chunk, e = __ldg(&P.rowptr[v + 1]);
		if (b + P.chunk < e)
			e = b + P.chunk;
		relax_warp<K>(P, Fn, S.T, o, v, m, b, e);
	}
}

#define PULL_GROUP SSSP_BATCH_PULL_GROUP // consecutive vertices per warp item of a PULL step
// In-neighbours' rows a pull requests at once: 8 K-slot rows for K = 1, 4 for K = 2 (8 requests of
// 128 bytes in flight per warp either way, 16 registers for the answers; more for K = 2 would take
// the registers the loop is short of).
#define PULL_GATHER(K) ((K) == 1 ? 8 : 4)

// The next (up to) G in-neighbours of the set `has` (warp-uniform; the arcs this warp's lanes hold:
// tail u, its mask mk, weight wt, vk = the vertex of the group the arc belongs to): the slots of their
// rows that are in the frontier are requested together, then folded as candidates d + w into
// cand[vk]. The weights and vertices are fetched (shuffled) after the loads went out, from a copy
// of `has`, so the gather holds G K load registers and little else.
template <int K, int NV, int G>
__device__ __forceinline__ void pull_gather(const struct kparams &P, uint32_t &has, uint32_t u, MASK(K) mk,
					    uint32_t wt, uint32_t vk, uint32_t cand[NV][K])
{
	uint32_t d[G][K], rest = has;
#pragma unroll
	for (int q = 0; q < G; q++)
	{
		bool ok = has != 0;
		int j = ok ? __ffs(has) - 1 : 0;
		has &= has - 1;
		uint32_t uq = __shfl_sync(FULL, u, j);
		MASK(K) mq = __shfl_sync(FULL, mk, j);
#pragma unroll
		for (int h = 0; h < K; h++)
			d[q][h] = ok && has_slot<K>(mq, h) ? ldcg(slot<K>(P, uq, h)) : INF;
	}
#pragma unroll
	for (int q = 0; q < G; q++)
	{
		int j = rest ? __ffs(rest) - 1 : 0; // past the set's end d is INF: the arc does not matter
		rest &= rest - 1;
		uint32_t wq = __shfl_sync(FULL, wt, j), kq = NV > 1 ? __shfl_sync(FULL, vk, j) : 0;
#pragma unroll
		for (int h = 0; h < K; h++)
		{
			uint32_t c = sssp_batch_sat(d[q][h], wq);
#pragma unroll
			for (int i = 0; i < NV; i++)
				if (kq == (uint32_t)i)
					cand[i][h] = min(cand[i][h], c);
		}
	}
}

// Gather over in-arcs [ib, ie) of v (a light vertex of a group with a heavy one, or an in-chunk
// of a heavy vertex) and lower v's row with atomics (an in-chunk shares v with other items).
template <int K>
__device__ void pull_one(const struct kparams &P, const MASK(K) * Fc, MASK(K) * Fn, uint32_t T, struct wout &o,
			 uint32_t v, uint64_t ib, uint64_t ie)
{
	const unsigned lane = lane_id();
	uint32_t cand[1][K];
#pragma unroll
	for (int h = 0; h < K; h++)
		cand[0][h] = INF;
	for (uint64_t base = ib; base < ie; base += 32)
	{
		uint64_t e = base + lane;
		uint32_t u = 0, wt = 0;
		MASK(K) mk = 0;
		if (e < ie)
		{
			u = __ldg(&P.in_col[e]);
			wt = __ldg(&P.in_w[e]);
			mk = ldcg(&Fc[u]);
		}
		uint32_t has = __ballot_sync(FULL, mk != 0);
		while (has)
			pull_gather<K, 1, PULL_GATHER(K)>(P, has, u, mk, wt, 0, cand);
	}
	uint32_t t[1] = { v };
	bool pre[1][K];
#pragma unroll
	for (int h = 0; h < K; h++)
		pre[0][h] = cand[0][h] != INF && cand[0][h] < ldcg(slot<K>(P, v, h));
	update_warp<K, 1>(P, Fn, T, o, t, cand, pre);
}

// in_rowptr[v0 + lane] of group g's vertices v0.. on lanes 0..cnt (the lanes after hold 0).
__device__ __forceinline__ uint64_t pull_rk(const struct kparams &P, uint64_t g)
{
	uint32_t v0 = (uint32_t)(g * PULL_GROUP), cnt = P.n - v0 < PULL_GROUP ? P.n - v0 : PULL_GROUP;
	return lane_id() <= cnt ? __ldg(&P.in_rowptr[v0 + lane_id()]) : 0;
}

// A PULL item: the PULL_GROUP consecutive vertices of group g (rk: pull_rk(g)), whose in-arcs are
// one contiguous range: the lanes load up to 32 of them and their tails' masks at once, whichever
// vertex they belong to; the warp gathers the rows of the tails in the frontier and keeps a running
// minimum per vertex and slot; at the end it reads the slots of its own rows that got a candidate
// and stores what improved (one more round trip than reading its rows first, but no rows held in
// registers across the gathers: the loop is bound by its registers, and what it holds there
// spills; docs/apsp.md).
// A group with a heavy vertex (in-degree > C: done by its in-chunks, the items after the groups)
// takes its light vertices one at a time (pull_one).
template <int K>
__device__ void pull_group(const struct kparams &P, const MASK(K) * Fc, MASK(K) * Fn, uint32_t T, struct wout &o,
			   uint64_t g, uint64_t rk)
{
	typedef MASK(K) mask_t;
	const unsigned lane = lane_id();
	const uint32_t v0 = (uint32_t)(g * PULL_GROUP), cnt = P.n - v0 < PULL_GROUP ? P.n - v0 : PULL_GROUP;
	uint64_t rk1 = __shfl_down_sync(FULL, rk, 1);
	bool heavy = lane < cnt && rk1 - rk > P.chunk;
	if (__ballot_sync(FULL, heavy))
	{
		for (uint32_t k = 0; k < cnt; k++)
		{
			uint64_t a = __shfl_sync(FULL, rk, k), b = __shfl_sync(FULL, rk, k + 1);
			if (b > a && b - a <= P.chunk)
				pull_one<K>(P, Fc, Fn, T, o, v0 + k, a, b);
		}
		return;
	}
	uint64_t A = __shfl_sync(FULL, rk, 0), B = __shfl_sync(FULL, rk, cnt);
	if (A == B)
		return; // no in-arcs: nothing can lower these rows
	// The group's rows are compared at the end (no other writer in this step): only the slots
	// that got a candidate are requested, after the gathers.
	uint32_t cur[PULL_GROUP][K], cand[PULL_GROUP][K];
#pragma unroll
	for (int i = 0; i < PULL_GROUP; i++)
#pragma unroll
		for (int h = 0; h < K; h++)
		{
			cur[i][h] = 0;
			cand[i][h] = INF;
		}
	for (uint64_t base = A; base < B; base += 32)
	{
		uint64_t e = base + lane;
		uint32_t u = 0, wt = 0, vk = 0;
		mask_t mk = 0;
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
			pull_gather<K, PULL_GROUP, PULL_GATHER(K)>(P, has, u, mk, wt, vk, cand);
	}
#pragma unroll
	for (int i = 0; i < PULL_GROUP; i++)
#pragma unroll
		for (int h = 0; h < K; h++)
			if (cand[i][h] != INF) // i < cnt
				cur[i][h] = ldcg(slot<K>(P, v0 + i, h));
	// Store: F[p^1] was clear when the step began and this warp is the only writer of these rows
	// and masks in the step, so plain stores do what atomicMin / atomicOr would (the model checks
	// the clear mask). The far pile may hold earlier lanes of the vertex: atomicOr tells whether
	// it is listed.
	mask_t *FM = (mask_t *)P.FM;
#pragma unroll
	for (int i = 0; i < PULL_GROUP; i++)
	{
		bool near[K], far[K];
#pragma unroll
		for (int h = 0; h < K; h++)
		{
			bool better = cand[i][h] < cur[i][h]; // i >= cnt: cur 0, never
			if (better)
				*slot<K>(P, v0 + i, h) = cand[i][h];
			near[h] = better && cand[i][h] < T;
			far[h] = better && cand[i][h] >= T;
			o.np += near[h];
			if (far[h])
				o.fmin = min(o.fmin, cand[i][h]);
		}
		mask_t nb = ballot_k<K>(near), fb = ballot_k<K>(far);
		if (nb)
		{
			if (lane == 0)
				Fn[v0 + i] = nb;
			put_near(o, v0 + i);
		}
		if (fb)
		{
			mask_t old = 0;
			if (lane == 0)
				old = atomicOr(&FM[v0 + i], fb);
			if (!__shfl_sync(FULL, old, 0))
				put_far(o, v0 + i);
		}
	}
}

// PULL: the groups of PULL_GROUP vertices, then the in-chunks of heavy vertices, round robin over
// the warps; a warp requests its next group's in_rowptr before it works on the current one.
template <int K>
__device__ void step_pull(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			  uint32_t W)
{
	typedef MASK(K) mask_t;
	const mask_t *Fc = (const mask_t *)P.F[S.p];
	mask_t *Fn = (mask_t *)P.F[S.p ^ 1];
	const uint64_t ngroups = ((uint64_t)P.n + PULL_GROUP - 1) / PULL_GROUP;
	const uint64_t total = ngroups + S.n_hp;
	uint64_t rk = gw < ngroups ? pull_rk(P, gw) : 0;
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
			pull_one<K>(P, Fc, Fn, S.T, o, v, ib, ie);
			continue;
		}
		uint64_t rk_next = it + W < ngroups ? pull_rk(P, it + W) : 0;
		pull_group<K>(P, Fc, Fn, S.T, o, it, rk);
		rk = rk_next;
	}
}

template <int K>
__device__ void step_clear(const struct kparams &P, const struct sssp_batch_ctl &S, uint32_t gw, uint32_t W)
{
	MASK(K) *Fc = (MASK(K) *)P.F[S.p];
	const uint32_t *Lc = P.L[S.p];
	for (uint64_t i = (uint64_t)gw * 32 + lane_id(); i < S.n_cur; i += (uint64_t)W * 32)
		Fc[ldcg(&Lc[i])] = 0;
}

// RAISE: o.far_* point at the other far list (the one this step fills).
template <int K>
__device__ void step_raise(const struct kparams &P, const struct sssp_batch_ctl &S, struct wout &o, uint32_t gw,
			   uint32_t W)
{
	typedef MASK(K) mask_t;
	const unsigned lane = lane_id();
	const uint32_t *FLc = P.FL[S.fr];
	mask_t *Fn = (mask_t *)P.F[S.p ^ 1], *FM = (mask_t *)P.FM;
	for (uint32_t i = gw; i < S.n_far; i += W)
	{
		uint32_t v = ldcg(&FLc[i]);
		mask_t bits = ldcg(&FM[v]);
		bool keep[K], move[K];
#pragma unroll
		for (int h = 0; h < K; h++)
		{
			bool a = has_slot<K>(bits, h);
			uint32_t d = a ? ldcg(slot<K>(P, v, h)) : INF;
			int cls = a ? sssp_batch_raise_class(d, S.T_old, S.T) : SSSP_BATCH_DROP;
			keep[h] = cls == SSSP_BATCH_KEEP;
			move[h] = cls == SSSP_BATCH_MOVE;
			o.np += move[h];
			if (keep[h])
				o.fmin = min(o.fmin, d);
		}
		mask_t kb = ballot_k<K>(keep), mb = ballot_k<K>(move);
		if (lane == 0)
			FM[v] = kb; // this warp is v's only writer in a RAISE step
		if (kb)
			put_far(o, v);
		if (mb)
		{
			if (lane == 0)
				Fn[v] = mb; // zero before: F[p^1] is clear, v is once in the far list
			put_near(o, v);
		}
	}
}

// Prologue: block 0 seeds the sources into F[0]/L[0]; every thread lists in-chunks.
template <int K>
__device__ void step_prologue(const struct kparams &P)
{
	typedef MASK(K) mask_t;
	if (blockIdx.x == 0 && threadIdx.x == 0)
	{
		*(volatile unsigned long long *)&P.dev->t_last = global_ns();
		mask_t *F0 = (mask_t *)P.F[0];
		uint32_t c = 0;
		for (uint32_t i = 0; i < P.nsrc; i++)
		{
			uint32_t s = P.src[i];
			P.dist[(size_t)s * (32 * K) + i] = 0;
			mask_t old = F0[s];
			F0[s] = old | (mask_t)1 << i;
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
	// the step that just ended, timed from the end of the one before (or the prologue's start)
	volatile unsigned long long *tl = &P.dev->t_last;
	unsigned long long now = global_ns();
	if (c.mode < SSSP_BATCH_DONE)
		((volatile unsigned long long *)P.dev->kind_ns)[c.mode] += now - *tl;
	*tl = now;
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



template <int K>
__device__ __forceinline__ void batch_loop_body(const struct kparams &P)
{
	__shared__ struct sssp_batch_ctl S;
	const uint32_t gw = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5), W = gridDim.x * (blockDim.x >> 5);
	step_prologue<K>(P);
	for (uint32_t step = 0;; step++)
	{
		grid_barrier(P, step, &S);
		if (S.abort || S.mode == SSSP_BATCH_DONE)
			break;
		if (threadIdx.x == 0) // the previous step's flushes ended before grid_barrier's __syncthreads()
		{
			uint32_t fr = S.mode == SSSP_BATCH_RAISE ? S.fr ^ 1 : S.fr;
			wl.near_list = P.L[S.p ^ 1];
			wl.near_cnt = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_L0 + (S.p ^ 1))];
			wl.far_list = P.FL[fr];
			wl.far_cnt = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_FL0 + fr)];
			wl.far_min = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_FMIN0 + fr)];
			wl.np_cnt = &P.cnt[SSSP_BATCH_CNT(SSSP_BATCH_C_NP)];
		}
		__syncthreads();
		struct wout o;
		o.nb = o.fb = 0;
		o.fmin = INF;
		o.np = 0;
		switch (S.mode)
		{
		case SSSP_BATCH_PUSH:
			step_push<K>(P, S, o, gw, W);
			break;
		case SSSP_BATCH_PUSHB:
			step_pushb<K>(P, S, o, gw, W);
			break;
		case SSSP_BATCH_PULL:
			step_pull<K>(P, S, o, gw, W);
			break;
		case SSSP_BATCH_CLEAR:
			step_clear<K>(P, S, gw, W);
			break;
		case SSSP_BATCH_RAISE:
			step_raise<K>(P, S, o, gw, W);
			break;
		default:
			break;
		}
		wout_flush(o);
	}
}

// The device loop, for K sources per lane: up to 1024 threads per block at 64 registers (the
// register file limits a 256-thread block to 4 per SM). Other register budgets trade the same way
// in both directions: more blocks per SM spill, fewer without spills hide less latency.
template <int K>
__global__ void __launch_bounds__(1024) batch_loop(const struct kparams P)
{
	batch_loop_body<K>(P);
}

// ------------------------------------------------------------------ plain kernels

// dist4: n4 uint4 of distances; F0, F1, FM: nw words each.
__global__ void batch_init(uint4 *dist4, uint64_t n4, uint32_t *F0, uint32_t *F1, uint32_t *FM, uint64_t nw,
			   struct batch_dev *dev, uint32_t *cnt, uint32_t T0)
{
	uint64_t tid = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x, nth = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t i = tid; i < n4; i += nth)
		dist4[i] = make_uint4(INF, INF, INF, INF);
	for (uint64_t i = tid; i < nw; i += nth)
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
	for (uint64_t i = tid; i < SSSP_BATCH_DONE; i += nth)
		dev->kind_ns[i] = 0;
	for (uint64_t i = tid; i < LANES; i += nth)
	{
		dev->sum[i] = 0;
		dev->ecc[i] = 0;
		dev->reached[i] = 0;
		dev->harm_lo[i] = 0;
		dev->harm_hi[i] = 0;
	}
	if (tid == 0)
	{
		memset(&dev->ctl, 0, sizeof(dev->ctl));
		dev->ctl.mode = SSSP_BATCH_PROLOGUE;
		dev->ctl.T = T0;
		dev->ctl.T_old = T0;
	}
}

// One warp per vertex; per slot (source): sum, max and count of the finite distances and the
// harmonic sum (sssp_harm: 128-bit, the same bits in any order), one half of the rows (32 slots)
// after the other.
template <int K>
__global__ void batch_summary(const uint32_t *__restrict__ dist, uint32_t n, uint32_t nsrc, struct batch_dev *dev)
{
	__shared__ unsigned long long ssum[MAX_WARPS][32];
	__shared__ uint32_t smax[MAX_WARPS][32], scnt[MAX_WARPS][32];
	__shared__ struct sssp_harm sharm[MAX_WARPS][32];
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, nw = blockDim.x >> 5;
	for (unsigned h = 0; h < K; h++)
	{
		const unsigned l = 32 * h + lane;
		unsigned long long s = 0;
		uint32_t mx = 0, c = 0;
		struct sssp_harm hs = { 0, 0 };
		for (uint64_t v = (uint64_t)blockIdx.x * nw + wib; v < n; v += (uint64_t)gridDim.x * nw)
		{
			uint32_t d = dist[v * (32 * K) + l];
			if (d != INF)
			{
				s += d;
				mx = max(mx, d);
				c++;
				sssp_harm_add(&hs, sssp_harm_term(d));
			}
		}
		ssum[wib][lane] = s;
		smax[wib][lane] = mx;
		scnt[wib][lane] = c;
		sharm[wib][lane] = hs;
		__syncthreads();
		if (wib == 0)
		{
			for (unsigned k = 1; k < nw; k++)
			{
				s += ssum[k][lane];
				mx = max(mx, smax[k][lane]);
				c += scnt[k][lane];
				sssp_harm_add(&hs, sharm[k][lane]);
			}
			if (l < nsrc && c)
			{
				atomicAdd(&dev->sum[l], s);
				atomicMax(&dev->ecc[l], mx);
				atomicAdd(&dev->reached[l], c);
				sssp_harm_atomic_add(&dev->harm_lo[l], &dev->harm_hi[l], hs);
			}
		}
		__syncthreads(); // the arrays are refilled for the next half
	}
}

// Tiles of 32 vertices x 32 slots, transposed through shared memory into stage[slot][v].
template <int K>
__global__ void batch_rows(const uint32_t *__restrict__ dist, uint32_t n, uint32_t nsrc, uint32_t *stage)
{
	__shared__ uint32_t tile[32][33];
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, nw = blockDim.x >> 5;
	for (uint64_t base = (uint64_t)blockIdx.x * 32; base < n; base += (uint64_t)gridDim.x * 32)
		for (unsigned h = 0; h < K && 32 * h < nsrc; h++)
		{
			for (unsigned r = wib; r < 32; r += nw)
				tile[r][lane] = base + r < n ? dist[(base + r) * (32 * K) + 32 * h + lane] : INF;
			__syncthreads();
			for (unsigned l = wib; l < 32 && 32 * h + l < nsrc; l += nw)
				if (base + lane < n)
					stage[(size_t)(32 * h + l) * n + base + lane] = tile[lane][l];
			__syncthreads();
		}
}


// cols[i T + j] = distance of targets[j] from the traversal's source i < nsrc (rows of `width` slots).
__global__ void batch_cols(const uint32_t *__restrict__ dist, uint32_t width, const uint32_t *__restrict__ targets,
			   uint32_t T, uint32_t nsrc, uint32_t *cols)
{
	const uint64_t total = (uint64_t)nsrc * T, step = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t x = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; x < total; x += step)
	{
		uint32_t i = (uint32_t)(x / T), j = (uint32_t)(x % T);
		cols[x] = dist[(uint64_t)targets[j] * width + i];
	}
}

void batch_kernels_of(int K, struct batch_kernel_ptrs *k)
{
	const int two = K == 2;
	k->init = (const void *)batch_init;
	k->loop = two ? (const void *)batch_loop<2> : (const void *)batch_loop<1>;
	k->summary = two ? (const void *)batch_summary<2> : (const void *)batch_summary<1>;
	k->rows = two ? (const void *)batch_rows<2> : (const void *)batch_rows<1>;
	k->cols = (const void *)batch_cols;
}
