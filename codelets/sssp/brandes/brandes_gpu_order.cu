// Brandes' sweeps on a GPU in one pass each, in the order of distances (brandes_gpu.cuh), for graphs
// whose arcs all weigh at least 1: there, a tight arc (u, v) of any slot has d(u) < d(v), so the
// (vertex, slot) pairs sorted by distance are a topological order of every slot's DAG at once, and
// floor(d / w_min) keeps that order while it shortens the keys (a tight arc crosses at least one
// step of w_min).
//
//   keys     every reached (vertex, slot) pair, keyed by floor(d / w_min); sorted (CUB's radix sort,
//            as many bits as the largest key needs)
//   masks    the tight arcs by slot, both sides (brandes_order_transpose): a pair finds its tight
//            arcs in a word or two of bits instead of reading 8 bytes of slots per arc
//   forward  a persistent grid takes the sorted pairs in order, 32 x PER at a time per warp (tickets
//            from one counter), one pair per thread: sigma(v) in slot s pulls sigma(u) over v's tight
//            in-arcs, in the canonical order of brandes.h (arc order, chunks of 256, then the chunks'
//            sums). A tail's sigma may still be in the making: the thread waits until it is written
//            (sigma starts as an all-ones NaN that no count can be). Waiting is safe whatever the
//            grid's residency: a pair only waits for pairs of smaller keys, which took their tickets
//            earlier from threads that are running (the smallest unfinished pair always runs).
//   backward the same from the far end of the order: delta(v) = sigma(v) x the sum of
//            q(w) = (1 + delta(w)) / sigma(w) over the tight out-arcs, waiting for q(w), which w's
//            pair writes in sigma(w)'s place with the sign bit set (a count never has it)
//   sums     a warp per vertex adds its 64 slots' dependencies (sources excluded) into the sums,
//            exactly (brandes_warp_add_exact)
// Each (vertex, slot) pair is served once per sweep, and each of its arcs read once, where Kahn's
// rounds (brandes_gpu.cu) serve a vertex in every round that readies some of its slots, reading all
// its arcs again each time. The same bits as the rounds and as the CPU: the same sums in the same
// order, with __dadd_rn / __ddiv_rn / __dmul_rn.
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "brandes/brandes_gpu.cuh"

#define INF BRANDES_INF
#define FULL BRANDES_FULL
#define SLOTS BRANDES_SLOTS
#define CHUNK SSSP_BRANDES_CHUNK
// Pairs per thread per ticket. A thread serves its pairs one after another, so fewer keep more
// pairs in flight at the cost of more tickets (one atomic per warp and ticket): a few pairs, not
// one, and not so many that a warp's pairs wait on each other.
#ifndef PER
#define PER 2
#endif
#define UNSET 0xffffffffffffffffull        // sigma not written yet (a NaN)
#define QBIT 0x8000000000000000ull          // sigma's place once the backward sweep wrote q there
#define STUCK_NS (30ull * 1000000000ull)  // a wait this long means a broken order: give up

struct octl
{
	unsigned nr, maxkey;                // reached pairs, the largest key
	unsigned long long ticket[2];       // the sweeps' next pairs
	unsigned nitems[2];                 // the sweeps' items (expanded sweeps)
	unsigned stuck;                     // a thread waited STUCK_NS: the run fails
};

struct oparams
{
	uint32_t n, nsrc, w_min;
	const uint64_t *rowptr, *in_rowptr;
	const uint32_t *col, *in_col, *arc_in, *dist;
	const unsigned long long *T;
	uint32_t *Tin, *Tout;     // tight arcs by slot: word g * 64 + s, bit j: arc 32 g + j (in-arcs; out-arcs)
	double *sigma, *delta;
	double *part;             // a heavy vertex's chunk sums: part[(hb[v] + chunk) * 64 + slot]
	uint32_t *keys, *vals;    // unsorted pairs (keys: floor(d / w_min); vals: v * 64 + slot)
	const uint32_t *order;    // the pairs sorted by key
	uint32_t *hb;             // a heavy vertex's first chunk in part (for the sweep under way)
	uint32_t *icnt, *ipos;    // the sweep's items per pair, and where they start
	unsigned long long *items; // the sweep's items in order: pair | chunk + 1 << 32 (0: the pair's own)
	struct tuccompi_exact *acc;
	struct octl *ctl;
	uint32_t src[SLOTS];
};

__device__ __forceinline__ unsigned long long ld_relaxed(const double *p)
{
	unsigned long long r;
	asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(r) : "l"(p) : "memory");
	return r;
}

__device__ __forceinline__ void st_relaxed(double *p, double x)
{
	asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(__double_as_longlong(x)) : "memory");
}

__device__ __forceinline__ unsigned long long now_ns()
{
	unsigned long long t;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

// Written: a value other than UNSET (sigma, part), or q (Q: the sign bit, which no sigma has: a
// count is at least 1). q = (1 + delta) / sigma is never negative; its sign bit says it is there.
template <bool Q>
__device__ __forceinline__ bool written(unsigned long long b)
{
	return Q ? (b & QBIT) != 0 : b != UNSET;
}

template <bool Q>
__device__ __forceinline__ double value_of(unsigned long long b)
{
	return __longlong_as_double(Q ? b & ~QBIT : b);
}

// The value at p once another thread has written it (or 0.0 when the run is given up). The sleeps
// double from a short one up to a cap, so that the many threads a deep graph keeps waiting poll
// less while a value soon written is seen soon.
template <bool Q>
__device__ __noinline__ double wait_for(const double *p, struct octl *ctl)
{
	const unsigned long long t0 = now_ns();
	unsigned ns = 64;
	for (unsigned k = 1;; k++)
	{
		__nanosleep(ns);
		ns = ns < 4096 ? 2 * ns : ns;
		unsigned long long b = ld_relaxed(p);
		if (written<Q>(b))
			return value_of<Q>(b);
		if (k % 64 == 0 && (*(volatile unsigned *)&ctl->stuck || now_ns() - t0 > STUCK_NS))
		{
			atomicExch(&ctl->stuck, 1u);
			return 0.0;
		}
	}
}

// ------------------------------------------------------------------ keys

#define KEYS_PER 8 // pairs per thread per tile of the keys' kernel: one atomic per 8 x 256 pairs

__global__ void __launch_bounds__(256) brandes_order_keys(const struct oparams P)
{
	__shared__ unsigned s_cnt[8], s_base;
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, nwb = blockDim.x >> 5;
	const uint64_t total = (uint64_t)P.n * SLOTS, tile = (uint64_t)blockDim.x * KEYS_PER;
	unsigned kmax = 0;
	for (uint64_t t0 = (uint64_t)blockIdx.x * tile; t0 < total; t0 += (uint64_t)gridDim.x * tile) // block-uniform
	{
		// a warp's KEYS_PER x 32 consecutive pairs; one atomic per tile (one per warp put millions of
		// atomics on one address per batch: docs/apsp.md)
		const uint64_t w0 = t0 + (uint64_t)wib * 32 * KEYS_PER;
		unsigned bal[KEYS_PER], key[KEYS_PER], c = 0;
#pragma unroll
		for (int k = 0; k < KEYS_PER; k++)
		{
			const uint64_t i = w0 + 32 * k + lane;
			const uint32_t d = i < total ? P.dist[i] : INF;
			const bool ok = d != INF && (unsigned)(i % SLOTS) < P.nsrc;
			bal[k] = __ballot_sync(FULL, ok);
			key[k] = ok ? d / P.w_min : 0;
			kmax = key[k] > kmax ? key[k] : kmax;
			c += __popc(bal[k]);
		}
		if (lane == 0)
			s_cnt[wib] = c;
		__syncthreads();
		if (threadIdx.x == 0)
		{
			unsigned sum = 0;
			for (unsigned w = 0; w < nwb; w++)
			{
				const unsigned x = s_cnt[w];
				s_cnt[w] = sum;
				sum += x;
			}
			s_base = sum ? atomicAdd(&P.ctl->nr, sum) : 0;
		}
		__syncthreads();
		unsigned at = s_base + s_cnt[wib];
		__syncthreads(); // s_cnt and s_base are rewritten by the next tile
#pragma unroll
		for (int k = 0; k < KEYS_PER; k++)
		{
			if ((bal[k] >> lane) & 1)
			{
				const unsigned j = at + __popc(bal[k] & ((1u << lane) - 1));
				P.keys[j] = key[k];
				P.vals[j] = (uint32_t)(w0 + 32 * k + lane);
			}
			at += __popc(bal[k]);
		}
	}
	for (int off = 16; off > 0; off >>= 1)
	{
		unsigned o = __shfl_down_sync(FULL, kmax, off);
		kmax = o > kmax ? o : kmax;
	}
	if (lane == 0 && kmax)
		atomicMax(&P.ctl->maxkey, kmax);
}

// Warp-wide transpose of a 32 x 32 bit matrix: lane i holds row i (bit j: M[i][j]); it returns column
// i (bit j: M[j][i]). Five exchanges of blocks with the lane k apart, 16 to 1.
__device__ __forceinline__ uint32_t transpose32(uint32_t x)
{
	const unsigned lane = threadIdx.x & 31;
	const uint32_t masks[5] = { 0x0000ffffu, 0x00ff00ffu, 0x0f0f0f0fu, 0x33333333u, 0x55555555u };
#pragma unroll
	for (int t = 0; t < 5; t++)
	{
		const unsigned k = 16u >> t;
		const uint32_t m = masks[t], y = __shfl_xor_sync(FULL, x, k);
		x = lane & k ? (x & ~m) | ((y >> k) & m) : (x & m) | ((y << k) & ~m);
	}
	return x;
}

// The tight masks by slot (T holds, per in-arc, the slots in which it is tight): a warp per 32 arcs
// of one side, the two halves of their masks transposed; word g * 64 + s holds arcs 32 g .. 32 g + 31
// in slot s. A pair then reads its arcs' bits in one or two words, where T made it read 8 bytes per
// arc (R-MAT: 60 in-arcs per reached vertex), and the pairs of one vertex read neighbouring words.
__global__ void brandes_order_transpose(const struct oparams P, uint64_t m)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t groups = (m + 31) / 32, W = (uint64_t)gridDim.x * (blockDim.x >> 5);
	for (uint64_t g = (uint64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); g < groups; g += W) // warp-uniform
	{
		const uint64_t a = g * 32 + lane;
		const unsigned long long ti = a < m ? P.T[a] : 0, to = a < m ? P.T[P.arc_in[a]] : 0;
		P.Tin[g * SLOTS + lane] = transpose32((uint32_t)ti);
		P.Tin[g * SLOTS + 32 + lane] = transpose32((uint32_t)(ti >> 32));
		P.Tout[g * SLOTS + lane] = transpose32((uint32_t)to);
		P.Tout[g * SLOTS + 32 + lane] = transpose32((uint32_t)(to >> 32));
	}
}

// ------------------------------------------------------------------ sweeps

// Sum over the arcs [b, e) (one chunk: at most CHUNK) of the pull side (DIR 0: in-arcs, of sigma(u);
// 1: out-arcs, of q(w) = (1 + delta(w)) / sigma(w), which w's pair leaves in sigma's place) that are
// tight in slot s, in arc order from 0.0; the rows' values waited for while not written.
template <int DIR>
__device__ __forceinline__ double sum_chunk(const struct oparams &P, uint64_t b, uint64_t e, unsigned s)
{
	const uint32_t *col = DIR == 0 ? P.in_col : P.col;
	const uint32_t *Tt = DIR == 0 ? P.Tin : P.Tout;
	const double *rows = P.sigma;
	double part = 0.0;
	if (b >= e)
		return part;
	for (uint64_t g = b >> 5, ge = (e - 1) >> 5; g <= ge; g++)
	{
		const uint64_t lo = g << 5;
		uint32_t w = __ldg(&Tt[g * SLOTS + s]);
		if (lo < b)
			w &= ~0u << (b - lo);
		if (e - lo < 32)
			w &= (1u << (e - lo)) - 1;
		while (w) // up to 4 tight arcs' rows requested before any is used, added in arc order
		{
			uint64_t at[4];
			unsigned long long x[4];
			int c = 0;
#pragma unroll
			for (int i = 0; i < 4; i++)
				if (w)
				{
					at[i] = (uint64_t)__ldg(&col[lo + __ffs(w) - 1]) * SLOTS + s;
					w &= w - 1;
					c = i + 1;
				}
#pragma unroll
			for (int i = 0; i < 4; i++)
				if (i < c)
					x[i] = ld_relaxed(rows + at[i]);
#pragma unroll
			for (int i = 0; i < 4; i++)
				if (i < c)
				{
					const double y = written<DIR == 1>(x[i]) ? value_of<DIR == 1>(x[i])
										: wait_for<DIR == 1>(rows + at[i], P.ctl);
					part = __dadd_rn(part, y);
				}
		}
	}
	return part;
}

// One item of a sweep: a chunk of a heavy pair (its sum into part), or a pair's own value (a light
// pair's one chunk; a heavy pair's chunk sums in chunk order, from 0.0: the canonical order).
template <int DIR>
__device__ __forceinline__ void sweep_item(const struct oparams &P, unsigned long long item)
{
	const uint32_t pr = (uint32_t)item, v = pr / SLOTS, s = pr % SLOTS, j = (uint32_t)(item >> 32);
	const uint64_t *row = DIR == 0 ? P.in_rowptr : P.rowptr;
	const uint64_t b = row[v], e = row[v + 1], at = (uint64_t)v * SLOTS + s;
	if (j > 0)
	{
		const uint64_t cb = b + (uint64_t)(j - 1) * CHUNK, ce = cb + CHUNK < e ? cb + CHUNK : e;
		st_relaxed(&P.part[((uint64_t)P.hb[v] + j - 1) * SLOTS + s], sum_chunk<DIR>(P, cb, ce, s));
		return;
	}
	if (DIR == 0 && s < P.nsrc && P.src[s] == v)
	{
		st_relaxed(&P.sigma[at], 1.0);
		return;
	}
	double total;
	if (e - b > CHUNK)
	{
		total = 0.0;
		const uint64_t nch = (e - b + CHUNK - 1) / CHUNK;
		for (uint64_t c = 0; c < nch; c++)
		{
			const double *p = &P.part[((uint64_t)P.hb[v] + c) * SLOTS + s];
			unsigned long long x = ld_relaxed(p);
			total = __dadd_rn(total, x != UNSET ? __longlong_as_double(x) : wait_for<false>(p, P.ctl));
		}
	}
	else
		total = sum_chunk<DIR>(P, b, e, s);
	if (DIR == 0)
		st_relaxed(&P.sigma[at], total);
	else
	{
		// delta for the sums; q in sigma's place for the tails (sigma(v) is read by no other pair
		// in this sweep): each tail reads one value per tight arc, and divides nothing
		const double sv = __ldcg(&P.sigma[at]), dv = __dmul_rn(sv, total);
		__stcg(&P.delta[at], dv);
		const unsigned long long q = (unsigned long long)__double_as_longlong(__ddiv_rn(__dadd_rn(1.0, dv), sv));
		st_relaxed(&P.sigma[at], __longlong_as_double((long long)(q | QBIT)));
	}
}

// DIR 0: path counts in the order of the pairs; 1: dependencies in the reverse order. Expanded (the
// graph has vertices of more than one chunk on the pull side): the items of P.items, else the pairs.
template <int DIR>
__global__ void __launch_bounds__(256) brandes_order_sweep(const struct oparams P, unsigned nr, int expanded)
{
	const unsigned lane = threadIdx.x & 31;
	const unsigned long long end = expanded ? __ldcg(&P.ctl->nitems[DIR]) : nr;
	for (;;)
	{
		unsigned long long base = 0;
		if (lane == 0)
			base = atomicAdd(&P.ctl->ticket[DIR], 32ull * PER);
		base = __shfl_sync(FULL, base, 0);
		if (base >= end || *(volatile unsigned *)&P.ctl->stuck)
			return;
		for (int j = 0; j < PER; j++) // in ticket order: a thread's earlier items never wait for its later ones
		{
			const unsigned long long t = base + 32ull * j + lane;
			if (t >= end)
				break;
			sweep_item<DIR>(P, expanded ? P.items[t] : P.order[DIR == 0 ? t : nr - 1 - t]);
		}
		__syncwarp();
	}
}

// Expanding a sweep's pairs into items: each heavy vertex's first chunk in part (hb: counts, then
// their exclusive sums), each pair's items (icnt: counts; ipos: their exclusive sums), the items.
template <int DIR>
__global__ void brandes_order_hcount(const struct oparams P)
{
	const uint64_t *row = DIR == 0 ? P.in_rowptr : P.rowptr;
	for (uint64_t v = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; v < P.n; v += (uint64_t)gridDim.x * blockDim.x)
	{
		const uint64_t d = row[v + 1] - row[v];
		P.icnt[v] = d > CHUNK ? (uint32_t)((d + CHUNK - 1) / CHUNK) : 0;
	}
}

template <int DIR>
__global__ void brandes_order_icount(const struct oparams P, unsigned nr)
{
	const uint64_t *row = DIR == 0 ? P.in_rowptr : P.rowptr;
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nr; i += (uint64_t)gridDim.x * blockDim.x)
	{
		const uint32_t v = P.order[DIR == 0 ? i : nr - 1 - i] / SLOTS;
		const uint64_t d = row[v + 1] - row[v];
		P.icnt[i] = d > CHUNK ? (uint32_t)((d + CHUNK - 1) / CHUNK) + 1 : 1;
	}
}

__global__ void brandes_order_scatter(const struct oparams P, unsigned nr, int dir)
{
	for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nr; i += (uint64_t)gridDim.x * blockDim.x)
	{
		const unsigned long long pr = P.order[dir == 0 ? i : nr - 1 - i];
		const uint32_t c = P.icnt[i], p = P.ipos[i];
		for (uint32_t k = 0; k + 1 < c; k++) // the chunks first, then the pair's own item
			P.items[p + k] = pr | (unsigned long long)(k + 1) << 32;
		P.items[p + c - 1] = pr;
		if (i == nr - 1)
			P.ctl->nitems[dir] = p + c;
	}
}

// A warp per vertex: its slots' dependencies (reached, not its own source's) into the sums.
__global__ void brandes_order_sums(const struct oparams P)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t W = (uint64_t)gridDim.x * (blockDim.x >> 5);
	for (uint64_t v = (uint64_t)blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5); v < P.n; v += W) // warp-uniform
	{
		double d[2];
		bool on[2];
		for (int h = 0; h < 2; h++)
		{
			const unsigned s = lane + 32 * h;
			const uint64_t at = v * SLOTS + s;
			on[h] = s < P.nsrc && P.dist[at] != INF && P.src[s] != v;
			d[h] = on[h] ? __ldcg(&P.delta[at]) : 0.0;
		}
		brandes_warp_add_exact(&P.acc[v], d, on);
	}
}

// ------------------------------------------------------------------ host

struct olayout
{
	size_t tin, tout, keys1, vals0, vals1, hb, items, ctl, tmp, tmp_bytes, total;
};

static uint64_t heavy_of(const struct sssp_brandes_shape *s)
{
	return s->heavy_in > s->heavy_out ? s->heavy_in : s->heavy_out;
}

static int olayout_of(uint32_t n, uint64_t m, const struct sssp_brandes_shape *s, struct olayout *l)
{
	size_t off = 0, pairs = (size_t)(n ? n : 1) * SLOTS, heavy = heavy_of(s);
	const size_t words = ((m + 31) / 32 ? (m + 31) / 32 : 1) * SLOTS * 4;
	l->tin = brandes_place(&off, words);
	l->tout = brandes_place(&off, words);
	l->keys1 = brandes_place(&off, pairs * 4);
	l->vals0 = brandes_place(&off, pairs * 4);
	l->vals1 = brandes_place(&off, pairs * 4);
	l->hb = brandes_place(&off, heavy ? (size_t)n * 4 : 1);
	l->items = brandes_place(&off, heavy ? (pairs + heavy * SLOTS) * 8 : 1);
	l->ctl = brandes_place(&off, sizeof(struct octl));
	cub::DoubleBuffer<uint32_t> k(NULL, NULL), v(NULL, NULL);
	size_t sort_bytes = 0, scan_bytes = 0;
	if (cub::DeviceRadixSort::SortPairs(NULL, sort_bytes, k, v, (int)pairs) != cudaSuccess ||
	    (heavy && cub::DeviceScan::ExclusiveSum(NULL, scan_bytes, (uint32_t *)NULL, (uint32_t *)NULL, (int)pairs) != cudaSuccess))
		return -1;
	l->tmp_bytes = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
	l->tmp = brandes_place(&off, l->tmp_bytes ? l->tmp_bytes : 1);
	l->total = off;
	return 0;
}

bool brandes_order_applies(uint32_t n, const struct sssp_brandes_shape *s)
{
	return s->w_min >= 1 && ((uint64_t)n + heavy_of(s)) * SLOTS <= (uint64_t)INT32_MAX;
}

size_t brandes_order_workspace_size(uint32_t n, uint64_t m, const struct sssp_brandes_shape *s)
{
	struct olayout l;
	if (!brandes_order_applies(n, s) || olayout_of(n, m, s, &l) < 0)
		return 0;
	return l.total + 256;
}

#define FAIL BRANDES_FAIL
#define CK BRANDES_CK
#define WHO "sssp_brandes_gpu (ordered sweeps)"

// The kernels' characterisations. keys and the sweeps are written for blocks of 256 threads (keys'
// per-warp counters, the sweeps' __launch_bounds__): KERNELCHAR_BLOCK. keys reads the distances in
// order and writes its pairs in runs; a sweep pulls scattered rows of sigma over its tight arcs (C
// high). transpose reads T in order and again through arc_in (scatter); hcount reads the row
// pointers in order; icount reads them by the sorted pairs (scatter); scatter writes each pair's
// items where its sums put them (scatter); sums reads a vertex's 64 slots per warp. One object per
// kernel that runs as two instances (a template's directions) where the tuner sets a cache
// preference, so that each instance gets it; otherwise instance 0 stands for both.
TUCCOMPI_KERNELCHAR_BLOCK(brandes_order_keys, 256, 1, coalesced, low, low, low);
TUCCOMPI_KERNELCHAR_BLOCK(brandes_order_sweep0, 256, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR_BLOCK(brandes_order_sweep1, 256, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR(brandes_order_transpose, 1, scatter, low, low, low);
TUCCOMPI_KERNELCHAR(brandes_order_hcount, 1, coalesced, none, low, low);
TUCCOMPI_KERNELCHAR(brandes_order_icount, 1, scatter, none, low, low);
TUCCOMPI_KERNELCHAR(brandes_order_scatter, 1, scatter, none, low, low);
TUCCOMPI_KERNELCHAR(brandes_order_sums, 1, coalesced, low, low, low);

// A persistent grid's blocks: the GPU's resident blocks of fn, shared by the batches at once on it
// (a batch alone fills it; the waits of a deep graph's sweeps then overlap with other batches' work).
static unsigned persistent_grid(const void *fn, unsigned bx, int sms, unsigned share)
{
	int bps = 0;
	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, (int)bx, 0) != cudaSuccess || bps < 1)
		bps = 1;
	unsigned g = (unsigned)bps * (unsigned)sms / (share ? share : 1);
	return g ? g : 1;
}

int brandes_order_run(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *shape, const uint32_t *src,
		      unsigned nsrc, const uint32_t *dist, struct tuccompi_exact *acc, const struct brandes_order_borrowed *b,
		      void *work, unsigned share, cudaStream_t s, char *err, size_t errlen)
{
	struct olayout l;
	if (olayout_of(g->n, g->m, shape, &l) < 0)
		FAIL(-EIO, "sssp_brandes_gpu (ordered sweeps): cannot size the radix sort's workspace");
	char *base = (char *)(((uintptr_t)work + 255) & ~(uintptr_t)255);
	struct oparams P;
	memset(&P, 0, sizeof(P));
	P.n = g->n;
	P.nsrc = nsrc;
	P.w_min = shape->w_min;
	P.rowptr = g->rowptr;
	P.in_rowptr = g->in_rowptr;
	P.col = g->col;
	P.in_col = g->in_col;
	P.arc_in = g->arc_in;
	P.dist = dist;
	P.T = b->T;
	P.Tin = (uint32_t *)(base + l.tin);
	P.Tout = (uint32_t *)(base + l.tout);
	P.sigma = b->sigma;
	P.delta = b->delta;
	P.keys = b->keys;
	P.vals = (uint32_t *)(base + l.vals0);
	P.part = b->part;
	P.hb = (uint32_t *)(base + l.hb);
	P.icnt = b->keys; // the keys' two buffers, free once the pairs are sorted
	P.ipos = (uint32_t *)(base + l.keys1);
	P.items = (unsigned long long *)(base + l.items);
	P.acc = acc;
	P.ctl = (struct octl *)(base + l.ctl);
	memcpy(P.src, src, nsrc * sizeof(uint32_t));

	int dev, sms, r;
	if ((r = sssp_gpu_device(0, &dev, &sms, "sssp_brandes_gpu", err, errlen)) < 0)
		return r;
	const size_t rows = (size_t)g->n * SLOTS * sizeof(double);
	CK(cudaMemsetAsync(P.ctl, 0, sizeof(struct octl), s));
	CK(cudaMemsetAsync(P.sigma, 0xff, rows, s)); // UNSET (delta is written before it is read)
	const unsigned cap = (unsigned)sms * 8;
	const void *sweep[2] = { (const void *)brandes_order_sweep<0>, (const void *)brandes_order_sweep<1> };
	const void *hcount[2] = { (const void *)brandes_order_hcount<0>, (const void *)brandes_order_hcount<1> };
	const void *icount[2] = { (const void *)brandes_order_icount<0>, (const void *)brandes_order_icount<1> };
	const uint64_t pairs = (uint64_t)g->n * SLOTS;
	unsigned bk, bt = 0, bw[2], bh, bi, bs, bsum;
	if ((r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_keys), (const void *)brandes_order_keys, pairs, 0, &bk, WHO, err,
				errlen)) < 0 ||
	    (g->m && (r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_transpose), (const void *)brandes_order_transpose, g->m,
					 0, &bt, WHO, err, errlen)) < 0) ||
	    (r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_sweep0), sweep[0], pairs, 0, &bw[0], WHO, err, errlen)) < 0 ||
	    (r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_sweep1), sweep[1], pairs, 0, &bw[1], WHO, err, errlen)) < 0 ||
	    (r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_hcount), hcount[0], g->n, 0, &bh, WHO, err, errlen)) < 0 ||
	    (r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_icount), icount[0], pairs, 0, &bi, WHO, err, errlen)) < 0 ||
	    (r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_scatter), (const void *)brandes_order_scatter, pairs, 0, &bs, WHO,
				err, errlen)) < 0 ||
	    (r = sssp_gpu_block(TUCCOMPI_KERNEL(brandes_order_sums), (const void *)brandes_order_sums, (uint64_t)g->n * 32, 0,
				&bsum, WHO, err, errlen)) < 0)
		return r;
	if (bk != 256 || bw[0] != 256 || bw[1] != 256)
		FAIL(-EIO, "%s: the tuner gave keys and the sweeps %u, %u and %u threads per block, not their 256", WHO, bk, bw[0],
		     bw[1]);
	brandes_order_keys<<<sssp_grid_for(pairs, bk, cap), bk, 0, s>>>(P);
	CK(cudaGetLastError());
	if (g->m)
	{
		brandes_order_transpose<<<sssp_grid_for(g->m, bt, cap), bt, 0, s>>>(P, g->m);
		CK(cudaGetLastError());
	}
	struct octl h;
	CK(cudaMemcpyAsync(&h, P.ctl, sizeof(h), cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	if (h.nr)
	{
		int bits = 1;
		while (bits < 32 && (h.maxkey >> bits))
			bits++;
		cub::DoubleBuffer<uint32_t> dk(P.keys, (uint32_t *)(base + l.keys1)), dv(P.vals, (uint32_t *)(base + l.vals1));
		size_t tb = l.tmp_bytes;
		CK(cub::DeviceRadixSort::SortPairs(base + l.tmp, tb, dk, dv, (int)h.nr, 0, bits, s));
		P.order = dv.Current();
		const unsigned gn = sssp_grid_for(g->n, bh, cap), gi = sssp_grid_for(h.nr, bi, cap),
			       gs = sssp_grid_for(h.nr, bs, cap);
		for (int dir = 0; dir < 2; dir++)
		{
			int expanded = (dir == 0 ? shape->heavy_in : shape->heavy_out) > 0, nr = (int)h.nr;
			void *a1[] = { &P }, *a2[] = { &P, &h.nr }, *a3[] = { &P, &h.nr, &dir }, *a4[] = { &P, &h.nr, &expanded };
			if (expanded) // the heavy pairs' chunks as items of their own
			{
				size_t tb = l.tmp_bytes;
				CK(cudaLaunchKernel(hcount[dir], dim3(gn), dim3(bh), a1, 0, s));
				CK(cub::DeviceScan::ExclusiveSum(base + l.tmp, tb, P.icnt, P.hb, (int)g->n, s));
				CK(cudaLaunchKernel(icount[dir], dim3(gi), dim3(bi), a2, 0, s));
				tb = l.tmp_bytes;
				CK(cub::DeviceScan::ExclusiveSum(base + l.tmp, tb, P.icnt, P.ipos, nr, s));
				CK(cudaLaunchKernel((const void *)brandes_order_scatter, dim3(gs), dim3(bs), a3, 0, s));
				CK(cudaMemsetAsync(P.part, 0xff, (size_t)heavy_of(shape) * SLOTS * sizeof(double), s)); // UNSET
			}
			CK(cudaLaunchKernel(sweep[dir], dim3(persistent_grid(sweep[dir], bw[dir], sms, share)), dim3(bw[dir]), a4, 0,
					    s));
		}
		brandes_order_sums<<<sssp_grid_for((uint64_t)g->n * 32, bsum, cap), bsum, 0, s>>>(P);
		CK(cudaGetLastError());
	}
	CK(cudaMemcpyAsync(&h, P.ctl, sizeof(h), cudaMemcpyDeviceToHost, s));
	CK(cudaStreamSynchronize(s));
	if (h.stuck)
		FAIL(-EIO, "sssp_brandes_gpu (ordered sweeps): a pair waited %llu s for a value no pair wrote (a broken order of "
			   "distances); TUCCOMPI_BRANDES_SWEEP=rounds runs Kahn's rounds instead",
		     STUCK_NS / 1000000000ull);
	return 0;
}

// ------------------------------------------------------------------ which way, per graph

// TUCCOMPI_BRANDES_SWEEP: auto (default), order or rounds; -1 for anything else.
static int sweep_mode(void)
{
	const char *e = getenv("TUCCOMPI_BRANDES_SWEEP");
	if (!e || !*e || !strcmp(e, "auto"))
		return BRANDES_AUTO;
	if (!strcmp(e, "order"))
		return BRANDES_ORDER;
	if (!strcmp(e, "rounds"))
		return BRANDES_ROUNDS;
	return -1;
}

// A graph's trials (auto): its first batches alternate rounds and order, each timed; after TRIALS,
// the way with the shorter best time runs the rest. Keyed by the graph's device arrays (one entry
// per GPU and graph), the few most recent kept.
#define TRIALS 4
#define PICKS 16
static struct pick
{
	const uint64_t *rowptr;
	uint32_t n;
	uint64_t m;
	unsigned started, ended;
	double best[2]; // 0: rounds, 1: order
	unsigned long long used;
} picks[PICKS];
static unsigned long long pick_clock;
static pthread_mutex_t pick_lock = PTHREAD_MUTEX_INITIALIZER;

static struct pick *pick_of(const struct sssp_brandes_graph *g)
{
	struct pick *old = &picks[0];
	for (int i = 0; i < PICKS; i++)
	{
		if (picks[i].rowptr == g->rowptr && picks[i].n == g->n && picks[i].m == g->m)
			return &picks[i];
		if (picks[i].used < old->used)
			old = &picks[i];
	}
	memset(old, 0, sizeof(*old));
	old->rowptr = g->rowptr;
	old->n = g->n;
	old->m = g->m;
	return old;
}

int brandes_sweep_pick(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *s, int *ordered, int *trial,
		       char *err, size_t errlen)
{
	int mode = sweep_mode();
	*trial = -1;
	if (mode < 0)
		BRANDES_FAIL(-EINVAL, "sssp_brandes_gpu: TUCCOMPI_BRANDES_SWEEP=%s: say auto, order or rounds",
			     getenv("TUCCOMPI_BRANDES_SWEEP"));
	*ordered = brandes_order_applies(g->n, s) && mode != BRANDES_ROUNDS;
	if (!*ordered || mode != BRANDES_AUTO)
		return 0;
	pthread_mutex_lock(&pick_lock);
	struct pick *p = pick_of(g);
	p->used = ++pick_clock;
	if (p->started < TRIALS)
	{
		*trial = (int)p->started++;
		*ordered = *trial & 1;
	}
	else if (p->ended < TRIALS)
		*ordered = 1; // trials still running on other streams: the default meanwhile
	else
		*ordered = p->best[1] <= p->best[0];
	pthread_mutex_unlock(&pick_lock);
	return 0;
}

void brandes_sweep_done(const struct sssp_brandes_graph *g, int trial, double seconds)
{
	if (trial < 0)
		return;
	pthread_mutex_lock(&pick_lock);
	struct pick *p = pick_of(g);
	double *b = &p->best[trial & 1];
	if (trial < 2 || seconds < *b)
		*b = seconds;
	p->ended++;
	pthread_mutex_unlock(&pick_lock);
}
