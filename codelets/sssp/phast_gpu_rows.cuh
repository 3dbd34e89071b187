// GPU PHAST's rows, 32-bit and 16-bit (narrow passes), and the narrow kernel's launch: included by
// phast_gpu.cu inside its anonymous namespace, after struct params, INF and sat_add (a part of that
// file, kept apart for the tree's size limit; not a header for other files).
#ifndef TUCCOMPI_SSSP_PHAST_GPU_ROWS_CUH
#define TUCCOMPI_SSSP_PHAST_GPU_ROWS_CUH

// Narrow passes (sssp_phast_gpu_knobs::narrow: rows that no output reads, on a hierarchy whose
// distances fit; docs/apsp.md, "PHAST's 16-bit rows"): the rows of the positions from s_top on
// are 16-bit, after the 32-bit rows of the positions before it. s_top is past every level that
// splits its vertices among warps (their rows take atomicMin, which has no 16-bit form): the top
// of the hierarchy, a few thousand vertices. A 16-bit row holds NARROW_INF for INF and at most
// NARROW_CAP; a distance of NARROW_CAP or more sets the pass's overflow word, and the host runs
// the pass again with 32-bit rows only (s_top = n). Registers hold 32-bit values either way; only
// loads and stores convert.
constexpr uint32_t NARROW_INF = 0xffffu, NARROW_CAP = 0xfffeu;

__device__ __forceinline__ uint32_t widen(uint32_t h)
{
	return h == NARROW_INF ? INF : h;
}

__device__ __forceinline__ uint32_t narrow(uint32_t v)
{
	return v == INF ? NARROW_INF : min(v, NARROW_CAP);
}

// LPT words of D as 32-bit values: the raw words of 4 * LPT or 2 * LPT bytes, then widened
template <int LPT, typename D> __device__ __forceinline__ void load_row(const D *r, uint32_t (&v)[LPT])
{
	constexpr int W = LPT * (int)sizeof(D) / 4; // 32-bit words of the thread's part (narrow LPT 1: none)
	uint32_t x[W > 0 ? W : 1];
	if constexpr (W >= 4)
		for (int i = 0; i < W; i += 4)
		{
			uint4 q = reinterpret_cast<const uint4 *>(r)[i / 4];
			x[i] = q.x;
			x[i + 1] = q.y;
			x[i + 2] = q.z;
			x[i + 3] = q.w;
		}
	else if constexpr (W == 2)
	{
		uint2 q = *reinterpret_cast<const uint2 *>(r);
		x[0] = q.x;
		x[1] = q.y;
	}
	else if constexpr (W == 1)
		x[0] = *reinterpret_cast<const uint32_t *>(r);
	else
		x[0] = *r;
	if constexpr (sizeof(D) == 4)
		for (int i = 0; i < LPT; i++)
			v[i] = x[i];
	else if constexpr (W == 0)
		v[0] = widen(x[0]);
	else
		for (int i = 0; i < LPT; i++)
			v[i] = widen((x[i / 2] >> (16 * (i & 1))) & 0xffffu);
}

template <int LPT, typename D> __device__ __forceinline__ void store_row(D *r, const uint32_t (&v)[LPT])
{
	constexpr int W = LPT * (int)sizeof(D) / 4;
	uint32_t x[W > 0 ? W : 1];
	if constexpr (sizeof(D) == 4)
		for (int i = 0; i < LPT; i++)
			x[i] = v[i];
	else if constexpr (W == 0)
		x[0] = narrow(v[0]);
	else
		for (int i = 0; i < W; i++)
			x[i] = narrow(v[2 * i]) | narrow(v[2 * i + 1]) << 16;
	if constexpr (W >= 4)
		for (int i = 0; i < W; i += 4)
			reinterpret_cast<uint4 *>(r)[i / 4] = make_uint4(x[i], x[i + 1], x[i + 2], x[i + 3]);
	else if constexpr (W == 2)
		*reinterpret_cast<uint2 *>(r) = make_uint2(x[0], x[1]);
	else if constexpr (W == 1)
		*reinterpret_cast<uint32_t *>(r) = x[0];
	else
		*r = (D)x[0];
}

template <int LPT> __device__ __forceinline__ void fill_row(uint32_t (&v)[LPT], uint32_t x)
{
	for (int i = 0; i < LPT; i++)
		v[i] = x;
}

__shared__ uint32_t s_top;  // the first position with a 16-bit row (n: none); set per block
__shared__ uint32_t s_over; // a final distance of NARROW_CAP or more in this block (narrow passes)

template <int LPT, bool N> __device__ __forceinline__ uint32_t *wide_row(const params &P, uint32_t p, unsigned lane)
{
	return P.dist + (size_t)p * (32 * LPT) + lane * LPT;
}

template <int LPT, bool N> __device__ __forceinline__ uint16_t *thin_row(const params &P, uint32_t p, unsigned lane)
{
	return reinterpret_cast<uint16_t *>(P.dist + (size_t)s_top * (32 * LPT)) + (size_t)(p - s_top) * (32 * LPT) +
	       lane * LPT;
}

// vertex p's row (the thread's LPT lanes of it), loaded, stored, or lowered lane by lane (atomicMin)
template <int LPT, bool N> __device__ __forceinline__ void row_load(const params &P, uint32_t p, unsigned lane, uint32_t (&v)[LPT])
{
	if (!N || p < s_top)
		load_row<LPT, uint32_t>(wide_row<LPT, N>(P, p, lane), v);
	else
		load_row<LPT, uint16_t>(thin_row<LPT, N>(P, p, lane), v);
}

template <int LPT, bool N> __device__ __forceinline__ void row_store(const params &P, uint32_t p, unsigned lane, const uint32_t (&v)[LPT])
{
	if (!N || p < s_top)
		store_row<LPT, uint32_t>(wide_row<LPT, N>(P, p, lane), v);
	else
		store_row<LPT, uint16_t>(thin_row<LPT, N>(P, p, lane), v);
}

template <int LPT, bool N> __device__ __forceinline__ void row_lower(const params &P, uint32_t p, unsigned lane, const uint32_t (&v)[LPT])
{
	if (!N || p < s_top)
	{
		uint32_t *row = wide_row<LPT, N>(P, p, lane);
		for (int i = 0; i < LPT; i++)
			if (v[i] != INF)
				atomicMin(&row[i], v[i]);
		return;
	}
	// not reached while s_top is past every split level; kept exact all the same: a compare-and-swap
	// of the 32-bit word that holds the 16-bit lane
	uint16_t *row = thin_row<LPT, N>(P, p, lane);
	for (int i = 0; i < LPT; i++)
		if (v[i] != INF)
		{
			const uint32_t h = narrow(v[i]);
			uint32_t *w = reinterpret_cast<uint32_t *>(reinterpret_cast<uintptr_t>(&row[i]) & ~(uintptr_t)3);
			const unsigned sh = (reinterpret_cast<uintptr_t>(&row[i]) & 2) * 8;
			uint32_t old = *w, assumed;
			do
			{
				assumed = old;
				if (((assumed >> sh) & 0xffffu) <= h)
					break;
				old = atomicCAS(w, assumed, (assumed & ~(0xffffu << sh)) | h << sh);
			} while (old != assumed);
		}
}

// Block and resident blocks per SM of a sweep kernel on device dev: the tuner's block, raised to the
// largest with as many resident warps per SM (fewer blocks: a cheaper grid barrier and more warps
// for the chained levels; the tuner may pick small blocks when registers limit occupancy: 32
// threads at 256 lanes). The last answers per thread are kept (each query costs microseconds).
cudaError_t fit_block(const void *kern, int dev, unsigned asked, unsigned *block, int *per_sm)
{
	static thread_local struct
	{
		const void *kern;
		int dev;
		unsigned asked, block;
		int per_sm;
	} fit[4];
	static thread_local unsigned next;
	for (auto &f : fit)
		if (f.kern == kern && f.dev == dev && f.asked == asked)
		{
			*block = f.block;
			*per_sm = f.per_sm;
			return cudaSuccess;
		}
	unsigned b = asked;
	int ps = 0;
	for (;; b -= 32)
	{
		cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&ps, kern, (int)b, 0);
		if (e != cudaSuccess)
			return e;
		if (ps >= 1 || b == 32)
			break;
	}
	if (ps >= 1)
		for (unsigned c = 1024; c > b; c -= 32)
		{
			int q = 0;
			if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&q, kern, (int)c, 0) == cudaSuccess && q >= 1 &&
			    (unsigned)q * c >= (unsigned)ps * b)
			{
				b = c;
				ps = q;
				break;
			}
		}
	fit[next % 4] = { kern, dev, asked, b, ps };
	next++;
	*block = b;
	*per_sm = ps;
	return cudaSuccess;
}
#endif
