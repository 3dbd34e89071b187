// Brandes' sweeps on a GPU, 64 sources at once (brandes.h), after the batched engine's traversal
// has left the distances as dist[v][64] (one slot per source). A warp works on one vertex for its 64
// slots (lane l holds slots l and l + 32), so rows of distances, path counts and dependencies are
// read as coalesced 256- and 512-byte lines.
//
// Each sweep (forward: path counts; backward: dependencies) is Kahn's algorithm on every slot's DAG
// of tight arcs at once, in rounds:
//   count   every reached (vertex, slot) counts its tight arcs on the pull side (forward: in-arcs,
//           from the rows of distances, keeping each arc's tight slots as a mask T[arc] that every
//           later pass reads instead; backward: out-arcs); seed marks the slots with none ready (the
//           sources; the leaves);
//   round   compact: the vertices with ready slots (mask F[cur][v]) become entries, each cut into
//           items: the chunks of SSSP_BRANDES_CHUNK arcs of its pull side, then of its push side;
//           process: one warp per item. A pull chunk sums, in arc order, sigma(u) over the tight
//           in-arcs (forward) or (1 + delta(w)) / sigma(w) over the tight out-arcs (backward); a
//           vertex of one chunk stores its result at once, the chunks of a larger one go to
//           partial rows. A push chunk releases the tight arcs on the other side (atomicSub of the
//           heads' or tails' counts); the slots whose count reaches 0 are ready in F[cur ^ 1];
//           combine: a warp per vertex of several chunks sums its partial rows in chunk order.
// That is the canonical order of brandes.h: the same sums in the same order as the CPU's, with
// __dadd_rn / __ddiv_rn / __dmul_rn (nothing fused), hence the same bits. Dependencies are added into
// the worker's reduction buffer as exact fixed-point numbers, a warp's 64 slots summed first (integer
// adds: any order). Rounds are launched a few at a time without waiting; an empty round costs three
// launches that return at once, and the host looks at the counters between groups.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "brandes/brandes_gpu.cuh"

#define INF BRANDES_INF
#define FULL BRANDES_FULL
#define CHUNK SSSP_BRANDES_CHUNK
#define SLOTS BRANDES_SLOTS
#define MAX_GROUP 32 // rounds launched before the host looks
// Arcs whose rows of distances the forward count requests at once. Its warps wait on those loads,
// but not too many: the registers each request takes leave fewer warps resident, and past a few
// requests that costs more latency hiding than the requests add.
#ifndef COUNT_ILP
#define COUNT_ILP 4
#endif

// Lists, rows and masks are written by one kernel and read by later ones: plain loads; counters that
// other blocks of the same kernel may move are read with L2 loads.
TUCCOMPI_KERNELCHAR(brandes_compact, 1, coalesced, low, low, low);
TUCCOMPI_KERNELCHAR(brandes_seed, 1, coalesced, low, low, low);
// Rows of 64 slots of vertices found through arcs (scatter), a few operations per load, lines
// evicted before any reuse, no reuse: the batched engine's loop has the same profile.
TUCCOMPI_KERNELCHAR(brandes_process, 1, scatter, low, high, low);

enum
{
	FWD = 0, // path counts: pull over in-arcs, push over out-arcs
	BWD = 1, // dependencies: pull over out-arcs, push over in-arcs
};
enum
{
	K_COUNT = 0, // the pull side's tight arcs of every reached slot
	K_SWEEP = 1, // a round of the sweep
};
enum
{
	C_REACHED = 0,  // entries: every vertex with a reached slot (for K_COUNT)
	C_FRONTIER = 1, // entries: the vertices with ready slots in F[cur]
};

// Counters by the parity of the round that fills them: round r's compact appends to [r & 1], its
// process and combine read them, its combine clears [(r + 1) & 1] for the next round (so no kernel
// clears what another may still be using); the counting pass uses [1] before round 0.
struct bctl
{
	unsigned nE[2], nI[2], nP[2], nH[2]; // entries, items, partial rows, heavy entries
	unsigned nNew[2];                    // vertices that got ready slots for the round of that parity
	unsigned long long pairs_reached, pairs_done; // (vertex, slot) pairs: reached, and ordered so far
};

struct bparams
{
	uint32_t n, nsrc;
	const uint64_t *rowptr, *in_rowptr;
	const uint32_t *col, *w, *in_col, *in_w;
	const uint32_t *dist, *arc_in;
	unsigned long long *T; // per in-arc: the slots in which it is tight (made by the forward count)
	double *sigma, *delta, *part;
	uint32_t *cnt;
	unsigned long long *F[2];
	uint32_t *Ev, *Enp, *Epb, *It, *Ij, *H;
	unsigned long long *Em;
	struct tuccompi_exact *acc;
	struct bctl *ctl;
	int counts; // the forward count also keeps each slot's count of tight in-arcs (Kahn's rounds)
	uint32_t src[SLOTS];
};

__device__ __forceinline__ bool tight(uint32_t from, uint32_t w, uint32_t to)
{
	return from != INF && to != INF && (unsigned long long)from + w == to;
}

// Warp-wide: reserve x entries of *counter for each lane (all lanes call); the lane's first index.
__device__ __forceinline__ unsigned warp_reserve(unsigned *counter, unsigned x)
{
	const unsigned lane = threadIdx.x & 31;
	unsigned incl = x;
#pragma unroll
	for (int sh = 1; sh < 32; sh <<= 1)
	{
		unsigned t = __shfl_up_sync(FULL, incl, sh);
		if (lane >= (unsigned)sh)
			incl += t;
	}
	unsigned total = __shfl_sync(FULL, incl, 31), base = 0;
	if (lane == 31 && total)
		base = atomicAdd(counter, total);
	base = __shfl_sync(FULL, base, 31);
	return base + incl - x;
}

// ------------------------------------------------------------------ compact

__global__ void brandes_compact(const struct bparams P, int mode, int dir, int cur, int with_push)
{
	if (mode == C_FRONTIER && __ldcg(&P.ctl->nNew[cur]) == 0)
		return;
	const uint64_t *prow = dir == FWD ? P.in_rowptr : P.rowptr, *qrow = dir == FWD ? P.rowptr : P.in_rowptr;
	__shared__ unsigned long long s_pairs;
	if (threadIdx.x == 0)
		s_pairs = 0;
	__syncthreads();
	unsigned long long pairs = 0;
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x; base < P.n; base += stride) // warp-uniform
	{
		const uint64_t v = base + threadIdx.x;
		unsigned long long m = 0;
		if (v < P.n)
		{
			if (mode == C_FRONTIER)
			{
				m = P.F[cur][v];
				if (m)
					P.F[cur][v] = 0;
			}
			else
			{
				const uint4 *row = (const uint4 *)(P.dist + v * SLOTS);
				for (int q = 0; q < SLOTS / 4; q++)
				{
					uint4 d = row[q];
					m |= (unsigned long long)(d.x != INF) << (4 * q) | (unsigned long long)(d.y != INF) << (4 * q + 1) |
					     (unsigned long long)(d.z != INF) << (4 * q + 2) |
					     (unsigned long long)(d.w != INF) << (4 * q + 3);
				}
			}
		}
		unsigned np = 0, nq = 0;
		if (m)
		{
			uint64_t dp = prow[v + 1] - prow[v], dq = qrow[v + 1] - qrow[v];
			np = dp > CHUNK ? (unsigned)((dp + CHUNK - 1) / CHUNK) : 1;
			nq = with_push ? (unsigned)((dq + CHUNK - 1) / CHUNK) : 0;
			pairs += __popcll(m);
		}
		unsigned k = warp_reserve(&P.ctl->nE[cur], m != 0);
		unsigned ib = warp_reserve(&P.ctl->nI[cur], np + nq);
		unsigned pb = warp_reserve(&P.ctl->nP[cur], np > 1 ? np : 0);
		unsigned hk = warp_reserve(&P.ctl->nH[cur], np > 1);
		if (m)
		{
			P.Ev[k] = (uint32_t)v;
			P.Em[k] = m;
			P.Enp[k] = np;
			P.Epb[k] = pb;
			for (unsigned j = 0; j < np + nq; j++)
			{
				P.It[ib + j] = k;
				P.Ij[ib + j] = j;
			}
			if (np > 1)
				P.H[hk] = k;
		}
	}
	if (pairs)
		atomicAdd(&s_pairs, pairs);
	__syncthreads();
	if (threadIdx.x == 0 && s_pairs)
		atomicAdd(mode == C_FRONTIER ? &P.ctl->pairs_done : &P.ctl->pairs_reached, s_pairs);
}

// ------------------------------------------------------------------ seed

// After K_COUNT: the reached slots without a tight arc on the pull side are ready (F[0]); F[1] clear.
__global__ void brandes_seed(const struct bparams P)
{
	__shared__ unsigned s_new;
	if (threadIdx.x == 0)
		s_new = 0;
	__syncthreads();
	const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
	for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < P.n; v += stride)
	{
		const uint4 *drow = (const uint4 *)(P.dist + v * SLOTS), *crow = (const uint4 *)(P.cnt + v * SLOTS);
		unsigned long long m = 0;
		for (int q = 0; q < SLOTS / 4; q++)
		{
			uint4 d = drow[q], c = crow[q];
			m |= (unsigned long long)(d.x != INF && !c.x) << (4 * q) |
			     (unsigned long long)(d.y != INF && !c.y) << (4 * q + 1) |
			     (unsigned long long)(d.z != INF && !c.z) << (4 * q + 2) |
			     (unsigned long long)(d.w != INF && !c.w) << (4 * q + 3);
		}
		P.F[0][v] = m;
		P.F[1][v] = 0;
		if (m)
			atomicAdd(&s_new, 1u);
	}
	__syncthreads();
	if (threadIdx.x == 0 && s_new)
		atomicAdd(&P.ctl->nNew[0], s_new);
}

// ------------------------------------------------------------------ process

// Lane i: arc a0 + i of a list of cnt arcs, its other end x and the slots in which it is tight
// (T: indexed by the in-arc; an out-arc finds its in-arc through arc_in).
template <bool OUT>
__device__ __forceinline__ void load_tight(const struct bparams &P, const uint32_t *col, uint64_t a0, unsigned cnt,
					   uint32_t &x, unsigned long long &tm)
{
	const unsigned lane = threadIdx.x & 31;
	x = 0;
	tm = 0;
	if (lane < cnt)
	{
		const uint64_t a = a0 + lane;
		x = __ldg(&col[a]);
		tm = P.T[OUT ? (uint64_t)__ldg(&P.arc_in[a]) : a];
	}
}

__device__ __forceinline__ bool bit(unsigned long long m, unsigned s)
{
	return (m >> s) & 1;
}

// Forward count: the tight in-arcs of v in chunk j, from the rows of distances (the one pass that
// reads them); each arc's tight slots into T, the counts into cnt.
__device__ void count_in(const struct bparams &P, uint32_t v, unsigned long long m, unsigned j, unsigned np)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t e0 = P.in_rowptr[v + 1], b = P.in_rowptr[v] + (uint64_t)j * CHUNK, e = b + CHUNK < e0 ? b + CHUNK : e0;
	const uint64_t vr = (uint64_t)v * SLOTS;
	bool act[2];
	uint32_t dv[2];
	unsigned c[2] = { 0, 0 };
	for (int h = 0; h < 2; h++)
	{
		act[h] = bit(m, lane + 32 * h);
		dv[h] = P.dist[vr + lane + 32 * h];
	}
	for (uint64_t a0 = b; a0 < e; a0 += 32)
	{
		const unsigned cnt = e - a0 < 32 ? (unsigned)(e - a0) : 32;
		uint32_t mx = 0, mw = 0;
		if (lane < cnt)
		{
			mx = __ldg(&P.in_col[a0 + lane]);
			mw = __ldg(&P.in_w[a0 + lane]);
		}
		for (unsigned q = 0; q < cnt; q += COUNT_ILP) // COUNT_ILP arcs' rows requested before any is used
		{
			uint32_t x[COUNT_ILP], wt[COUNT_ILP], dx[COUNT_ILP][2];
#pragma unroll
			for (int i = 0; i < COUNT_ILP; i++)
			{
				x[i] = __shfl_sync(FULL, mx, (q + i) & 31);
				wt[i] = __shfl_sync(FULL, mw, (q + i) & 31);
			}
#pragma unroll
			for (int i = 0; i < COUNT_ILP; i++)
				for (int h = 0; h < 2; h++)
					dx[i][h] = q + i < cnt && act[h] ? P.dist[(uint64_t)x[i] * SLOTS + lane + 32 * h] : INF;
#pragma unroll
			for (int i = 0; i < COUNT_ILP; i++)
			{
				bool tg0 = tight(dx[i][0], wt[i], dv[0]), tg1 = tight(dx[i][1], wt[i], dv[1]);
				c[0] += tg0;
				c[1] += tg1;
				unsigned lo = __ballot_sync(FULL, tg0), hi = __ballot_sync(FULL, tg1);
				if (lane == 0 && (lo | hi))
					P.T[a0 + q + i] = (unsigned long long)lo | (unsigned long long)hi << 32;
			}
		}
	}
	if (!P.counts) // the ordered sweeps want T alone
		return;
	for (int h = 0; h < 2; h++)
		if (act[h] && (np == 1 || c[h]))
		{
			if (np == 1)
				P.cnt[vr + lane + 32 * h] = c[h];
			else
				atomicAdd(&P.cnt[vr + lane + 32 * h], c[h]);
		}
}

// Pull chunk j of entry (v, m): count (K_COUNT, backward: the tight out-arcs, from T) or sum
// (K_SWEEP) over the chunk's tight arcs, in arc order.
template <int KIND, int DIR>
__device__ void pull(const struct bparams &P, uint32_t v, unsigned long long m, unsigned j, unsigned np, unsigned pb)
{
	if (KIND == K_COUNT && DIR == FWD)
	{
		count_in(P, v, m, j, np);
		return;
	}
	const unsigned lane = threadIdx.x & 31;
	const uint64_t *row = DIR == FWD ? P.in_rowptr : P.rowptr;
	const uint32_t *col = DIR == FWD ? P.in_col : P.col;
	const uint64_t e0 = row[v + 1], b = row[v] + (uint64_t)j * CHUNK, e = b + CHUNK < e0 ? b + CHUNK : e0;
	const uint64_t vr = (uint64_t)v * SLOTS;
	double sum[2] = { 0.0, 0.0 };
	unsigned c[2] = { 0, 0 };
	for (uint64_t a0 = b; a0 < e; a0 += 32)
	{
		const unsigned cnt = e - a0 < 32 ? (unsigned)(e - a0) : 32;
		uint32_t mx;
		unsigned long long mt;
		load_tight<DIR == BWD>(P, col, a0, cnt, mx, mt);
		for (unsigned q = 0; q < cnt; q += 4) // 4 arcs' rows requested before any is used
		{
			uint32_t x[4];
			unsigned long long tm[4];
#pragma unroll
			for (int i = 0; i < 4; i++)
			{
				x[i] = __shfl_sync(FULL, mx, (q + i) & 31);
				tm[i] = q + i < cnt ? __shfl_sync(FULL, mt, (q + i) & 31) & m : 0;
			}
			if (KIND == K_COUNT)
			{
#pragma unroll
				for (int i = 0; i < 4; i++)
					for (int h = 0; h < 2; h++)
						c[h] += bit(tm[i], lane + 32 * h);
			}
			else
			{
				double t[4][2];
#pragma unroll
				for (int i = 0; i < 4; i++)
					for (int h = 0; h < 2; h++)
					{
						uint64_t at = (uint64_t)x[i] * SLOTS + lane + 32 * h;
						if (!bit(tm[i], lane + 32 * h))
							t[i][h] = 0.0;
						else if (DIR == FWD)
							t[i][h] = P.sigma[at];
						else
							t[i][h] = __ddiv_rn(__dadd_rn(1.0, P.delta[at]), P.sigma[at]);
					}
#pragma unroll
				for (int i = 0; i < 4; i++) // in arc order
					for (int h = 0; h < 2; h++)
						if (bit(tm[i], lane + 32 * h))
							sum[h] = __dadd_rn(sum[h], t[i][h]);
			}
		}
	}
	bool act[2] = { bit(m, lane), bit(m, lane + 32) };
	if (KIND == K_COUNT)
	{
		for (int h = 0; h < 2; h++)
			if (act[h] && (np == 1 || c[h]))
			{
				if (np == 1)
					P.cnt[vr + lane + 32 * h] = c[h];
				else
					atomicAdd(&P.cnt[vr + lane + 32 * h], c[h]);
			}
		return;
	}
	if (np > 1)
	{
		for (int h = 0; h < 2; h++)
			if (act[h])
				P.part[(uint64_t)(pb + j) * SLOTS + lane + 32 * h] = sum[h];
		return;
	}
	double d[2];
	bool on[2];
	for (int h = 0; h < 2; h++)
	{
		const unsigned s = lane + 32 * h;
		on[h] = false;
		if (!act[h])
			continue;
		if (DIR == FWD)
			P.sigma[vr + s] = s < P.nsrc && P.src[s] == v ? 1.0 : sum[h];
		else
		{
			d[h] = __dmul_rn(P.sigma[vr + s], sum[h]);
			P.delta[vr + s] = d[h];
			on[h] = !(s < P.nsrc && P.src[s] == v);
		}
	}
	if (DIR == BWD)
		brandes_warp_add_exact(&P.acc[v], d, on);
}

// Push chunk j of entry (v, m): release the tight arcs on the push side (forward: out-arcs, whose
// heads' counts drop; backward: in-arcs, whose tails' counts drop); newly ready slots into Fn.
template <int DIR>
__device__ void push(const struct bparams &P, uint32_t v, unsigned long long m, unsigned j, unsigned long long *Fn,
		     unsigned &newv)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t *row = DIR == FWD ? P.rowptr : P.in_rowptr;
	const uint32_t *col = DIR == FWD ? P.col : P.in_col;
	const uint64_t e0 = row[v + 1], b = row[v] + (uint64_t)j * CHUNK, e = b + CHUNK < e0 ? b + CHUNK : e0;
	for (uint64_t a0 = b; a0 < e; a0 += 32)
	{
		const unsigned cnt = e - a0 < 32 ? (unsigned)(e - a0) : 32;
		uint32_t mx;
		unsigned long long mt;
		load_tight<DIR == FWD>(P, col, a0, cnt, mx, mt);
		for (unsigned q = 0; q < cnt; q++)
		{
			const uint32_t x = __shfl_sync(FULL, mx, q);
			const unsigned long long tm = __shfl_sync(FULL, mt, q) & m;
			if (!tm) // warp-uniform
				continue;
			bool r[2];
			for (int h = 0; h < 2; h++)
				r[h] = bit(tm, lane + 32 * h) &&
				       atomicSub(&P.cnt[(uint64_t)x * SLOTS + lane + 32 * h], 1u) == 1u;
			unsigned lo = __ballot_sync(FULL, r[0]), hi = __ballot_sync(FULL, r[1]);
			unsigned long long nm = (unsigned long long)lo | (unsigned long long)hi << 32;
			if (lane == 0 && nm && atomicOr(&Fn[x], nm) == 0)
				newv++;
		}
	}
}

// A vertex of several pull chunks: its chunks' sums in chunk order.
template <int DIR>
__device__ void combine(const struct bparams &P, unsigned k)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t v = P.Ev[k], np = P.Enp[k], pb = P.Epb[k];
	const unsigned long long m = P.Em[k];
	const uint64_t vr = (uint64_t)v * SLOTS;
	double d[2];
	bool on[2];
	for (int h = 0; h < 2; h++)
	{
		const unsigned s = lane + 32 * h;
		on[h] = false;
		if (!((m >> s) & 1))
			continue;
		double sum = 0.0;
		for (unsigned j = 0; j < np; j++)
			sum = __dadd_rn(sum, P.part[(uint64_t)(pb + j) * SLOTS + s]);
		if (DIR == FWD)
			P.sigma[vr + s] = s < P.nsrc && P.src[s] == v ? 1.0 : sum;
		else
		{
			d[h] = __dmul_rn(P.sigma[vr + s], sum);
			P.delta[vr + s] = d[h];
			on[h] = !(s < P.nsrc && P.src[s] == v);
		}
	}
	if (DIR == BWD)
		brandes_warp_add_exact(&P.acc[v], d, on);
}

template <int KIND, int DIR>
__global__ void brandes_process(const struct bparams P, int cur)
{
	const unsigned nI = __ldcg(&P.ctl->nI[cur]);
	if (nI == 0)
		return;
	__shared__ unsigned s_new;
	if (threadIdx.x == 0)
		s_new = 0;
	__syncthreads();
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, nwb = blockDim.x >> 5;
	const uint64_t W = (uint64_t)gridDim.x * nwb;
	unsigned long long *Fn = P.F[cur ^ 1];
	unsigned newv = 0;
	for (uint64_t it = (uint64_t)blockIdx.x * nwb + wib; it < nI; it += W) // warp-uniform
	{
		const unsigned k = P.It[it], j = P.Ij[it];
		const uint32_t v = P.Ev[k], np = P.Enp[k];
		const unsigned long long m = P.Em[k];
		if (j < np)
			pull<KIND, DIR>(P, v, m, j, np, P.Epb[k]);
		else if (KIND == K_SWEEP)
			push<DIR>(P, v, m, j - np, Fn, newv);
	}
	if (lane == 0 && newv)
		atomicAdd(&s_new, newv);
	__syncthreads();
	if (threadIdx.x == 0 && s_new)
		atomicAdd(&P.ctl->nNew[cur ^ 1], s_new);
}

// After a round's process: the vertices of several pull chunks, one warp each (their chunks' sums
// in chunk order); and the next round's counters cleared.
template <int DIR>
__global__ void brandes_combine(const struct bparams P, int cur)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
	{
		P.ctl->nE[cur ^ 1] = P.ctl->nI[cur ^ 1] = P.ctl->nP[cur ^ 1] = P.ctl->nH[cur ^ 1] = 0;
		P.ctl->nNew[cur] = 0; // read by this round's compact; the round after next adds to it again
	}
	const unsigned nH = __ldcg(&P.ctl->nH[cur]);
	const unsigned wib = threadIdx.x >> 5, nwb = blockDim.x >> 5;
	for (uint64_t h = (uint64_t)blockIdx.x * nwb + wib; h < nH; h += (uint64_t)gridDim.x * nwb) // warp-uniform
		combine<DIR>(P, P.H[h]);
}

// ------------------------------------------------------------------ host

struct layout
{
	size_t sigma, delta, part, T, cnt, F0, F1, Ev, Em, Enp, Epb, It, Ij, H, ctl, total;
};


static void layout_of(uint32_t n, uint64_t m, const struct sssp_brandes_shape *s, struct layout *l)
{
	size_t off = 0, nn = n ? n : 1;
	uint64_t heavy = s->heavy_in > s->heavy_out ? s->heavy_in : s->heavy_out, items = s->items_in + s->items_out;
	l->sigma = brandes_place(&off, nn * SLOTS * sizeof(double));
	l->delta = brandes_place(&off, nn * SLOTS * sizeof(double));
	l->part = brandes_place(&off, (heavy ? heavy : 1) * SLOTS * sizeof(double));
	l->T = brandes_place(&off, (m ? m : 1) * 8);
	l->cnt = brandes_place(&off, nn * SLOTS * sizeof(uint32_t));
	l->F0 = brandes_place(&off, nn * 8);
	l->F1 = brandes_place(&off, nn * 8);
	l->Ev = brandes_place(&off, nn * 4);
	l->Em = brandes_place(&off, nn * 8);
	l->Enp = brandes_place(&off, nn * 4);
	l->Epb = brandes_place(&off, nn * 4);
	l->It = brandes_place(&off, (items ? items : 1) * 4);
	l->Ij = brandes_place(&off, (items ? items : 1) * 4);
	l->H = brandes_place(&off, nn * 4);
	l->ctl = brandes_place(&off, sizeof(struct bctl));
	l->total = off;
}

extern "C" size_t sssp_brandes_gpu_workspace_size(uint32_t n, uint64_t m, const struct sssp_brandes_shape *s)
{
	struct layout l;
	layout_of(n, m, s, &l);
	return l.total + 256 + brandes_order_workspace_size(n, m, s); // the base is aligned up to 256 bytes
}

#define FAIL BRANDES_FAIL
#define CK BRANDES_CK

static int block_of(struct tuccompi_kernel *k, const void *func, uint64_t nx, unsigned *bx, char *err, size_t errlen)
{
	return sssp_gpu_block(k, func, nx, 0, bx, "sssp_brandes_gpu", err, errlen);
}

typedef void (*process_fn)(const struct bparams, int);

static int brandes_run(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *shape, const uint32_t *src,
		       unsigned nsrc, const uint32_t *dist, struct tuccompi_exact *acc, void *work, unsigned share,
		       bool ordered, void *stream, char *err, size_t errlen)
{
	cudaStream_t s = (cudaStream_t)stream;
	if (!g || !shape || !src || !dist || !acc || !work)
		FAIL(-EINVAL, "sssp_brandes_gpu: NULL graph, shape, sources, distances, sums or workspace");
	if (nsrc < 1 || nsrc > SLOTS)
		FAIL(-EINVAL, "sssp_brandes_gpu: %u sources; a batch takes 1 to %d", nsrc, SLOTS);
	if (!g->n || !g->rowptr || !g->in_rowptr || (g->m && !g->arc_in))
		FAIL(-EINVAL, "sssp_brandes_gpu: graph without vertices or without its arrays (out- and in-arcs, arc_in)");
	if (g->m > UINT32_MAX)
		FAIL(-EINVAL, "sssp_brandes_gpu: %llu arcs; arc_in holds 32-bit arc numbers", (unsigned long long)g->m);
	struct bparams P;
	memset(&P, 0, sizeof(P));
	P.n = g->n;
	P.nsrc = nsrc;
	for (unsigned i = 0; i < nsrc; i++)
	{
		if (src[i] >= g->n)
			FAIL(-EINVAL, "sssp_brandes_gpu: source %u (index %u) is not a vertex (n = %u)", src[i], i, g->n);
		for (unsigned k = 0; k < i; k++)
			if (src[k] == src[i])
				FAIL(-EINVAL, "sssp_brandes_gpu: source %u twice in one batch", src[i]);
		P.src[i] = src[i];
	}
	P.rowptr = g->rowptr;
	P.col = g->col;
	P.w = g->w;
	P.in_rowptr = g->in_rowptr;
	P.in_col = g->in_col;
	P.in_w = g->in_w;
	P.dist = dist;
	P.arc_in = g->arc_in;
	P.acc = acc;
	struct layout l;
	layout_of(g->n, g->m, shape, &l);
	char *base = (char *)(((uintptr_t)work + 255) & ~(uintptr_t)255);
	P.sigma = (double *)(base + l.sigma);
	P.delta = (double *)(base + l.delta);
	P.part = (double *)(base + l.part);
	P.T = (unsigned long long *)(base + l.T);
	P.cnt = (uint32_t *)(base + l.cnt);
	P.F[0] = (unsigned long long *)(base + l.F0);
	P.F[1] = (unsigned long long *)(base + l.F1);
	P.Ev = (uint32_t *)(base + l.Ev);
	P.Em = (unsigned long long *)(base + l.Em);
	P.Enp = (uint32_t *)(base + l.Enp);
	P.Epb = (uint32_t *)(base + l.Epb);
	P.It = (uint32_t *)(base + l.It);
	P.Ij = (uint32_t *)(base + l.Ij);
	P.H = (uint32_t *)(base + l.H);
	P.ctl = (struct bctl *)(base + l.ctl);

	int dev, sms, r;
	if ((r = sssp_gpu_device(0, &dev, &sms, "sssp_brandes_gpu", err, errlen)) < 0)
		return r;
	const process_fn proc[2][2] = { { brandes_process<K_COUNT, FWD>, brandes_process<K_COUNT, BWD> },
					{ brandes_process<K_SWEEP, FWD>, brandes_process<K_SWEEP, BWD> } };
	const process_fn comb[2] = { brandes_combine<FWD>, brandes_combine<BWD> };
	unsigned bx_c, bx_s, bx_p;
	if ((r = block_of(TUCCOMPI_KERNEL(brandes_compact), (const void *)brandes_compact, g->n, &bx_c, err, errlen)) < 0 ||
	    (r = block_of(TUCCOMPI_KERNEL(brandes_seed), (const void *)brandes_seed, g->n, &bx_s, err, errlen)) < 0 ||
	    (r = block_of(TUCCOMPI_KERNEL(brandes_process), (const void *)proc[K_SWEEP][BWD], (uint64_t)g->n * 32, &bx_p,
			  err, errlen)) < 0)
		return r;
	// Each process and combine variant runs as many warps at once as fit: they are bound by the
	// latency of their scattered row loads, so every resident warp counts. The tuner's block (one
	// warp for this characterisation) is kept unless a larger one keeps more warps resident (one-warp
	// blocks hit the per-SM block limit and the shared memory each block reserves, far below the
	// SM's warps); the grid then fills the SMs at that occupancy.
	unsigned gp[2][2], bp[2][2], gb[2], bb[2];
	for (int f = 0; f < 6; f++)
	{
		const void *fn = f < 4 ? (const void *)proc[f >> 1][f & 1] : (const void *)comb[f - 4];
		unsigned best_bx = bx_p, best_warps = 0, best_bps = 0;
		const unsigned cand[] = { bx_p, 64, 128, 256 };
		for (unsigned c = 0; c < 4; c++)
		{
			int bps = 0;
			if (cand[c] < bx_p || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, (int)cand[c], 0) != cudaSuccess)
				continue;
			if ((unsigned)bps * cand[c] / 32 > best_warps)
				best_bx = cand[c], best_warps = (unsigned)bps * cand[c] / 32, best_bps = (unsigned)bps;
		}
		if (!best_bps)
			FAIL(-EIO, "sssp_brandes_gpu: brandes_process cannot run %u threads per block on device %d", bx_p, dev);
		const unsigned grid = sssp_grid_for((uint64_t)g->n * 32, best_bx, best_bps * (unsigned)sms);
		if (f < 4)
			gp[f >> 1][f & 1] = grid, bp[f >> 1][f & 1] = best_bx;
		else
			gb[f - 4] = grid, bb[f - 4] = best_bx;
	}
	const unsigned cap = (unsigned)sms * 32, gc = sssp_grid_for(g->n, bx_c, cap), gs = sssp_grid_for(g->n, bx_s, cap);
	struct bctl h;
	CK(cudaMemsetAsync(P.T, 0, (g->m ? g->m : 1) * 8, s)); // arcs into unreached vertices stay 0
	for (int dir = FWD; dir <= BWD; dir++)
	{
		CK(cudaMemsetAsync(P.ctl, 0, sizeof(struct bctl), s));
		P.counts = !ordered;
		if (P.counts)
			CK(cudaMemsetAsync(P.cnt, 0, (size_t)g->n * SLOTS * sizeof(uint32_t), s));
		int mode = C_REACHED, zero = 0, one = 1, cur = 0;
		void *cargs[] = { &P, &mode, &dir, &one, &zero }; // the counting pass on counters [1]
		CK(cudaLaunchKernel((const void *)brandes_compact, dim3(gc), dim3(bx_c), cargs, 0, s));
		void *pargs[] = { &P, &one };
		CK(cudaLaunchKernel((const void *)proc[K_COUNT][dir], dim3(gp[K_COUNT][dir]), dim3(bp[K_COUNT][dir]), pargs, 0, s));
		if (ordered) // T is made: both sweeps in the order of distances (brandes_gpu_order.cu)
		{
			const struct brandes_order_borrowed bw = { P.sigma, P.delta, P.part, P.T, P.cnt };
			return brandes_order_run(g, shape, src, nsrc, dist, acc, &bw, base + l.total, share, s, err, errlen);
		}
		void *sargs[] = { &P };
		CK(cudaLaunchKernel((const void *)brandes_seed, dim3(gs), dim3(bx_s), sargs, 0, s));
		mode = C_FRONTIER;
		int with_push = 1;
		void *fargs[] = { &P, &mode, &dir, &cur, &with_push };
		void *rargs[] = { &P, &cur };
		uint64_t rounds = 0;
		for (unsigned group = 4;; group = group < MAX_GROUP ? 2 * group : MAX_GROUP)
		{
			for (unsigned q = 0; q < group; q++, rounds++)
			{
				cur = (int)(rounds & 1); // the arguments are read at each launch
				CK(cudaLaunchKernel((const void *)brandes_compact, dim3(gc), dim3(bx_c), fargs, 0, s));
				CK(cudaLaunchKernel((const void *)proc[K_SWEEP][dir], dim3(gp[K_SWEEP][dir]), dim3(bp[K_SWEEP][dir]), rargs, 0, s));
				CK(cudaLaunchKernel((const void *)comb[dir], dim3(gb[dir]), dim3(bb[dir]), rargs, 0, s));
			}
			CK(cudaMemcpyAsync(&h, P.ctl, sizeof(h), cudaMemcpyDeviceToHost, s));
			CK(cudaStreamSynchronize(s));
			if (!h.nNew[rounds & 1])
				break;
			if (rounds > (uint64_t)g->n + 2)
				FAIL(-EIO, "sssp_brandes_gpu: the %s sweep did not end after %llu rounds", dir == FWD ? "forward" : "backward",
				     (unsigned long long)rounds);
		}
		if (h.pairs_done != h.pairs_reached)
			FAIL(-ELOOP,
			     "sssp_brandes_gpu: the %s sweep ordered %llu of the %llu reached (vertex, source) pairs: tight arcs "
			     "form a cycle (arcs of weight 0)",
			     dir == FWD ? "forward" : "backward", h.pairs_done, h.pairs_reached);
	}
	return 0;
}

extern "C" int sssp_brandes_gpu(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *shape,
				const uint32_t *src, unsigned nsrc, const uint32_t *dist, struct tuccompi_exact *acc, void *work,
				unsigned share, void *stream, char *err, size_t errlen)
{
	int ordered = 0, trial = -1, r;
	if (!g || !shape)
		FAIL(-EINVAL, "sssp_brandes_gpu: NULL graph or shape");
	if ((r = brandes_sweep_pick(g, shape, &ordered, &trial, err, errlen)) < 0)
		return r;
	double t0 = tuccompi_wtime();
	r = sssp_gpu_settle(brandes_run(g, shape, src, nsrc, dist, acc, work, share, ordered, stream, err, errlen),
			    stream); // blocks until done
	if (r == 0)
		brandes_sweep_done(g, trial, tuccompi_wtime() - t0);
	return r;
}
