// The dial-brandes engine on a GPU: 512 sources per traversal (dial_gpu.cu, which logs its visits per
// warp), then Brandes' sweeps level by level (dial_brandes.h explains the algorithm,
// dial_brandes_sweep.h the state and each lane's steps, which the host replica of
// tests/apsp/dial_brandes.c runs too).
//
// A level of a sweep is three kernels in the stream's order (visits, items, combine), each reading
// only what earlier levels or kernels wrote: no grid barrier, no waiting on other threads. The host
// queues every level without looking (as many as the traversal had, and one: a sweep's control block
// says when it is over, and the kernels of the levels after that return at once), then checks each
// sweep's counts: every pair swept once, no failed check.
//
// A pull is a warp's: its lanes are 32 of the visit's pairs (a round), its arcs the vertex's, in CSR
// order, the same for every lane; for each arc the other end's ring entry (one load for the warp) says
// whether any pair can be tight there, the other end's mask which lanes are, and those lanes add the
// other end's value, in arc order (brandes.h's canonical sums, __dadd_rn / __dmul_rn / __ddiv_rn, so
// the CPU's bits). Dependencies and flows are summed over the warp exactly (integer adds) and added by
// lane 0: plainly where the warp owns the vertex or arc in this kernel, atomically where several items
// of one visit run at once.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "dial/dial_brandes.h"
#include "dial/dial_brandes_sweep.h"
#include "dial/dial_gpu.h"

#define FULL 0xffffffffu
#define CHUNK SSSP_BRANDES_CHUNK
#define BLOCK 256 // 8 warps: the visits kernel's warp r takes share r
#define ITEM_MASK ((1ull << DB_ITEM_BITS) - 1)

// Warp-wide: the exact sum of the lanes' x where on (lane 0's result).
__device__ __forceinline__ struct tuccompi_exact db_warp_exact(double x, bool on)
{
	struct tuccompi_exact s = { { 0, 0, 0 } };
	if (on && x != 0.0)
		s = tuccompi_exact_from(x);
#pragma unroll
	for (int off = 16; off > 0; off >>= 1)
	{
		struct tuccompi_exact o;
		for (int i = 0; i < 3; i++)
			o.w[i] = __shfl_down_sync(FULL, (unsigned long long)s.w[i], off);
		tuccompi_exact_combine(&s, &o);
	}
	return s;
}

// *dst += x exactly, atomically with respect to other such additions: each word's carry goes to the
// next word once, by the thread whose addition made it (a sum modulo 2^192 whatever the order).
__device__ __forceinline__ void db_exact_atomic(struct tuccompi_exact *dst, const struct tuccompi_exact &x)
{
	unsigned long long *w = (unsigned long long *)dst->w;
	const unsigned long long x0 = x.w[0], o0 = atomicAdd(&w[0], x0), c0 = o0 + x0 < o0;
	const unsigned long long a1 = (unsigned long long)x.w[1] + c0;
	unsigned long long c1 = a1 < c0;
	if (a1)
	{
		const unsigned long long o1 = atomicAdd(&w[1], a1);
		c1 += o1 + a1 < o1;
	}
	const unsigned long long a2 = (unsigned long long)x.w[2] + c1;
	if (a2)
		atomicAdd(&w[2], a2);
}

// Warp-wide: the lanes' x where on, exactly into *dst by lane 0 (nothing when no lane is on).
__device__ __forceinline__ void db_add(struct tuccompi_exact *dst, double x, bool on, bool atomic)
{
	if (!__ballot_sync(FULL, on && x != 0.0))
		return;
	const struct tuccompi_exact s = db_warp_exact(x, on);
	if ((threadIdx.x & 31) == 0)
	{
		if (atomic)
			db_exact_atomic(dst, s);
		else
			tuccompi_exact_combine(dst, &s);
	}
}

// A failed check: counted, the first one's vertex, level and kind kept (the host reports them).
__device__ __noinline__ void db_bad(struct db_ctl *C, uint32_t what, uint32_t v, uint32_t d)
{
	if (atomicAdd(&C->bad, 1u) == 0)
	{
		C->bad_vertex = v;
		C->bad_level = d;
		C->bad_what = what;
	}
}

// Warp-wide: lane's pair (source s; act: the lane has one) of the visit at level d sums its terms over
// the pull side's arcs [a0, a1), in arc order from 0.0. Backward with flows: each arc's flows
// sv x q(head) over the lanes into eacc[arc].
template <int DIR>
__device__ __forceinline__ double pull(const struct db_sweep &S, uint32_t d, unsigned s, bool act, uint64_t a0, uint64_t a1, double sv,
		       bool atomic)
{
	const uint32_t *col = DIR == DB_FWD ? S.in_col : S.col, *wt = DIR == DB_FWD ? S.in_w : S.w;
	double part = 0.0;
	for (uint64_t a = a0; a < a1; a += 4) // four arcs' ring entries, then their values, in flight together
	{
		uint32_t o[4];
		double val[4];
		bool t[4];
#pragma unroll
		for (int q = 0; q < 4; q++)
			o[q] = a + q < a1 ? db_other(&S, DIR, d, __ldg(&col[a + q]), __ldg(&wt[a + q])) : DB_NONE;
#pragma unroll
		for (int q = 0; q < 4; q++)
		{
			val[q] = 0.0;
			t[q] = act && o[q] != DB_NONE && db_value(&S, o[q], s, &val[q]);
		}
#pragma unroll
		for (int q = 0; q < 4; q++)
		{
			if (t[q])
				part = __dadd_rn(part, val[q]);
			if (DIR == DB_BWD && S.eacc && o[q] != DB_NONE) // the same for every lane
				db_add(&S.eacc[a + q], t[q] ? __dmul_rn(sv, val[q]) : 0.0, t[q], atomic);
		}
	}
	return part;
}

// Warp-wide: the lane's pair (k-th of the visit of v at level d, its value at pairs[pk]) with its sum
// tot: forward its path count; backward q in sigma's place and its dependency into acc[v].
template <int DIR>
__device__ __forceinline__ void finish(const struct db_sweep &S, uint32_t v, uint32_t d, uint64_t pk, unsigned s, bool act, double tot,
		       double sv, bool atomic)
{
	const bool own = act && db_own(&S, s, v);
	if (DIR == DB_FWD)
	{
		if (act)
		{
			S.pairs[pk] = own ? 1.0 : tot;
			if (!own && !(tot > 0.0))
				db_bad(S.ctl, DB_BAD_SIGMA, v, d);
		}
		return;
	}
	double dv = 0.0;
	if (act)
	{
		if (!(sv > 0.0))
			db_bad(S.ctl, DB_BAD_ZERO, v, d);
		dv = __dmul_rn(sv, tot);
		S.pairs[pk] = __ddiv_rn(__dadd_rn(1.0, dv), sv);
	}
	db_add(&S.acc[v], dv, act && !own, atomic);
}

// Warp-wide: visit i (head h) at its level: swept here when light, else listed for the grid.
template <int DIR>
__device__ __forceinline__ void visit(const struct db_sweep &S, uint64_t i, uint4 h)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t v = h.x, d = h.y, poff = h.z, c = h.w;
	const uint64_t *row = DIR == DB_FWD ? S.in_rowptr : S.rowptr;
	const uint64_t b = __ldg(&row[v]), e = __ldg(&row[v + 1]);
	if (lane == 0) // for the levels after this one (none reads this slot at this level)
		*(uint2 *)&S.ring[2 * ((uint64_t)(d % S.R) * S.n + v)] = make_uint2(d, (uint32_t)i);
	uint32_t chunks, rounds;
	if (db_light(e - b, c, S.light_work, &chunks, &rounds))
	{
		for (uint32_t q = 0; q < rounds; q++)
		{
			const uint32_t k = 32 * q + lane;
			const bool act = k < c;
			const unsigned s = act ? db_select(S.mask + i * DB_WORDS, k) : 0;
			const double sv = DIR == DB_BWD && act ? S.pairs[poff + k] : 0.0;
			const double part = pull<DIR>(S, d, s, act, b, e, sv, false);
			finish<DIR>(S, v, d, poff + k, s, act, __dadd_rn(0.0, part), sv, false);
		}
		return;
	}
	if (lane == 0)
	{
		struct db_ctl *C = S.ctl;
		const unsigned long long items = (unsigned long long)chunks * rounds;
		const unsigned long long old = atomicAdd(&C->heavy, (1ull << DB_ITEM_BITS) | items);
		const uint32_t ent = (uint32_t)(old >> DB_ITEM_BITS);
		S.hrec[ent] = (uint32_t)i;
		S.hbase[ent] = old & ITEM_MASK;
		if (chunks > 1)
		{
			const uint32_t pb = atomicAdd(&C->parts, (uint32_t)items);
			S.hpb[ent] = pb;
			C->multi = 1;
			if ((uint64_t)pb + items > S.part_cap)
				db_bad(S.ctl, DB_BAD_PARTS, v, d);
		}
	}
}

// Warp r: share r's visits at the level; then the next level's candidate and the pairs swept.
template <int DIR>
__global__ void __launch_bounds__(BLOCK) db_visits(const struct db_sweep S)
{
	struct db_ctl *C = S.ctl;
	if (*(volatile uint32_t *)&C->done)
		return;
	__shared__ uint32_t s_next;
	__shared__ unsigned long long s_pairs;
	if (threadIdx.x == 0)
		s_next = DIR == DB_FWD ? DB_NONE : 0, s_pairs = 0;
	__syncthreads();
	const unsigned lane = threadIdx.x & 31;
	const uint32_t d = C->level, r = blockIdx.x * (BLOCK / 32) + (threadIdx.x >> 5);
	uint32_t next = DIR == DB_FWD ? DB_NONE : 0;
	unsigned long long pairs = 0;
	if (r < S.W) // warp-uniform
	{
		uint64_t first;
		uint32_t vertices;
		sssp_dial_gpu_share(S.n, S.W, r, &first, &vertices);
		const uint64_t base = first * S.visits;
		uint32_t cur = S.cur[r];
		const uint32_t cnt = __ldg(&S.count[r]);
		for (;;)
		{
			// the next 32 visits of the share, a head per lane; those at the level come first (the share
			// is in level order, and no visit left is below the level forward, above it backward)
			const uint32_t left = DIR == DB_FWD ? cnt - cur : cur, take = left < 32 ? left : 32;
			if (!take)
				break;
			uint4 mine = make_uint4(0, DB_NONE, 0, 0);
			if (lane < take)
				mine = __ldg((const uint4 *)&S.head[4 * (base + (DIR == DB_FWD ? cur + lane : cur - 1 - lane))]);
			const unsigned at = __ballot_sync(FULL, lane < take && mine.y == d);
			const unsigned run = at == FULL ? 32 : (unsigned)__ffs(~at) - 1;
			for (unsigned k = 0; k < run; k++)
			{
				const uint4 h = make_uint4(__shfl_sync(FULL, mine.x, k), __shfl_sync(FULL, mine.y, k),
							   __shfl_sync(FULL, mine.z, k), __shfl_sync(FULL, mine.w, k));
				visit<DIR>(S, base + (DIR == DB_FWD ? cur + k : cur - 1 - k), h);
				pairs += h.w;
			}
			cur = DIR == DB_FWD ? cur + run : cur - run;
			if (run < take)
			{
				const uint32_t lv = __shfl_sync(FULL, mine.y, run);
				next = DIR == DB_FWD ? lv : lv + 1;
				break;
			}
		}
		if (lane == 0)
			S.cur[r] = cur;
	}
	if (lane == 0)
	{
		if (DIR == DB_FWD)
			atomicMin(&s_next, next);
		else
			atomicMax(&s_next, next);
		atomicAdd(&s_pairs, pairs);
	}
	__syncthreads();
	if (threadIdx.x == 0)
	{
		if (DIR == DB_FWD && s_next != DB_NONE)
			atomicMin(&C->next, s_next);
		if (DIR == DB_BWD && s_next != 0)
			atomicMax(&C->next, s_next);
		if (s_pairs)
			atomicAdd(&C->pairs_done, s_pairs);
	}
}

// A warp per item of the level's heavy list: its chunk of the pull side for its round's pairs.
template <int DIR>
__global__ void __launch_bounds__(BLOCK) db_items(const struct db_sweep S)
{
	const struct db_ctl *C = S.ctl;
	if (*(const volatile uint32_t *)&C->done)
		return;
	const unsigned long long hv = C->heavy, I = hv & ITEM_MASK;
	const uint32_t E = (uint32_t)(hv >> DB_ITEM_BITS), d = C->level, lane = threadIdx.x & 31;
	const uint64_t W = (uint64_t)gridDim.x * (BLOCK / 32);
	for (uint64_t t = (uint64_t)blockIdx.x * (BLOCK / 32) + (threadIdx.x >> 5); t < I; t += W) // warp-uniform
	{
		const uint32_t ent = db_entry_of(S.hbase, E, t), i = S.hrec[ent];
		const uint4 h = __ldg((const uint4 *)&S.head[4 * (uint64_t)i]);
		const uint32_t v = h.x, poff = h.z, c = h.w;
		const uint64_t *row = DIR == DB_FWD ? S.in_rowptr : S.rowptr;
		const uint64_t b = __ldg(&row[v]), e = __ldg(&row[v + 1]);
		uint32_t chunks, rounds;
		db_light(e - b, c, S.light_work, &chunks, &rounds);
		const uint64_t local = t - S.hbase[ent];
		const uint32_t j = (uint32_t)(local / rounds), q = (uint32_t)(local % rounds);
		const uint32_t k = 32 * q + lane;
		const bool act = k < c;
		const unsigned s = act ? db_select(S.mask + (uint64_t)i * DB_WORDS, k) : 0;
		const double sv = DIR == DB_BWD && act ? S.pairs[poff + k] : 0.0;
		const uint64_t a0 = b + (uint64_t)j * CHUNK, a1 = a0 + CHUNK < e ? a0 + CHUNK : e;
		const double part = pull<DIR>(S, d, s, act, a0, a1, sv, true);
		if (chunks == 1)
			finish<DIR>(S, v, d, poff + k, s, act, __dadd_rn(0.0, part), sv, true);
		else if (act)
			S.part[((uint64_t)S.hpb[ent] + (uint64_t)j * rounds + q) * 32 + lane] = part;
	}
}

// The level's end: the next level, or the sweep's end (one thread, once every block of the combine
// kernel is done with the counters).
template <int DIR>
__device__ void control(struct db_ctl *C)
{
	__threadfence();
	volatile struct db_ctl *V = C;
	const uint32_t nx = V->next;
	if (DIR == DB_FWD)
	{
		if (nx == DB_NONE)
			V->done = 1;
		else
			V->level = nx;
		V->next = DB_NONE;
	}
	else
	{
		if (nx == 0)
			V->done = 1;
		else
			V->level = nx - 1;
		V->next = 0;
	}
	V->heavy = 0;
	V->parts = 0;
	V->multi = 0;
	V->blocks = 0;
	V->levels = V->levels + 1;
	__threadfence();
}

// A warp per listed visit of several chunks: its chunks' partial sums in chunk order, then its pairs'
// values; the last block to end sets the next level.
template <int DIR>
__global__ void __launch_bounds__(BLOCK) db_combine(const struct db_sweep S)
{
	struct db_ctl *C = S.ctl;
	if (*(volatile uint32_t *)&C->done)
		return;
	const uint32_t lane = threadIdx.x & 31, d = C->level;
	if (C->multi)
	{
		const uint32_t E = (uint32_t)(C->heavy >> DB_ITEM_BITS);
		const uint64_t W = (uint64_t)gridDim.x * (BLOCK / 32);
		for (uint64_t ent = (uint64_t)blockIdx.x * (BLOCK / 32) + (threadIdx.x >> 5); ent < E; ent += W) // warp-uniform
		{
			const uint32_t i = S.hrec[ent];
			const uint4 h = __ldg((const uint4 *)&S.head[4 * (uint64_t)i]);
			const uint32_t v = h.x, poff = h.z, c = h.w;
			const uint64_t *row = DIR == DB_FWD ? S.in_rowptr : S.rowptr;
			uint32_t chunks, rounds;
			db_light(__ldg(&row[v + 1]) - __ldg(&row[v]), c, S.light_work, &chunks, &rounds);
			if (chunks == 1)
				continue;
			const uint64_t pb = S.hpb[ent];
			for (uint32_t q = 0; q < rounds; q++)
			{
				const uint32_t k = 32 * q + lane;
				const bool act = k < c;
				const unsigned s = act ? db_select(S.mask + (uint64_t)i * DB_WORDS, k) : 0;
				const double sv = DIR == DB_BWD && act ? S.pairs[poff + k] : 0.0;
				double tot = 0.0;
				for (uint32_t j = 0; act && j < chunks; j++)
					tot = __dadd_rn(tot, S.part[(pb + (uint64_t)j * rounds + q) * 32 + lane]);
				finish<DIR>(S, v, d, poff + k, s, act, tot, sv, false);
			}
		}
	}
	__syncthreads();
	if (threadIdx.x == 0)
	{
		__threadfence();
		if (atomicAdd(&C->blocks, 1u) == gridDim.x - 1)
			control<DIR>(C);
	}
}

// A sweep's control block at its start.
__global__ void db_start(struct db_ctl *C, uint32_t level, uint32_t next)
{
	memset(C, 0, sizeof(*C));
	C->level = level;
	C->next = next;
}

// ------------------------------------------------------------------ the host side

struct layout
{
	size_t trav, head, mask, count, cur, ring, pairs, hrec, hpb, hbase, part, src, ctl, total;
	uint64_t cap, part_cap;
};

static size_t place(size_t *off, size_t bytes)
{
	size_t at = *off;
	*off = (at + bytes + 255) & ~(size_t)255;
	return at;
}

static void layout_of(uint32_t n, uint32_t wmax, uint32_t visits, const struct sssp_dial_brandes_shape *sh,
		      struct layout *l)
{
	size_t off = 0, nn = n ? n : 1, slots = (nn + 31) / 32 * 32, R = (size_t)wmax + 1;
	l->cap = (uint64_t)slots * visits;
	l->part_cap = sh->heavy_chunks * (SSSP_DIAL_BRANDES_GPU_LANES / 32);
	l->trav = place(&off, sssp_dial_gpu_workspace_size(n, wmax, 0, 0));
	l->head = place(&off, l->cap * 16);
	l->mask = place(&off, l->cap * 4 * DB_WORDS);
	l->count = place(&off, (slots / 32 + 8) * 4); // the traversal has at most one warp per bitmap word, and 7
	l->cur = place(&off, (slots / 32 + 8) * 4);
	l->ring = place(&off, R * nn * 8);
	l->pairs = place(&off, slots * SSSP_DIAL_BRANDES_GPU_LANES * 8);
	l->hrec = place(&off, nn * 4);
	l->hpb = place(&off, nn * 4);
	l->hbase = place(&off, nn * 8);
	l->part = place(&off, (l->part_cap ? l->part_cap : 1) * 32 * 8);
	l->src = place(&off, SSSP_DIAL_BRANDES_GPU_LANES * 4);
	l->ctl = place(&off, 2 * sizeof(struct db_ctl));
	l->total = off;
}

extern "C" size_t sssp_dial_brandes_gpu_workspace_size(uint32_t n, uint32_t wmax, const struct sssp_dial_brandes_shape *s)
{
	struct layout l;
	layout_of(n, wmax ? wmax : 1, SSSP_DIAL_BRANDES_GPU_VISITS, s, &l);
	return l.total + 256;
}

#define FAIL(code, ...)                                     \
	do                                                  \
	{                                                   \
		if (err && errlen)                          \
			snprintf(err, errlen, __VA_ARGS__); \
		return (code);                              \
	} while (0)

#define CK(call)                                                                                         \
	do                                                                                               \
	{                                                                                                \
		cudaError_t e_ = (call);                                                                 \
		if (e_ != cudaSuccess)                                                                   \
		{                                                                                        \
			cudaStreamSynchronize(s);                                                        \
			FAIL(-EIO, "sssp_dial_brandes_gpu_run: %s: %s", #call, cudaGetErrorString(e_)); \
		}                                                                                        \
	} while (0)

static const char *bad_what(uint32_t w)
{
	return w == DB_BAD_SIGMA ? "a pair other than its source's own counted no path"
	       : w == DB_BAD_ZERO ? "a pair had no path count in the backward sweep"
	       : w == DB_BAD_PARTS ? "more partial sums than the workspace holds"
				   : "?";
}

extern "C" int sssp_dial_brandes_gpu_run(const struct sssp_brandes_graph *g, const uint32_t *src, unsigned nsrc,
					 void *work, const struct sssp_dial_brandes_params *p,
					 const struct sssp_dial_brandes_shape *shape, struct tuccompi_exact *acc, void *stream,
					 struct sssp_summary *out, char *err, size_t errlen)
{
	cudaStream_t s = (cudaStream_t)stream;
	if (!g || !src || !work || !p || !shape || !acc || !out || nsrc < 1 || nsrc > SSSP_DIAL_BRANDES_GPU_LANES)
		FAIL(-EINVAL, "sssp_dial_brandes_gpu_run: bad arguments (%u sources; 1..%d)", nsrc, SSSP_DIAL_BRANDES_GPU_LANES);
	if (!g->in_rowptr || !g->in_col || !g->in_w)
		FAIL(-EINVAL, "sssp_dial_brandes_gpu_run: the graph's in-arcs are missing");
	const uint32_t visits = p->visits ? p->visits : SSSP_DIAL_BRANDES_GPU_VISITS;
	if (visits > SSSP_DIAL_BRANDES_GPU_VISITS)
		FAIL(-EINVAL, "sssp_dial_brandes_gpu_run: %u visits per vertex; the workspace holds %u", visits,
		     SSSP_DIAL_BRANDES_GPU_VISITS);
	struct layout l;
	layout_of(g->n, p->wmax, visits, shape, &l);
	char *base = (char *)(((uintptr_t)work + 255) & ~(uintptr_t)255);
	struct sssp_dial_gpu_log log = {
		.head = (uint32_t *)(base + l.head),
		.mask = (uint32_t *)(base + l.mask),
		.count = (uint32_t *)(base + l.count),
		.visits = visits,
	};
	struct sssp_dial_params dp;
	memset(&dp, 0, sizeof dp);
	dp.wmax = p->wmax;
	dp.share = p->share;
	dp.heavy_deg = p->heavy_deg;
	dp.log = &log;
	const struct sssp_dial_dgraph dg = { g->n, g->m, g->rowptr, g->col, g->w };
	int ret = sssp_dial_gpu_run(&dg, src, nsrc, base + l.trav, &dp, stream, out, NULL, err, errlen); // blocks
	if (ret < 0)
		return ret;
	if (log.overflow)
		FAIL(-ENOSPC, "sssp_dial_brandes_gpu_run: %u sources settle more than %u visits per vertex; split them", nsrc,
		     visits);
	uint64_t pairs = 0;
	for (unsigned i = 0; i < nsrc; i++)
		pairs += out[i].reached;
	struct db_sweep S;
	memset(&S, 0, sizeof S);
	S.n = g->n;
	S.nsrc = nsrc;
	S.W = log.warps;
	S.R = p->wmax + 1;
	S.visits = visits;
	S.light_work = p->light_work ? p->light_work : DB_LIGHT_WORK;
	S.rowptr = g->rowptr;
	S.in_rowptr = g->in_rowptr;
	S.col = g->col;
	S.w = g->w;
	S.in_col = g->in_col;
	S.in_w = g->in_w;
	S.head = log.head;
	S.mask = log.mask;
	S.count = log.count;
	S.src = (const uint32_t *)(base + l.src);
	S.cur = (uint32_t *)(base + l.cur);
	S.ring = (uint32_t *)(base + l.ring);
	S.pairs = (double *)(base + l.pairs);
	S.hrec = (uint32_t *)(base + l.hrec);
	S.hpb = (uint32_t *)(base + l.hpb);
	S.hbase = (unsigned long long *)(base + l.hbase);
	S.part = (double *)(base + l.part);
	S.part_cap = l.part_cap;
	S.acc = acc;
	S.eacc = p->edges ? acc + g->n : NULL;
	struct db_ctl *ctl = (struct db_ctl *)(base + l.ctl);
	CK(cudaMemcpyAsync(base + l.src, src, nsrc * sizeof(uint32_t), cudaMemcpyHostToDevice, s));
	CK(cudaMemsetAsync(S.ring, 0xff, (size_t)S.R * g->n * 8, s)); // no level is all ones
	int dev, sms = 0;
	CK(cudaGetDevice(&dev));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	const unsigned gv = (S.W + BLOCK / 32 - 1) / (BLOCK / 32), gi = (unsigned)sms * 4;
	const uint32_t levels = out[0].phases + 2; // the traversal's levels, and the backward's first look
	for (int dir = DB_FWD; dir <= DB_BWD; dir++)
	{
		S.ctl = ctl + dir;
		db_start<<<1, 1, 0, s>>>(S.ctl, dir == DB_FWD ? 0 : DB_NONE - 1, dir == DB_FWD ? DB_NONE : 0);
		CK(cudaGetLastError());
		if (dir == DB_FWD)
			CK(cudaMemsetAsync(S.cur, 0, (size_t)S.W * 4, s));
		else
			CK(cudaMemcpyAsync(S.cur, S.count, (size_t)S.W * 4, cudaMemcpyDeviceToDevice, s));
		for (uint32_t lv = 0; lv < levels; lv++)
		{
			if (dir == DB_FWD)
			{
				db_visits<DB_FWD><<<gv, BLOCK, 0, s>>>(S);
				db_items<DB_FWD><<<gi, BLOCK, 0, s>>>(S);
				db_combine<DB_FWD><<<gi, BLOCK, 0, s>>>(S);
			}
			else
			{
				db_visits<DB_BWD><<<gv, BLOCK, 0, s>>>(S);
				db_items<DB_BWD><<<gi, BLOCK, 0, s>>>(S);
				db_combine<DB_BWD><<<gi, BLOCK, 0, s>>>(S);
			}
			CK(cudaGetLastError());
		}
	}
	static thread_local struct db_ctl *res;
	if (!res && cudaMallocHost((void **)&res, 2 * sizeof(*res)) != cudaSuccess)
		FAIL(-ENOMEM, "sssp_dial_brandes_gpu_run: no pinned host memory for %zu bytes", 2 * sizeof(*res));
	CK(cudaMemcpyAsync(res, ctl, 2 * sizeof(*res), cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	for (int dir = DB_FWD; dir <= DB_BWD; dir++)
	{
		const struct db_ctl *c = &res[dir];
		const char *sw = dir == DB_FWD ? "forward" : "backward";
		if (c->bad)
			FAIL(-EIO, "sssp_dial_brandes_gpu_run: the %s sweep failed %u check(s), the first at vertex %u, level %u: %s",
			     sw, c->bad, c->bad_vertex, c->bad_level, bad_what(c->bad_what));
		if (!c->done || c->pairs_done != pairs)
			FAIL(-EIO,
			     "sssp_dial_brandes_gpu_run: the %s sweep %s after %u levels (the traversal had %u), %llu of the %llu "
			     "pairs swept",
			     sw, c->done ? "ended" : "did not end", c->levels, out[0].phases, c->pairs_done,
			     (unsigned long long)pairs);
	}
	return 0;
}
