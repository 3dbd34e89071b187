// Brandes' sweeps on a GPU in one pass each, in the order of distances (brandes_gpu.cuh), for graphs
// whose arcs all weigh at least 1: there, a tight arc (u, v) of any slot has d(u) < d(v), so the
// (vertex, slot) pairs sorted by distance are a topological order of every slot's DAG at once, and
// floor(d / w_min) keeps that order while it shortens the keys (a tight arc crosses at least one
// step of w_min).
//
//   keys     every reached (vertex, slot) pair, keyed by floor(d / w_min); sorted (CUB's radix sort,
//            as many bits as the largest key needs)
//   forward  a persistent grid takes the sorted pairs in order, 32 x PER at a time per warp (tickets
//            from one counter), one pair per thread: sigma(v) in slot s pulls sigma(u) over v's tight
//            in-arcs, in the canonical order of brandes.h (arc order, chunks of 256, then the chunks'
//            sums). A tail's sigma may still be in the making: the thread waits until it is written
//            (sigma starts as an all-ones NaN that no count can be). Waiting is safe whatever the
//            grid's residency: a pair only waits for pairs of smaller keys, which took their tickets
//            earlier from threads that are running (the smallest unfinished pair always runs).
//   backward the same from the far end of the order: delta(v) = sigma(v) x the sum of
//            (1 + delta(w)) / sigma(w) over the tight out-arcs, waiting for delta(w)
//   sums     a warp per vertex adds its 64 slots' dependencies (sources excluded) into the sums,
//            exactly (brandes_warp_add_exact)
// Each (vertex, slot) pair is served once per sweep, and each of its arcs read once, where Kahn's
// rounds (brandes_gpu.cu) serve a vertex in every round that readies some of its slots, reading all
// its arcs again each time. The same bits as the rounds and as the CPU: the same sums in the same
// order, with __dadd_rn / __ddiv_rn / __dmul_rn.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cub/device/device_radix_sort.cuh>

#include "brandes_gpu.cuh"

#define INF BRANDES_INF
#define FULL BRANDES_FULL
#define SLOTS BRANDES_SLOTS
#define CHUNK SSSP_BRANDES_CHUNK
#define PER 4                             // pairs per thread per ticket
#define UNSET 0xffffffffffffffffull        // sigma / delta not written yet (a NaN)
#define STUCK_NS (30ull * 1000000000ull)  // a wait this long means a broken order: give up

struct octl
{
	unsigned nr, maxkey;                // reached pairs, the largest key
	unsigned long long ticket[2];       // the sweeps' next pairs
	unsigned stuck;                     // a thread waited STUCK_NS: the run fails
};

struct oparams
{
	uint32_t n, nsrc, w_min;
	const uint64_t *rowptr, *in_rowptr;
	const uint32_t *col, *in_col, *arc_in, *dist;
	const unsigned long long *T;
	unsigned long long *Tout; // per out-arc: its tight slots
	double *sigma, *delta;
	uint32_t *keys, *vals;    // unsorted pairs (keys: floor(d / w_min); vals: v * 64 + slot)
	const uint32_t *order;    // the pairs sorted by key
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

// The value at p once another thread has written it (or 0.0 when the run is given up).
__device__ __noinline__ double wait_for(const double *p, struct octl *ctl)
{
	const unsigned long long t0 = now_ns();
	for (unsigned k = 1;; k++)
	{
		__nanosleep(64);
		unsigned long long b = ld_relaxed(p);
		if (b != UNSET)
			return __longlong_as_double(b);
		if (k % 1024 == 0 && (*(volatile unsigned *)&ctl->stuck || now_ns() - t0 > STUCK_NS))
		{
			atomicExch(&ctl->stuck, 1u);
			return 0.0;
		}
	}
}

// ------------------------------------------------------------------ keys

__global__ void brandes_order_keys(const struct oparams P)
{
	const unsigned lane = threadIdx.x & 31;
	const uint64_t total = (uint64_t)P.n * SLOTS, wstride = (uint64_t)gridDim.x * blockDim.x;
	unsigned kmax = 0;
	for (uint64_t base = (uint64_t)blockIdx.x * blockDim.x + (threadIdx.x & ~31u); base < total; base += wstride)
	{
		const uint64_t i = base + lane; // warp-uniform loop: every lane takes part in the ballot
		uint32_t d = i < total ? P.dist[i] : INF;
		const bool ok = d != INF && (unsigned)(i % SLOTS) < P.nsrc;
		const unsigned bal = __ballot_sync(FULL, ok);
		if (!bal)
			continue;
		unsigned at = 0;
		if (lane == 0)
			at = atomicAdd(&P.ctl->nr, (unsigned)__popc(bal));
		at = __shfl_sync(FULL, at, 0) + __popc(bal & ((1u << lane) - 1));
		if (ok)
		{
			const unsigned key = d / P.w_min;
			P.keys[at] = key;
			P.vals[at] = (uint32_t)i;
			kmax = key > kmax ? key : kmax;
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

// Each out-arc's tight slots, from its in-arc's (T is indexed by in-arc).
__global__ void brandes_order_tout(const struct oparams P, uint64_t m)
{
	for (uint64_t a = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; a < m; a += (uint64_t)gridDim.x * blockDim.x)
		P.Tout[a] = P.T[P.arc_in[a]];
}

// ------------------------------------------------------------------ sweeps

// Sum over the arcs [b, e) of list col whose tight mask has slot s: VAL(x, value at x's row) in the
// canonical order (chunks of CHUNK arcs from b, each from 0.0, then the chunks' sums from 0.0), where
// the value is read from rows (waited for while unset).
template <int DIR>
__device__ __forceinline__ double sum_arcs(const struct oparams &P, uint64_t b, uint64_t e, unsigned s)
{
	const uint32_t *col = DIR == 0 ? P.in_col : P.col;
	const unsigned long long *T = DIR == 0 ? P.T : P.Tout;
	const double *rows = DIR == 0 ? P.sigma : P.delta;
	double total = 0.0;
	for (uint64_t c = b; c < e; c += CHUNK)
	{
		const uint64_t ce = c + CHUNK < e ? c + CHUNK : e;
		double part = 0.0;
		for (uint64_t a = c; a < ce; a += 4) // 4 arcs' rows requested before any is used
		{
			bool tg[4];
			uint64_t at[4];
			unsigned long long x[4];
#pragma unroll
			for (int i = 0; i < 4; i++)
			{
				tg[i] = a + i < ce && ((__ldg(&T[a + i]) >> s) & 1);
				at[i] = tg[i] ? (uint64_t)__ldg(&col[a + i]) * SLOTS + s : 0;
			}
#pragma unroll
			for (int i = 0; i < 4; i++)
				x[i] = tg[i] ? ld_relaxed(rows + at[i]) : 0;
#pragma unroll
			for (int i = 0; i < 4; i++)
			{
				if (!tg[i])
					continue;
				double y = x[i] != UNSET ? __longlong_as_double(x[i]) : wait_for(rows + at[i], P.ctl);
				if (DIR == 1)
					y = __ddiv_rn(__dadd_rn(1.0, y), __ldcg(&P.sigma[at[i]]));
				part = __dadd_rn(part, y);
			}
		}
		total = __dadd_rn(total, part);
	}
	return total;
}

// DIR 0: path counts in the order of the pairs; 1: dependencies in the reverse order.
template <int DIR>
__global__ void __launch_bounds__(256) brandes_order_sweep(const struct oparams P, unsigned nr)
{
	const unsigned lane = threadIdx.x & 31;
	for (;;)
	{
		unsigned long long base = 0;
		if (lane == 0)
			base = atomicAdd(&P.ctl->ticket[DIR], 32ull * PER);
		base = __shfl_sync(FULL, base, 0);
		if (base >= nr || *(volatile unsigned *)&P.ctl->stuck)
			return;
		for (int j = 0; j < PER; j++) // in ticket order: a thread's earlier pairs never wait for its later ones
		{
			const unsigned long long t = base + 32ull * j + lane;
			if (t >= nr)
				break;
			const uint32_t pr = P.order[DIR == 0 ? t : nr - 1 - t], v = pr / SLOTS, s = pr % SLOTS;
			const uint64_t at = (uint64_t)v * SLOTS + s;
			if (DIR == 0)
			{
				double sig = s < P.nsrc && P.src[s] == v ? 1.0 : sum_arcs<0>(P, P.in_rowptr[v], P.in_rowptr[v + 1], s);
				st_relaxed(&P.sigma[at], sig);
			}
			else
				st_relaxed(&P.delta[at], __dmul_rn(__ldcg(&P.sigma[at]), sum_arcs<1>(P, P.rowptr[v], P.rowptr[v + 1], s)));
		}
		__syncwarp();
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
	size_t tout, keys1, vals0, vals1, ctl, tmp, tmp_bytes, total;
};

static size_t place(size_t *off, size_t bytes)
{
	size_t at = *off;
	*off = (at + bytes + 255) & ~(size_t)255;
	return at;
}

static int olayout_of(uint32_t n, uint64_t m, struct olayout *l)
{
	size_t off = 0, pairs = (size_t)(n ? n : 1) * SLOTS;
	l->tout = place(&off, (m ? m : 1) * 8);
	l->keys1 = place(&off, pairs * 4);
	l->vals0 = place(&off, pairs * 4);
	l->vals1 = place(&off, pairs * 4);
	l->ctl = place(&off, sizeof(struct octl));
	cub::DoubleBuffer<uint32_t> k(NULL, NULL), v(NULL, NULL);
	l->tmp_bytes = 0;
	if (cub::DeviceRadixSort::SortPairs(NULL, l->tmp_bytes, k, v, (int)pairs) != cudaSuccess)
		return -1;
	l->tmp = place(&off, l->tmp_bytes ? l->tmp_bytes : 1);
	l->total = off;
	return 0;
}

bool brandes_order_applies(uint32_t n, const struct sssp_brandes_shape *s)
{
	static int mode = -1; // 1: ordered sweeps where they apply; 0: TUCCOMPI_BRANDES_SWEEP=rounds
	if (mode < 0)
	{
		const char *e = getenv("TUCCOMPI_BRANDES_SWEEP");
		mode = !(e && !strcmp(e, "rounds"));
	}
	return mode && s->w_min >= 1 && (uint64_t)n * SLOTS <= (uint64_t)INT32_MAX;
}

size_t brandes_order_workspace_size(uint32_t n, uint64_t m, const struct sssp_brandes_shape *s)
{
	struct olayout l;
	if (!brandes_order_applies(n, s) || olayout_of(n, m, &l) < 0)
		return 0;
	return l.total + 256;
}

#define FAIL(code, ...)                                     \
	do                                                  \
	{                                                   \
		if (err && errlen)                          \
			snprintf(err, errlen, __VA_ARGS__); \
		return (code);                              \
	} while (0)

#define CK(call)                                                                                       \
	do                                                                                             \
	{                                                                                              \
		cudaError_t e_ = (call);                                                               \
		if (e_ != cudaSuccess)                                                                 \
		{                                                                                      \
			cudaStreamSynchronize(s);                                                      \
			FAIL(-EIO, "sssp_brandes_gpu (ordered sweeps): %s: %s", #call, cudaGetErrorString(e_)); \
		}                                                                                      \
	} while (0)

static unsigned persistent_grid(const void *fn, unsigned bx, int sms)
{
	int bps = 0;
	if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, fn, (int)bx, 0) != cudaSuccess || bps < 1)
		bps = 1;
	return (unsigned)bps * (unsigned)sms;
}

int brandes_order_run(const struct sssp_brandes_graph *g, const struct sssp_brandes_shape *shape, const uint32_t *src,
		      unsigned nsrc, const uint32_t *dist, struct tuccompi_exact *acc, const struct brandes_order_borrowed *b,
		      void *work, cudaStream_t s, char *err, size_t errlen)
{
	struct olayout l;
	if (olayout_of(g->n, g->m, &l) < 0)
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
	P.Tout = (unsigned long long *)(base + l.tout);
	P.sigma = b->sigma;
	P.delta = b->delta;
	P.keys = b->keys;
	P.vals = (uint32_t *)(base + l.vals0);
	P.acc = acc;
	P.ctl = (struct octl *)(base + l.ctl);
	memcpy(P.src, src, nsrc * sizeof(uint32_t));

	int dev, sms = 0;
	CK(cudaGetDevice(&dev));
	CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	const size_t rows = (size_t)g->n * SLOTS * sizeof(double);
	CK(cudaMemsetAsync(P.ctl, 0, sizeof(struct octl), s));
	CK(cudaMemsetAsync(P.sigma, 0xff, rows, s)); // UNSET
	CK(cudaMemsetAsync(P.delta, 0xff, rows, s));
	const unsigned bx = 256, cap = (unsigned)sms * 8;
	unsigned gk = (unsigned)(((uint64_t)g->n * SLOTS + bx - 1) / bx);
	brandes_order_keys<<<gk < cap ? gk : cap, bx, 0, s>>>(P);
	CK(cudaGetLastError());
	if (g->m)
	{
		unsigned gt = (unsigned)((g->m + bx - 1) / bx);
		brandes_order_tout<<<gt < cap ? gt : cap, bx, 0, s>>>(P, g->m);
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
		const void *f0 = (const void *)brandes_order_sweep<0>, *f1 = (const void *)brandes_order_sweep<1>;
		brandes_order_sweep<0><<<persistent_grid(f0, bx, sms), bx, 0, s>>>(P, h.nr);
		CK(cudaGetLastError());
		brandes_order_sweep<1><<<persistent_grid(f1, bx, sms), bx, 0, s>>>(P, h.nr);
		CK(cudaGetLastError());
		unsigned gs = (unsigned)(((uint64_t)g->n * 32 + bx - 1) / bx);
		brandes_order_sums<<<gs < cap ? gs : cap, bx, 0, s>>>(P);
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
