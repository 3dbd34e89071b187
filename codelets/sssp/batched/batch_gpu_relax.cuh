// The batched GPU SSSP engine's device helpers and relaxations (included by batch_gpu_kernels.cu,
// which defines INF, FULL and MASK(K) before it): lane and mask helpers, the warps' appends to the
// step's output lists, and relaxing a vertex's arcs in warp mode (lanes = sources) or thread mode
// (each lane its own vertex).
#ifndef TUCCOMPI_SSSP_BATCH_GPU_RELAX_CUH
#define TUCCOMPI_SSSP_BATCH_GPU_RELAX_CUH

__device__ __forceinline__ uint32_t ldcg(const uint32_t *p)
{
	return __ldcg(p);
}

__device__ __forceinline__ unsigned long long ldcg(const unsigned long long *p)
{
	return __ldcg(p);
}

__device__ __forceinline__ unsigned lane_id(void)
{
	return threadIdx.x & 31;
}

__device__ __forceinline__ uint32_t popc_m(uint32_t m)
{
	return __popc(m);
}

__device__ __forceinline__ uint32_t popc_m(unsigned long long m)
{
	return __popcll(m);
}

__device__ __forceinline__ uint32_t ffs_m(uint32_t m)
{
	return __ffs(m);
}

__device__ __forceinline__ uint32_t ffs_m(unsigned long long m)
{
	return __ffsll((long long)m);
}

// Whether this lane's slot h is in mask m.
template <int K>
__device__ __forceinline__ bool has_slot(MASK(K) m, int h)
{
	return (m >> (32 * h + lane_id())) & 1;
}

// The mask of the slots (lane, h) where p[h] holds.
template <int K>
__device__ __forceinline__ MASK(K) ballot_k(const bool p[K])
{
	MASK(K) m = 0;
#pragma unroll
	for (int h = 0; h < K; h++)
		m |= (MASK(K))__ballot_sync(FULL, p[h]) << (32 * h);
	return m;
}

// This lane's slot h of v's row.
template <int K>
__device__ __forceinline__ uint32_t *slot(const struct kparams &P, uint32_t v, int h)
{
	return &P.dist[(size_t)v * (32 * K) + 32 * h + lane_id()];
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

// What a warp puts out in a step: entries of the next frontier's list (near) and of the far pile's,
// buffered 32 at a time in its shared memory, the smallest far distance and the count of pairs put
// into the next frontier. Only the counters live in registers: the lists and counters they go to are
// the same for the whole grid in a step (wl, shared memory, set by each block's thread 0 after the
// barrier) and the buffers are at the warp's place in sbuf, so a step does not hold 8 pointers in
// registers (the loop is short of them: docs/apsp.md).
struct wout
{
	uint32_t nb, fb; // buffered entries (warp-uniform)
	uint32_t fmin;   // per lane
	uint32_t np;     // per lane: pairs put into the next frontier
};
struct wlists
{
	uint32_t *near_list, *near_cnt;
	uint32_t *far_list, *far_cnt, *far_min;
	uint32_t *np_cnt;
};
// Dynamic shared memory of the device loop: 2 x 32 words per warp (the append buffers).
extern __shared__ uint32_t sbuf[];
static __shared__ struct wlists wl;
__device__ __forceinline__ uint32_t *sb_near(void)
{
	return &sbuf[(threadIdx.x >> 5) * 64];
}
__device__ __forceinline__ uint32_t *sb_far(void)
{
	return &sbuf[(threadIdx.x >> 5) * 64 + 32];
}

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

// Append v to the next frontier's list / the far pile's (buf_put1).
__device__ __forceinline__ void put_near(struct wout &o, uint32_t v)
{
	buf_put1(sb_near(), o.nb, wl.near_list, wl.near_cnt, v);
}
__device__ __forceinline__ void put_far(struct wout &o, uint32_t v)
{
	buf_put1(sb_far(), o.fb, wl.far_list, wl.far_cnt, v);
}

__device__ __forceinline__ void wout_flush(struct wout &o)
{
	buf_flush(sb_near(), o.nb, wl.near_list, wl.near_cnt);
	buf_flush(sb_far(), o.fb, wl.far_list, wl.far_cnt);
	uint32_t m = o.fmin;
	for (int s = 16; s > 0; s >>= 1)
		m = min(m, __shfl_xor_sync(FULL, m, s));
	if (lane_id() == 0 && m != INF)
		atomicMin(wl.far_min, m);
	o.fmin = INF;
	uint32_t np = o.np;
	for (int s = 16; s > 0; s >>= 1)
		np += __shfl_xor_sync(FULL, np, s);
	if (lane_id() == 0 && np)
		atomicAdd(wl.np_cnt, np);
	o.np = 0;
}

// Warp mode, NQ relaxations at once in three rounds of independent requests (the atomicMin()s,
// then the atomicOr()s of the masks, then the appends): a round trip to L2 or memory each, not one
// per relaxation and kind. Targets t[q] (the same on every lane), this lane's candidates nd[q][h]
// for its slots; pre[q][h]: the candidate beat the distance read before.
template <int K, int NQ>
__device__ __forceinline__ void update_warp(const struct kparams &P, MASK(K) * Fn, uint32_t T, struct wout &o,
					    const uint32_t t[NQ], const uint32_t nd[NQ][K], const bool pre[NQ][K])
{
	typedef MASK(K) mask_t;
	mask_t *FM = (mask_t *)P.FM;
	uint32_t old[NQ][K];
#pragma unroll
	for (int q = 0; q < NQ; q++)
#pragma unroll
		for (int h = 0; h < K; h++)
			old[q][h] = pre[q][h] ? atomicMin(slot<K>(P, t[q], h), nd[q][h]) : 0;
	mask_t nb[NQ], fb[NQ];
#pragma unroll
	for (int q = 0; q < NQ; q++)
	{
		bool near[K], far[K];
#pragma unroll
		for (int h = 0; h < K; h++)
		{
			bool better = pre[q][h] && nd[q][h] < old[q][h];
			near[h] = better && nd[q][h] < T;
			far[h] = better && nd[q][h] >= T;
			o.np += near[h];
			if (far[h])
				o.fmin = min(o.fmin, nd[q][h]);
		}
		nb[q] = ballot_k<K>(near);
		fb[q] = ballot_k<K>(far);
	}
	uint32_t newn = 0, newf = 0; // bit q: t[q] entered the near / far list (lane 0's atomics tell)
	if (lane_id() == 0)
	{
		mask_t on[NQ], of[NQ];
#pragma unroll
		for (int q = 0; q < NQ; q++)
		{
			on[q] = of[q] = 1;
			if (nb[q])
				on[q] = atomicOr(&Fn[t[q]], nb[q]);
			if (fb[q])
				of[q] = atomicOr(&FM[t[q]], fb[q]);
		}
#pragma unroll
		for (int q = 0; q < NQ; q++)
		{
			newn |= (uint32_t)(on[q] == 0) << q;
			newf |= (uint32_t)(of[q] == 0) << q;
		}
	}
	newn = __shfl_sync(FULL, newn, 0);
	newf = __shfl_sync(FULL, newf, 0);
#pragma unroll
	for (int q = 0; q < NQ; q++)
	{
		if ((newn >> q) & 1)
			put_near(o, t[q]);
		if ((newf >> q) & 1)
			put_far(o, t[q]);
	}
}

// Thread mode: each lane relaxes its own pairs (t[q], slot l).
template <int K>
__device__ __forceinline__ void update4_thread(const struct kparams &P, MASK(K) * Fn, uint32_t T, struct wout &o,
					       const uint32_t t[4], uint32_t l, const uint32_t nd[4], const bool pre[4])
{
	typedef MASK(K) mask_t;
	mask_t *FM = (mask_t *)P.FM;
	const mask_t bit = (mask_t)1 << l;
	bool better[4], an[4], af[4];
#pragma unroll
	for (int q = 0; q < 4; q++)
		better[q] = pre[q] && nd[q] < atomicMin(&P.dist[(size_t)t[q] * (32 * K) + l], nd[q]);
#pragma unroll
	for (int q = 0; q < 4; q++)
	{
		bool near = better[q] && nd[q] < T, far = better[q] && nd[q] >= T;
		o.np += near;
		an[q] = near && atomicOr(&Fn[t[q]], bit) == 0;
		af[q] = far && atomicOr(&FM[t[q]], bit) == 0;
		if (far)
			o.fmin = min(o.fmin, nd[q]);
	}
#pragma unroll
	for (int q = 0; q < 4; q++)
	{
		buf_putb(sb_near(), o.nb, wl.near_list, wl.near_cnt, t[q], an[q]);
		buf_putb(sb_far(), o.fb, wl.far_list, wl.far_cnt, t[q], af[q]);
	}
}

// Warp mode: relax arcs [b, e) of v for the slots of mask m.
template <int K>
__device__ void relax_warp(const struct kparams &P, MASK(K) * Fn, uint32_t T, struct wout &o, uint32_t v, MASK(K) m,
			   uint64_t b, uint64_t e)
{
	const unsigned lane = lane_id();
	// v's row and its first 32 arcs go out together
	uint32_t c = 0, wt = 0;
	if (b + lane < e)
	{
		c = __ldg(&P.col[b + lane]);
		wt = __ldg(&P.w[b + lane]);
	}
	uint32_t d[K];
#pragma unroll
	for (int h = 0; h < K; h++)
		d[h] = has_slot<K>(m, h) ? ldcg(slot<K>(P, v, h)) : INF;
	for (uint64_t base = b; base < e; base += 32)
	{
		// the next 32 arcs are requested before these are used
		uint64_t jn = base + 32 + lane;
		uint32_t cn = 0, wn = 0;
		if (jn < e)
		{
			cn = __ldg(&P.col[jn]);
			wn = __ldg(&P.w[jn]);
		}
		uint32_t cnt = e - base < 32 ? (uint32_t)(e - base) : 32;
		for (uint32_t k = 0; k < cnt; k += 4)
		{
			uint32_t t[4], nd[4][K], cur[4][K];
			bool pre[4][K];
			// the four targets' rows are read before any atomic: 4 K requests in flight
#pragma unroll
			for (int q = 0; q < 4; q++)
			{
				uint32_t kk = (k + q) & 31;
				t[q] = __shfl_sync(FULL, c, kk);
				uint32_t wq = __shfl_sync(FULL, wt, kk);
#pragma unroll
				for (int h = 0; h < K; h++)
				{
					nd[q][h] = k + q < cnt ? sssp_batch_sat(d[h], wq) : INF;
					cur[q][h] = nd[q][h] != INF ? ldcg(slot<K>(P, t[q], h)) : 0;
				}
			}
#pragma unroll
			for (int q = 0; q < 4; q++)
#pragma unroll
				for (int h = 0; h < K; h++)
					pre[q][h] = nd[q][h] < cur[q][h];
			update_warp<K, 4>(P, Fn, T, o, t, nd, pre);
		}
		c = cn;
		wt = wn;
	}
}

// Thread mode: every lane with act relaxes all out-arcs of its own vertex v for its slots m
// (its arcs [b, b + deg)), four arcs per round. The pair's distance and the arcs are loaded
// together, and the targets are atomicMin()ed without reading them first: on grid-like graphs a
// step is a chain of round trips (list, mask, distance and arcs, atomicMin, atomicOr, append) and
// a third of these relaxations improve anyway.
template <int K>
__device__ void relax_thread(const struct kparams &P, MASK(K) * Fn, uint32_t T, struct wout &o, uint32_t v, MASK(K) m,
			     uint64_t b, uint32_t deg, bool act)
{
	MASK(K) rest = act && deg ? m : 0;
	uint32_t l = 0, d = INF, j = 0;
	bool have = false;
	while (__any_sync(FULL, have || rest))
	{
		bool fresh = !have && rest;
		if (fresh)
		{
			l = ffs_m(rest) - 1;
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
			d = ldcg(&P.dist[(size_t)v * (32 * K) + l]);
#pragma unroll
		for (int q = 0; q < 4; q++)
		{
			nd[q] = pre[q] ? sssp_batch_sat(d, w4[q]) : INF;
			pre[q] = pre[q] && nd[q] != INF;
		}
		j += 4;
		if (have && j >= deg)
			have = false;
		update4_thread<K>(P, Fn, T, o, t, l, nd, pre);
	}
}


#endif
