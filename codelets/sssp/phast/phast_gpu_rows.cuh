// GPU PHAST's rows, 32-bit and 16-bit (narrow passes), and the narrow kernel's launch: included by
// phast_gpu.cu inside its anonymous namespace, after struct params, INF and sat_add (a part of that
// file, kept apart for the tree's size limit; not a header for other files).
#ifndef TUCCOMPI_SSSP_PHAST_GPU_ROWS_CUH
#define TUCCOMPI_SSSP_PHAST_GPU_ROWS_CUH

// Narrow passes (sssp_phast_gpu_knobs::narrow: rows that no output reads, on a hierarchy whose
// distances fit; docs/apsp.md, "PHAST"): the rows of the
// positions from s_top on are 16-bit, after the 32-bit rows of the positions before it.
// s_top is past every level that splits its vertices among warps (their rows take atomicMin, which
// has no 16-bit form): the top of the hierarchy, a few thousand vertices. A 16-bit row holds
// NARROW_INF for INF and at most NARROW_CAP; a distance of NARROW_CAP or more sets the pass's
// overflow word, and the host runs the pass again with 32-bit rows (s_top = n). A vertex with a
// 16-bit row is folded over its arcs in halves, two lanes a word (fold16); the summaries and the
// 32-bit rows take 32-bit values. (No 24-bit rows: their packing costs more than their bytes save.)
constexpr uint32_t NARROW_INF = 0xffffu, NARROW_CAP = 0xfffeu;

// W 32-bit words at r, as vectors of 4, 2 or 1 (r aligned to match)
template <int W> __device__ __forceinline__ void load_words(const uint32_t *r, uint32_t (&x)[W])
{
	if constexpr (W % 4 == 0)
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
	else
	{
		static_assert(W == 1, "rows are 1, 2 or a multiple of 4 words per thread");
		x[0] = *r;
	}
}

template <int W> __device__ __forceinline__ void store_words(uint32_t *r, const uint32_t (&x)[W])
{
	if constexpr (W % 4 == 0)
		for (int i = 0; i < W; i += 4)
			reinterpret_cast<uint4 *>(r)[i / 4] = make_uint4(x[i], x[i + 1], x[i + 2], x[i + 3]);
	else if constexpr (W == 2)
		*reinterpret_cast<uint2 *>(r) = make_uint2(x[0], x[1]);
	else
	{
		static_assert(W == 1, "rows are 1, 2 or a multiple of 4 words per thread");
		*r = x[0];
	}
}

template <int LPT> __device__ __forceinline__ void fill_row(uint32_t (&v)[LPT], uint32_t x)
{
	for (int i = 0; i < LPT; i++)
		v[i] = x;
}

__shared__ uint32_t s_top;  // the first position with a 16-bit row (n: none); set per block
__shared__ uint32_t s_over; // a final distance of NARROW_CAP or more in this block (narrow passes)

template <int LPT> __device__ __forceinline__ uint32_t *wide_row(const params &P, uint32_t p, unsigned lane)
{
	return P.dist + (size_t)p * (32 * LPT) + lane * LPT;
}

// the thread's part of 16-bit row p (p >= s_top), after the 32-bit rows
template <int LPT> __device__ __forceinline__ uint32_t *thin_row(const params &P, uint32_t p, unsigned lane)
{
	return reinterpret_cast<uint32_t *>(reinterpret_cast<uint16_t *>(P.dist + (size_t)s_top * (32 * LPT)) +
					    (size_t)(p - s_top) * (32 * LPT) + lane * LPT);
}

// a 32-bit value as a 16-bit row's half; a thread's values as a 16-bit row's halves (two lanes a
// word), and back
__device__ __forceinline__ uint32_t narrow_half(uint32_t v)
{
	return v == INF ? NARROW_INF : min(v, NARROW_CAP);
}

template <int LPT> __device__ __forceinline__ void pack16(const uint32_t (&v)[LPT], uint32_t (&x)[LPT / 2])
{
	for (int i = 0; i < LPT / 2; i++)
		x[i] = narrow_half(v[2 * i]) | narrow_half(v[2 * i + 1]) << 16;
}

template <int LPT> __device__ __forceinline__ void unpack16(const uint32_t (&x)[LPT / 2], uint32_t (&v)[LPT])
{
	for (int i = 0; i < LPT; i++)
	{
		const uint32_t h = (x[i / 2] >> (16 * (i & 1))) & 0xffffu;
		v[i] = h == NARROW_INF ? INF : h;
	}
}

// vertex p's row (the thread's LPT lanes of it), loaded, stored, or lowered lane by lane (atomicMin)
template <int LPT, bool N> __device__ __forceinline__ void row_load(const params &P, uint32_t p, unsigned lane, uint32_t (&v)[LPT])
{
	if constexpr (N)
		if (p >= s_top)
		{
			static_assert(LPT >= 4, "16-bit rows are for 128 and 256 lanes");
			uint32_t x[LPT / 2];
			load_words<LPT / 2>(thin_row<LPT>(P, p, lane), x);
			unpack16<LPT>(x, v);
			return;
		}
	load_words<LPT>(wide_row<LPT>(P, p, lane), v);
}

template <int LPT, bool N> __device__ __forceinline__ void row_store(const params &P, uint32_t p, unsigned lane, const uint32_t (&v)[LPT])
{
	if constexpr (N)
		if (p >= s_top)
		{
			uint32_t x[LPT / 2];
			pack16<LPT>(v, x);
			store_words<LPT / 2>(thin_row<LPT>(P, p, lane), x);
			return;
		}
	store_words<LPT>(wide_row<LPT>(P, p, lane), v);
}

// Narrow passes fold a 16-bit row over its arcs two lanes a word, with sm_90's 16x2 min and add
// (emulated before it). Per arc and word: t = the tail's halves, x = min(x, min(t, CAP - w) + w), and
// reach = min(reach, t). No half wraps: min(t, CAP - w) + w is at most NARROW_CAP. A finite tail
// whose sum is NARROW_CAP or more gives NARROW_CAP, which flags the pass (sums_flush), as its 32-bit
// sum would; an INF tail also gives NARROW_CAP, so a half whose tails and own row are all INF
// (reach NARROW_INF) is made INF at the end (fold16_end). The exact halves are the 32-bit fold's.
__device__ __forceinline__ uint32_t min16x2(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
	uint32_t r;
	asm("min.u16x2 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
#else
	return __vminu2(a, b);
#endif
}

// the thread's part of tail q's row as halves (a 32-bit row, above s_top, converted)
template <int LPT> __device__ __forceinline__ void tail16(const params &P, uint32_t q, unsigned lane, uint32_t (&t)[LPT / 2])
{
	if (q >= s_top)
	{
		load_words<LPT / 2>(thin_row<LPT>(P, q, lane), t);
		return;
	}
	uint32_t u[LPT];
	load_words<LPT>(wide_row<LPT>(P, q, lane), u);
	pack16<LPT>(u, t);
}

template <int H>
__device__ __forceinline__ void fold16(const uint32_t (&t)[H], uint32_t w, uint32_t (&x)[H], uint32_t (&reach)[H])
{
	const uint32_t wc = min(w, NARROW_CAP), w2 = wc * 0x10001u, lim = (NARROW_CAP - wc) * 0x10001u;
	for (int i = 0; i < H; i++)
	{
		x[i] = __viaddmin_u16x2(min16x2(t[i], lim), w2, x[i]);
		reach[i] = min16x2(reach[i], t[i]);
	}
}

template <int H> __device__ __forceinline__ void fold16_end(uint32_t (&x)[H], const uint32_t (&reach)[H])
{
	for (int i = 0; i < H; i++)
		x[i] |= __vcmpeq2(reach[i], 0xffffffffu);
}

template <int LPT, bool N> __device__ __forceinline__ void row_lower(const params &P, uint32_t p, unsigned lane, const uint32_t (&v)[LPT])
{
	if (N && p >= s_top)
	{
		// not reached while s_top is past every split level; exact all the same: the pass runs
		// again with 32-bit rows, where every row is below s_top
		s_over = 1;
		return;
	}
	uint32_t *row = wide_row<LPT>(P, p, lane);
	for (int i = 0; i < LPT; i++)
		if (v[i] != INF)
			atomicMin(&row[i], v[i]);
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
	} fit[6];
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
	fit[next % 6] = { kern, dev, asked, b, ps };
	next++;
	*block = b;
	*per_sm = ps;
	return cudaSuccess;
}
#endif
