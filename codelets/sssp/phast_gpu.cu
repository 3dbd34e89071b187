// PHAST on a GPU: see phast_gpu.h for the algorithm and its choices, ch.h for the layout.
//
// Parameters: LPT lanes per thread (1, 2, 4, 8: 32, 64, 128, 256 sources per pass); SMALL_PER_WARP:
// a level of at most that many vertices per warp of a block is "small" (run by block 0 alone
// when its neighbours are small too). Block size: the tuner's (phast_sweep* are
// characterised below); grid: every block that can be resident at once (a cooperative
// launch needs them all resident).
#include <cooperative_groups.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "phast_gpu.h"

namespace cg = cooperative_groups;

namespace
{
constexpr uint32_t INF = 0xffffffffu;
constexpr uint32_t CAP = 0xfffffffeu;
constexpr unsigned MAX_LANES = 256;
// A level chained into block 0 costs its vertices' latency per warp in turn; a grid-wide
// level costs one vertex's latency plus a grid barrier (a few microseconds): so chain levels
// of at most one vertex per warp (TUCCOMPI_PHAST_SMALL=k: k per warp, 0: never chain).
constexpr unsigned SMALL_PER_WARP = 1;

struct params
{
	uint32_t n, levels, k; // k: sources in this pass
	uint32_t small_per_warp;
	const uint32_t *level_start, *pos;
	const unsigned long long *upin_start, *down_start;
	const uint2 *upin, *down;
	// written and read by different blocks between grid barriers: no __restrict__, no
	// read-only (non-coherent) loads on these
	uint32_t *dist;
	uint8_t *flag;
	unsigned long long *acc_sum;
	uint32_t *acc_ecc, *acc_cnt;
	uint32_t src[MAX_LANES]; // original ids
};

__device__ __forceinline__ uint32_t sat_add(uint32_t d, uint32_t w)
{
	uint32_t t = min(d, CAP - w) + w;
	return d == INF ? INF : t;
}

template <int LPT> __device__ __forceinline__ void load_row(const uint32_t *r, uint32_t (&v)[LPT])
{
	if constexpr (LPT == 8)
	{
		uint4 x = reinterpret_cast<const uint4 *>(r)[0], y = reinterpret_cast<const uint4 *>(r)[1];
		v[0] = x.x;
		v[1] = x.y;
		v[2] = x.z;
		v[3] = x.w;
		v[4] = y.x;
		v[5] = y.y;
		v[6] = y.z;
		v[7] = y.w;
	}
	else if constexpr (LPT == 4)
	{
		uint4 x = *reinterpret_cast<const uint4 *>(r);
		v[0] = x.x;
		v[1] = x.y;
		v[2] = x.z;
		v[3] = x.w;
	}
	else if constexpr (LPT == 2)
	{
		uint2 x = *reinterpret_cast<const uint2 *>(r);
		v[0] = x.x;
		v[1] = x.y;
	}
	else
		v[0] = *r;
}

template <int LPT> __device__ __forceinline__ void store_row(uint32_t *r, const uint32_t (&v)[LPT])
{
	if constexpr (LPT == 8)
	{
		reinterpret_cast<uint4 *>(r)[0] = make_uint4(v[0], v[1], v[2], v[3]);
		reinterpret_cast<uint4 *>(r)[1] = make_uint4(v[4], v[5], v[6], v[7]);
	}
	else if constexpr (LPT == 4)
		*reinterpret_cast<uint4 *>(r) = make_uint4(v[0], v[1], v[2], v[3]);
	else if constexpr (LPT == 2)
		*reinterpret_cast<uint2 *>(r) = make_uint2(v[0], v[1]);
	else
		*r = v[0];
}

// Upward sweep step of position p (one warp): the minimum over upward in-arcs from reached
// vertices; p becomes reached if one of them is (or if it is a source).
template <int LPT> __device__ void up_vertex(const params &P, uint32_t p, unsigned lane)
{
	constexpr unsigned K = 32 * LPT;
	uint32_t *row = P.dist + (size_t)p * K + lane * LPT;
	uint32_t v[LPT];
	bool any = P.flag[p] != 0;
	if (any)
		load_row<LPT>(row, v);
	else
		for (int i = 0; i < LPT; i++)
			v[i] = INF;
	unsigned long long b = __ldg(&P.upin_start[p]), e = __ldg(&P.upin_start[p + 1]);
	for (unsigned long long c = b; c < e; c += 32)
	{
		unsigned cnt = e - c < 32 ? (unsigned)(e - c) : 32;
		uint2 a = lane < cnt ? __ldg(&P.upin[c + lane]) : make_uint2(0, 0);
		bool f = lane < cnt && P.flag[a.x] != 0;
		unsigned m = __ballot_sync(0xffffffffu, f);
		any |= m != 0;
		while (m)
		{
			int j = __ffs(m) - 1;
			m &= m - 1;
			uint32_t q = __shfl_sync(0xffffffffu, a.x, j), w = __shfl_sync(0xffffffffu, a.y, j);
			uint32_t u[LPT];
			load_row<LPT>(P.dist + (size_t)q * K + lane * LPT, u);
			for (int i = 0; i < LPT; i++)
				v[i] = min(v[i], sat_add(u[i], w));
		}
	}
	if (any)
	{
		store_row<LPT>(row, v);
		if (lane == 0)
			P.flag[p] = 1;
	}
}

struct lane_sums
{
	unsigned long long sum;
	uint32_t ecc, cnt;
};

// Downward sweep step of position p (one warp): final distances of p's row.
template <int LPT> __device__ void down_vertex(const params &P, uint32_t p, unsigned lane, lane_sums (&s)[LPT])
{
	constexpr unsigned K = 32 * LPT;
	uint32_t *row = P.dist + (size_t)p * K + lane * LPT;
	uint32_t v[LPT];
	if (P.flag[p])
		load_row<LPT>(row, v);
	else
		for (int i = 0; i < LPT; i++)
			v[i] = INF;
	unsigned long long b = __ldg(&P.down_start[p]), e = __ldg(&P.down_start[p + 1]);
	for (unsigned long long c = b; c < e; c += 32)
	{
		unsigned cnt = e - c < 32 ? (unsigned)(e - c) : 32;
		uint2 a = lane < cnt ? __ldg(&P.down[c + lane]) : make_uint2(0, 0);
		// unrolled so that several rows are in flight (the loop stores nothing)
#pragma unroll 4
		for (unsigned j = 0; j < cnt; j++)
		{
			uint32_t q = __shfl_sync(0xffffffffu, a.x, j), w = __shfl_sync(0xffffffffu, a.y, j);
			uint32_t u[LPT];
			load_row<LPT>(P.dist + (size_t)q * K + lane * LPT, u);
			for (int i = 0; i < LPT; i++)
				v[i] = min(v[i], sat_add(u[i], w));
		}
	}
	store_row<LPT>(row, v);
	for (int i = 0; i < LPT; i++)
		if (v[i] != INF)
		{
			s[i].sum += v[i];
			s[i].ecc = max(s[i].ecc, v[i]);
			s[i].cnt++;
		}
}

// Levels [first, last) of the sweep (block indices of level_start, in sweep order) that
// begin at `b`: one large level, or a run of small ones.
__device__ __forceinline__ bool is_small(const params &P, int b, unsigned small)
{
	return P.level_start[b + 1] - P.level_start[b] <= small;
}

template <int LPT> __device__ void phast_body(const params &P)
{
	constexpr unsigned K = 32 * LPT;
	cg::grid_group grid = cg::this_grid();
	const unsigned lane = threadIdx.x & 31, wib = threadIdx.x >> 5, wpb = blockDim.x >> 5;
	const unsigned long long gw = (unsigned long long)blockIdx.x * wpb + wib;
	const unsigned long long nw = (unsigned long long)gridDim.x * wpb;
	const unsigned small = wpb * P.small_per_warp;
	const int L = (int)P.levels;

	// 1. the sources' rows
	for (unsigned long long s = gw; s < P.k; s += nw)
	{
		uint32_t so = P.src[s], p = P.pos[so];
		uint32_t v[LPT];
		for (int i = 0; i < LPT; i++)
		{
			unsigned j = lane * LPT + i;
			v[i] = j < P.k && P.src[j] == so ? 0 : INF;
		}
		store_row<LPT>(P.dist + (size_t)p * K + lane * LPT, v);
		if (lane == 0)
			P.flag[p] = 1;
	}
	grid.sync();

	// 2. upward sweep, lowest level (last block) first
	for (int b = L - 1; b >= 0;)
	{
		if (is_small(P, b, small))
		{
			int e = b;
			while (e >= 0 && is_small(P, e, small))
				e--;
			if (blockIdx.x == 0)
				for (int c = b; c > e; c--)
				{
					for (uint32_t p = P.level_start[c] + wib; p < P.level_start[c + 1]; p += wpb)
						up_vertex<LPT>(P, p, lane);
					__syncthreads();
				}
			b = e;
		}
		else
		{
			for (unsigned long long p = P.level_start[b] + gw; p < P.level_start[b + 1]; p += nw)
				up_vertex<LPT>(P, (uint32_t)p, lane);
			b--;
		}
		grid.sync();
	}

	// 3. downward sweep, highest level (block 0) first
	lane_sums s[LPT];
	for (int i = 0; i < LPT; i++)
		s[i] = lane_sums{ 0, 0, 0 };
	for (int b = 0; b < L;)
	{
		if (is_small(P, b, small))
		{
			int e = b;
			while (e < L && is_small(P, e, small))
				e++;
			if (blockIdx.x == 0)
				for (int c = b; c < e; c++)
				{
					for (uint32_t p = P.level_start[c] + wib; p < P.level_start[c + 1]; p += wpb)
						down_vertex<LPT>(P, p, lane, s);
					__syncthreads();
				}
			b = e;
		}
		else
		{
			for (unsigned long long p = P.level_start[b] + gw; p < P.level_start[b + 1]; p += nw)
				down_vertex<LPT>(P, (uint32_t)p, lane, s);
			b++;
		}
		if (b < L)
			grid.sync();
	}

	// 4. the lanes' summaries: per block in shared memory, then one atomic per lane
	__shared__ unsigned long long s_sum[K];
	__shared__ uint32_t s_ecc[K], s_cnt[K];
	for (unsigned i = threadIdx.x; i < K; i += blockDim.x)
	{
		s_sum[i] = 0;
		s_ecc[i] = 0;
		s_cnt[i] = 0;
	}
	__syncthreads();
	for (int i = 0; i < LPT; i++)
		if (s[i].cnt)
		{
			unsigned j = lane * LPT + i;
			atomicAdd(&s_sum[j], s[i].sum);
			atomicMax(&s_ecc[j], s[i].ecc);
			atomicAdd(&s_cnt[j], s[i].cnt);
		}
	__syncthreads();
	for (unsigned i = threadIdx.x; i < K; i += blockDim.x)
		if (s_cnt[i])
		{
			atomicAdd(&P.acc_sum[i], s_sum[i]);
			atomicMax(&P.acc_ecc[i], s_ecc[i]);
			atomicAdd(&P.acc_cnt[i], s_cnt[i]);
		}
}
} // namespace

// One persistent kernel per pass; a scan of the vertices with scattered row reads, most of
// them within a few cache lines of the previous (vertices in level then id order).
TUCCOMPI_KERNELCHAR(phast_sweep32, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep64, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep128, 1, medium_coalesced, low, high, low);
TUCCOMPI_KERNELCHAR(phast_sweep256, 1, medium_coalesced, low, high, low);
// One lane's distances gathered into original order: strided reads, coalesced writes.
TUCCOMPI_KERNELCHAR(phast_rows, 1, scatter, none, low, low);

__global__ void phast_sweep32(params P)
{
	phast_body<1>(P);
}
__global__ void phast_sweep64(params P)
{
	phast_body<2>(P);
}
__global__ void phast_sweep128(params P)
{
	phast_body<4>(P);
}
__global__ void phast_sweep256(params P)
{
	phast_body<8>(P);
}

__global__ void phast_rows(const uint32_t *dist, const uint32_t *__restrict__ pos, uint32_t n, unsigned lanes,
			   unsigned lane, uint32_t *out)
{
	uint32_t o = blockIdx.x * blockDim.x + threadIdx.x;
	if (o < n)
		out[o] = dist[(size_t)__ldg(&pos[o]) * lanes + lane];
}

namespace
{
int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	if (err && errlen)
	{
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return rc;
}

size_t up256(size_t x)
{
	return (x + 255) & ~(size_t)255;
}

struct layout
{
	uint32_t *dist;
	uint8_t *flag;
	unsigned long long *acc_sum;
	uint32_t *acc_ecc, *acc_cnt;
	uint32_t *staging;
	size_t bytes;
};

layout lay_out(void *base, uint32_t n, unsigned lanes)
{
	layout l;
	char *p = (char *)base;
	size_t off = 0;
	l.dist = (uint32_t *)(p + off);
	off += up256((size_t)n * lanes * sizeof(uint32_t));
	l.flag = (uint8_t *)(p + off);
	off += up256(n);
	l.acc_sum = (unsigned long long *)(p + off);
	off += up256(lanes * sizeof(unsigned long long));
	l.acc_ecc = (uint32_t *)(p + off);
	off += up256(lanes * sizeof(uint32_t));
	l.acc_cnt = (uint32_t *)(p + off);
	off += up256(lanes * sizeof(uint32_t));
	l.staging = (uint32_t *)(p + off);
	off += up256((size_t)n * sizeof(uint32_t));
	l.bytes = off;
	return l;
}

// Per host thread: pinned staging of the summaries (a StarPU CUDA worker is one thread).
struct host_acc
{
	unsigned long long sum[MAX_LANES];
	uint32_t ecc[MAX_LANES], cnt[MAX_LANES];
};
thread_local host_acc *pinned_acc;
} // namespace

extern "C" size_t sssp_phast_gpu_workspace_size(uint32_t n, unsigned lanes)
{
	if (lanes != 32 && lanes != 64 && lanes != 128 && lanes != 256)
		return 0;
	return lay_out(nullptr, n, lanes).bytes;
}

#define CUDA_TRY(call)                                                                                           \
	do                                                                                                       \
	{                                                                                                        \
		cudaError_t e_ = (call);                                                                         \
		if (e_ != cudaSuccess)                                                                           \
			return fail(err, errlen, -EIO, "PHAST GPU: %s: %s", #call, cudaGetErrorString(e_));       \
	} while (0)

extern "C" int sssp_phast_gpu(const struct sssp_ch_view *v, const uint32_t *src, unsigned nsrc, unsigned lanes,
			      void *work, size_t work_bytes, struct sssp_summary *out, uint32_t *const *rows,
			      void *stream, char *err, size_t errlen)
{
	uint32_t n = v->n;
	const void *kern = lanes == 32    ? (const void *)phast_sweep32
			   : lanes == 64  ? (const void *)phast_sweep64
			   : lanes == 128 ? (const void *)phast_sweep128
			   : lanes == 256 ? (const void *)phast_sweep256
					  : nullptr;
	struct tuccompi_kernel *kk = lanes == 32    ? TUCCOMPI_KERNEL(phast_sweep32)
				     : lanes == 64  ? TUCCOMPI_KERNEL(phast_sweep64)
				     : lanes == 128 ? TUCCOMPI_KERNEL(phast_sweep128)
						    : TUCCOMPI_KERNEL(phast_sweep256);
	if (!kern)
		return fail(err, errlen, -EINVAL, "PHAST GPU: %u lanes per pass; use 32, 64, 128 or 256", lanes);
	layout l = lay_out(work, n, lanes);
	if (!work || work_bytes < l.bytes)
		return fail(err, errlen, -EINVAL, "PHAST GPU: workspace of %zu bytes, %zu needed (sssp_phast_gpu_workspace_size)",
			    work_bytes, l.bytes);
	for (unsigned i = 0; i < nsrc; i++)
		if (src[i] >= n)
			return fail(err, errlen, -EINVAL, "PHAST GPU: source %u is not a vertex (n = %u)", src[i], n);
	if (nsrc == 0)
		return 0;
	cudaStream_t s = (cudaStream_t)stream;

	int dev, coop = 0, sms = 0;
	CUDA_TRY(cudaGetDevice(&dev));
	CUDA_TRY(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
	CUDA_TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
	if (!coop)
		return fail(err, errlen, -ENODEV, "PHAST GPU: device %d cannot launch cooperative kernels", dev);
	struct tuccompi_geometry geo;
	if (tuccompi_gpu_geometry(kk, kern, n, 1, 0, &geo) < 0)
		return fail(err, errlen, -ENODEV, "PHAST GPU: no launch geometry: %s", tuccompi_last_error());
	unsigned block = geo.block_x * geo.block_y;
	block = block < 32 ? 32 : (block + 31) / 32 * 32; /* whole warps: a warp per vertex */
	if (geo.carveout >= 0)
		cudaFuncSetAttribute(kern, cudaFuncAttributePreferredSharedMemoryCarveout, geo.carveout);
	int per_sm = 0;
	CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, (int)block, 0));
	if (per_sm < 1)
		return fail(err, errlen, -ENODEV, "PHAST GPU: a block of %u threads cannot be resident on device %d", block, dev);
	dim3 grid((unsigned)per_sm * (unsigned)sms), blk(block);

	if (!pinned_acc)
		CUDA_TRY(cudaMallocHost((void **)&pinned_acc, sizeof *pinned_acc));
	struct tuccompi_geometry rgeo;
	unsigned rblock = 256;
	if (rows && tuccompi_gpu_geometry(TUCCOMPI_KERNEL(phast_rows), (const void *)phast_rows, n, 1, 0, &rgeo) == 0)
		rblock = rgeo.block_x;

	params P;
	memset(&P, 0, sizeof P);
	P.n = n;
	P.levels = v->levels;
	P.small_per_warp = SMALL_PER_WARP;
	const char *sm = getenv("TUCCOMPI_PHAST_SMALL");
	if (sm && *sm)
		P.small_per_warp = (uint32_t)atoi(sm);
	P.level_start = v->level_start;
	P.pos = v->pos;
	P.upin_start = (const unsigned long long *)v->upin_start;
	P.down_start = (const unsigned long long *)v->down_start;
	P.upin = (const uint2 *)v->upin;
	P.down = (const uint2 *)v->down;
	P.dist = l.dist;
	P.flag = l.flag;
	P.acc_sum = l.acc_sum;
	P.acc_ecc = l.acc_ecc;
	P.acc_cnt = l.acc_cnt;
	for (unsigned g = 0; g < nsrc; g += lanes)
	{
		unsigned k = nsrc - g < lanes ? nsrc - g : lanes;
		P.k = k;
		memcpy(P.src, src + g, k * sizeof(uint32_t));
		CUDA_TRY(cudaMemsetAsync(l.flag, 0, n, s));
		CUDA_TRY(cudaMemsetAsync(l.acc_sum, 0, (char *)l.staging - (char *)l.acc_sum, s));
		void *args[] = { &P };
		CUDA_TRY(cudaLaunchCooperativeKernel(kern, grid, blk, args, 0, s));
		if (rows)
			for (unsigned i = 0; i < k; i++)
				if (rows[g + i])
				{
					phast_rows<<<(n + rblock - 1) / rblock, rblock, 0, s>>>(l.dist, v->pos, n, lanes, i, l.staging);
					CUDA_TRY(cudaGetLastError());
					CUDA_TRY(cudaMemcpyAsync(rows[g + i], l.staging, (size_t)n * sizeof(uint32_t),
								 cudaMemcpyDeviceToHost, s));
				}
		CUDA_TRY(cudaMemcpyAsync(pinned_acc->sum, l.acc_sum, lanes * sizeof(unsigned long long), cudaMemcpyDeviceToHost, s));
		CUDA_TRY(cudaMemcpyAsync(pinned_acc->ecc, l.acc_ecc, lanes * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
		CUDA_TRY(cudaMemcpyAsync(pinned_acc->cnt, l.acc_cnt, lanes * sizeof(uint32_t), cudaMemcpyDeviceToHost, s));
		CUDA_TRY(cudaStreamSynchronize(s));
		for (unsigned i = 0; i < k; i++)
		{
			struct sssp_summary *o = &out[g + i];
			o->source = src[g + i];
			o->sum = pinned_acc->sum[i];
			o->ecc = pinned_acc->ecc[i];
			o->reached = pinned_acc->cnt[i];
			o->phases = v->levels;
			o->overflow = pinned_acc->ecc[i] >= SSSP_DIST_LIMIT;
		}
	}
	return 0;
}
