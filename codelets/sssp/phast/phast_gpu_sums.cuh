// GPU PHAST's summaries: each downward row added to its lanes' sums, eccentricities, counts and
// harmonic sums, per block in shared memory (add_sums; phast_body adds the blocks' up at the end).
// Included by phast_gpu.cu inside its anonymous namespace, after phast_gpu_rows.cuh (a part of that
// file, kept apart for the tree's size limit; not a header for other files).
#ifndef TUCCOMPI_SSSP_PHAST_GPU_SUMS_CUH
#define TUCCOMPI_SSSP_PHAST_GPU_SUMS_CUH

// A thread's own part of the lanes' summaries (add_sums)
struct lane_sums
{
	uint32_t lo; // narrow passes: a lane's sum of up to 2^16 values (add_sums)
	uint32_t nv; // in s[0]: the vertices this warp added up (each thread of the warp counts them)
};

// The block's harmonic sums (sssp_harm), lane l*LPT + i of a pass at [i * 32 + l]: kept in shared
// memory rather than beside lane_sums, whose registers the sweep cannot spare (128 bits per lane,
// 8 lanes per thread at 256 lanes per pass); the order of the additions does not matter. Four 32-bit
// words each, least significant first, added with 32-bit atomics and their carries (a 64-bit
// atomicAdd on shared memory is a compare-and-swap loop: see s_lsum_lo below; commit 2628c69 has
// the form with two 64-bit halves).
__shared__ uint32_t s_harm[4][MAX_LANES];

__device__ __forceinline__ void harm_add_shared(unsigned k, struct sssp_harm x)
{
	const uint32_t xw[4] = { (uint32_t)x.lo, (uint32_t)(x.lo >> 32), (uint32_t)x.hi, (uint32_t)(x.hi >> 32) };
	uint32_t c = 0;
#pragma unroll
	for (int j = 0; j < 4; j++)
	{
		const uint32_t y = xw[j] + c;
		uint32_t out = y < c; // xw[j] + c wrapped: y is 0, nothing to add, the carry goes on
		if (y)
		{
			const uint32_t o = atomicAdd(&s_harm[j][k], y);
			out = o + y < o;
		}
		c = out;
	}
}

// The block's summaries, lane l*LPT + i at [i * 32 + l]: sums as two 32-bit words, eccentricities,
// INF values, and the vertices the block added up (a lane's count is s_nv less its INF values, which
// are rare: no atomic per finite value for the counts). Only 32-bit shared atomics: a 64-bit
// atomicAdd on shared memory is a compare-and-swap loop on sm_90 (SASS ATOMS.CAST.SPIN.64), which
// cost the GPU's PHAST rate dearly (docs/apsp.md, "PHAST"); a carry is seen in the
// old word atomicAdd returns, or in a register's sum that wrapped.
__shared__ uint32_t s_lsum_lo[MAX_LANES], s_lsum_hi[MAX_LANES];
__shared__ uint32_t s_lecc[MAX_LANES], s_linf[MAX_LANES];
__shared__ uint32_t s_nv;

// Where a finite value's sum goes: in narrow passes into the thread's own registers (8 at 256 lanes,
// added to the block's words every 2^16 vertices and at the end), in 32-bit passes, whose rows need
// more registers, straight into the block's words with a shared atomic (there registers for the sums
// would spill). Eccentricities take a shared atomicMax in both.
__device__ __forceinline__ void add_lo(uint32_t *lo, uint32_t *hi, uint32_t x)
{
	const uint32_t old = atomicAdd(lo, x);
	if (old + x < old)
		atomicAdd(hi, 1u);
}

// A narrow pass's registers hold a lane's sum without a carry: its values that count are below
// NARROW_CAP (2^16 - 2), so 2^16 of them fit 32 bits, and every 2^16 vertices a thread adds up its
// sums go to the block's words. A value of NARROW_CAP or more is not checked here: it raises its
// lane's eccentricity, which sums_flush compares with NARROW_CAP, and the pass runs again with
// 32-bit rows (its sums, however wrong, are dropped).
template <int LPT, bool N>
__device__ __forceinline__ void add_sums(const params &P, lane_sums (&s)[LPT], const uint32_t (&v)[LPT])
{
	const unsigned lane = threadIdx.x & 31;
	for (int i = 0; i < LPT; i++)
		if (v[i] != INF)
		{
			if constexpr (N)
				s[i].lo += v[i];
			else
				add_lo(&s_lsum_lo[i * 32 + lane], &s_lsum_hi[i * 32 + lane], v[i]);
			atomicMax(&s_lecc[i * 32 + lane], v[i]);
			if (P.harmonic && v[i] != 0)
				harm_add_shared(i * 32 + lane, sssp_harm_term(v[i]));
		}
		else
			atomicAdd(&s_linf[i * 32 + lane], 1u);
	s[0].nv++;
	if (N && (s[0].nv & 0xffffu) == 0)
		for (int i = 0; i < LPT; i++)
		{
			add_lo(&s_lsum_lo[i * 32 + lane], &s_lsum_hi[i * 32 + lane], s[i].lo);
			s[i].lo = 0;
		}
}

// The block's summaries set to 0 for a pass of K lanes (every thread of the block)
__device__ __forceinline__ void sums_clear(unsigned K)
{
	for (unsigned i = threadIdx.x; i < K; i += blockDim.x)
	{
		s_harm[0][i] = s_harm[1][i] = s_harm[2][i] = s_harm[3][i] = 0;
		s_lsum_lo[i] = s_lsum_hi[i] = 0;
		s_lecc[i] = s_linf[i] = 0;
	}
	if (threadIdx.x == 0)
		s_nv = 0;
}

// The threads' own parts added to the block's, then the block's to the pass's (one global atomic per
// lane and quantity); every thread of the block, after the last add_sums of the pass.
template <int LPT, bool N> __device__ __forceinline__ void sums_flush(const params &P, const lane_sums (&s)[LPT])
{
	constexpr unsigned K = 32 * LPT;
	const unsigned lane = threadIdx.x & 31;
	for (int i = 0; i < LPT; i++)
		if (N && s[i].lo)
			add_lo(&s_lsum_lo[i * 32 + lane], &s_lsum_hi[i * 32 + lane], s[i].lo);
	if (lane == 0 && s[0].nv)
		atomicAdd(&s_nv, s[0].nv);
	__syncthreads();
	for (unsigned i = threadIdx.x; i < K; i += blockDim.x)
	{
		if (N && s_lecc[i] >= NARROW_CAP)
			*P.overflow = 1; // perhaps more than a 16-bit row held: the host runs the pass again
		if (s_nv != s_linf[i])
		{
			unsigned j = (i % 32) * LPT + i / 32; // lane i % 32's lane i / 32 (add_sums)
			atomicAdd(&P.acc_sum[j], (unsigned long long)s_lsum_hi[i] << 32 | s_lsum_lo[i]);
			atomicMax(&P.acc_ecc[j], s_lecc[i]);
			atomicAdd(&P.acc_cnt[j], s_nv - s_linf[i]);
		}
	}
	for (unsigned i = threadIdx.x; i < K; i += blockDim.x)
	{
		struct sssp_harm h = { (unsigned long long)s_harm[1][i] << 32 | s_harm[0][i],
				       (unsigned long long)s_harm[3][i] << 32 | s_harm[2][i] };
		unsigned j = (i % 32) * LPT + i / 32; // lane i % 32's lane i / 32 (add_sums)
		if (h.lo || h.hi)
			sssp_harm_atomic_add(&P.acc_harm_lo[j], &P.acc_harm_hi[j], h);
	}
}
#endif
