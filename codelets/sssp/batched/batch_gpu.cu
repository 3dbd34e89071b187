// Batched SSSP on a GPU, the host driver: the workspace's layout, the kernels' characterisations
// and launch geometry, and one traversal after another for a batch (sssp_batch_gpu_run, batch_gpu.h).
// The algorithm and its references: batch_gpu_kernels.cu. Block sizes come from the tuner
// (tuccompi_gpu_geometry); the device loop's grid is the occupancy limit times the SMs / share.
// The engine launches its kernels itself, with the tuner's geometry, on the stream it is given (its
// device loop is a cooperative launch, and callers outside tasks pass their own streams), each launch
// checked (CK).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#include "batched/batch_gpu_kernels.h"
#include "common/buffers.h"
#include "common/fail.h"
#include "common/gpu_launch.h"

TUCCOMPI_KERNELCHAR(batch_init, 1, coalesced, none, low, low);
// The device loop: data-dependent rows of the distances, n rows of lanes (scatter), few
// instructions per access, lines evicted long before reuse (C high), no reuse (D low). One object
// per lane count: the tuner keeps its decisions per object.
TUCCOMPI_KERNELCHAR(batch_loop, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR(batch_loop64, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR(batch_summary, 1, coalesced, low, low, low);
TUCCOMPI_KERNELCHAR(batch_summary64, 1, coalesced, low, low, low);
// Transpose through a shared-memory tile: coalesced both ways, each word reused once (D medium).
TUCCOMPI_KERNELCHAR(batch_rows, 1, coalesced, none, low, medium);
TUCCOMPI_KERNELCHAR(batch_rows64, 1, coalesced, none, low, medium);
// The targets' columns: a few scattered reads per target.
TUCCOMPI_KERNELCHAR(batch_cols, 1, scatter, none, low, low);

// ------------------------------------------------------------------ workspace layout

struct layout
{
	size_t dist, F0, F1, FM, L0, L1, FL0, FL1, Qv, Qm, Qc, HPv, HPc, dev, cnt, stage, cols, total;
};

static size_t place(size_t *off, size_t bytes)
{
	size_t at = *off;
	*off = (at + bytes + 255) & ~(size_t)255;
	return at;
}

// The layout for LANES sources per traversal; narrower traversals use its first part of each array.
static void layout_of(uint32_t n, int with_rows, uint32_t ntargets, struct layout *l)
{
	size_t off = 0, nn = n ? n : 1, w4 = nn * sizeof(uint32_t), m8 = nn * (LANES / 8);
	l->dist = place(&off, nn * LANES * sizeof(uint32_t));
	l->F0 = place(&off, m8);
	l->F1 = place(&off, m8);
	l->FM = place(&off, m8);
	l->L0 = place(&off, w4);
	l->L1 = place(&off, w4);
	l->FL0 = place(&off, w4);
	l->FL1 = place(&off, w4);
	l->Qv = place(&off, 2 * w4);
	l->Qm = place(&off, 2 * m8);
	l->Qc = place(&off, 2 * w4);
	l->HPv = place(&off, 2 * w4);
	l->HPc = place(&off, 2 * w4);
	l->dev = place(&off, sizeof(struct batch_dev));
	l->cnt = place(&off, SSSP_BATCH_CNT(SSSP_BATCH_NCOUNTERS) * sizeof(uint32_t));
	l->stage = with_rows ? place(&off, nn * LANES * sizeof(uint32_t)) : 0;
	l->cols = ntargets ? place(&off, (size_t)ntargets * LANES * sizeof(uint32_t)) : 0;
	l->total = off;
}

extern "C" size_t sssp_batch_gpu_workspace_size(uint32_t n, int with_rows)
{
	return sssp_batch_gpu_workspace_size_cols(n, with_rows, 0);
}

extern "C" size_t sssp_batch_gpu_workspace_size_cols(uint32_t n, int with_rows, uint32_t ntargets)
{
	struct layout l;
	layout_of(n, with_rows, ntargets, &l);
	return l.total + 256; // the base is aligned up to 256 bytes
}

extern "C" const uint32_t *sssp_batch_gpu_dist(const void *work)
{
	struct layout l;
	layout_of(1, 0, 0, &l); // the distances come first, whatever n
	return (const uint32_t *)((((uintptr_t)work + 255) & ~(uintptr_t)255) + l.dist);
}

static thread_local struct sssp_batch_stats last_stats;
static thread_local int have_last_stats;

extern "C" int sssp_batch_gpu_last_stats(struct sssp_batch_stats *out)
{
	if (!have_last_stats)
		return -ENOENT;
	*out = last_stats;
	return 0;
}

// One way to fail (common/fail.h): a line in err, a negative errno; sssp_batch_gpu_run waits for the
// stream before it returns an error (its caller may then free the workspace).
#define FAIL(code, ...) return sssp_fail(err, errlen, (code), __VA_ARGS__)
#define CK(call) TUCCOMPI_CUDA_CHECK(call, "sssp_batch_gpu_run", err, errlen)

static int geometry(struct tuccompi_kernel *k, const void *func, uint64_t nx, size_t shmem, unsigned *bx, char *err,
		    size_t errlen)
{
	return sssp_gpu_block(k, func, nx, shmem, bx, "sssp_batch_gpu_run", err, errlen);
}

// The kernels of one lane count (K sources per lane) and their characterisations.
struct kernels
{
	struct batch_kernel_ptrs f;
	struct tuccompi_kernel *kloop, *ksummary, *krows, *kcols;
};

static void kernels_of(int K, struct kernels *k)
{
	const int two = K == 2;
	batch_kernels_of(K, &k->f);
	k->kloop = two ? TUCCOMPI_KERNEL(batch_loop64) : TUCCOMPI_KERNEL(batch_loop);
	k->ksummary = two ? TUCCOMPI_KERNEL(batch_summary64) : TUCCOMPI_KERNEL(batch_summary);
	k->krows = two ? TUCCOMPI_KERNEL(batch_rows64) : TUCCOMPI_KERNEL(batch_rows);
	k->kcols = TUCCOMPI_KERNEL(batch_cols);
}

extern "C" void sssp_batch_gpu_graph_free(struct sssp_batch_dgraph *dg)
{
	const void *p[6] = { dg->rowptr, dg->col, dg->w, dg->in_rowptr, dg->in_col, dg->in_w };
	for (int k = 0; k < 6; k++)
		cudaFree((void *)p[k]);
	memset(dg, 0, sizeof(*dg));
}

extern "C" int sssp_batch_gpu_graph_upload(const struct sssp_graph *g, struct sssp_batch_dgraph *dg, char *err,
					   size_t errlen)
{
	memset(dg, 0, sizeof(*dg));
	size_t n1 = ((size_t)g->n + 1) * sizeof(uint64_t), m4 = (size_t)g->m * sizeof(uint32_t);
	uint64_t *irp = (uint64_t *)malloc(n1);
	uint32_t *icol = (uint32_t *)malloc(m4 ? m4 : 4), *iw = (uint32_t *)malloc(m4 ? m4 : 4);
	if (!irp || !icol || !iw)
	{
		free(irp);
		free(icol);
		free(iw);
		FAIL(-ENOMEM, "sssp_batch_gpu_graph_upload: out of memory for the transpose (%llu arcs)",
		     (unsigned long long)g->m);
	}
	sssp_transpose(g, irp, icol, iw);
	const void *host[6] = { g->rowptr, g->col, g->w, irp, icol, iw };
	const size_t bytes[6] = { n1, m4, m4, n1, m4, m4 };
	void *dev[6] = { 0 };
	cudaError_t e = cudaSuccess;
	for (int k = 0; k < 6 && e == cudaSuccess; k++)
		if ((e = cudaMalloc(&dev[k], bytes[k] ? bytes[k] : 4)) == cudaSuccess && bytes[k])
			e = cudaMemcpy(dev[k], host[k], bytes[k], cudaMemcpyHostToDevice);
	free(irp);
	free(icol);
	free(iw);
	dg->n = g->n;
	dg->m = g->m;
	dg->rowptr = (const uint64_t *)dev[0];
	dg->col = (const uint32_t *)dev[1];
	dg->w = (const uint32_t *)dev[2];
	dg->in_rowptr = (const uint64_t *)dev[3];
	dg->in_col = (const uint32_t *)dev[4];
	dg->in_w = (const uint32_t *)dev[5];
	if (e != cudaSuccess)
	{
		sssp_batch_gpu_graph_free(dg);
		FAIL(-EIO, "sssp_batch_gpu_graph_upload: %s (%.1f MB of arcs)", cudaGetErrorString(e), 2.0 * (n1 + 2 * m4) / 1e6);
	}
	return 0;
}

static int batch_run(const struct sssp_batch_dgraph *g, const uint32_t *src, unsigned nsrc, void *work,
		     const struct sssp_batch_params *p, void *stream, struct sssp_summary *out, uint32_t *rows, char *err,
		     size_t errlen)
{
	cudaStream_t s = (cudaStream_t)stream;
	if (!g || !src || !work || !out)
		FAIL(-EINVAL, "sssp_batch_gpu_run: NULL graph, sources, workspace or output");
	if (nsrc < 1 || nsrc > LANES)
		FAIL(-EINVAL, "sssp_batch_gpu_run: %u sources; a batch takes 1 to %d", nsrc, LANES);
	if (!g->n || !g->rowptr || !g->in_rowptr || (g->m && (!g->col || !g->w || !g->in_col || !g->in_w)))
		FAIL(-EINVAL, "sssp_batch_gpu_run: graph without vertices or without its arrays (out- and in-arcs)");
	for (unsigned i = 0; i < nsrc; i++)
		if (src[i] >= g->n)
			FAIL(-EINVAL, "sssp_batch_gpu_run: source %u (index %u) is not a vertex (n = %u)", src[i], i, g->n);

	// sources per traversal: 32 (one slot per lane) or 64 (two)
	struct sssp_batch_knobs kn;
	if (p && p->knobs)
		kn = *p->knobs;
	else
		sssp_batch_knobs_default(&kn);
	if (kn.lanes && kn.lanes != 32 && kn.lanes != 64)
		FAIL(-EINVAL, "sssp_batch_gpu_run: %u lanes per traversal; use 32, 64 or 0 (by the batch)", kn.lanes);
	const unsigned width = kn.lanes ? kn.lanes : nsrc <= 32 ? 32 : 64;
	const int K = (int)width / 32;

	struct kparams P;
	memset(&P, 0, sizeof(P));
	P.n = g->n;
	P.chunk = sssp_batch_chunk(g->n, g->m, kn.chunk_min);
	P.sparse_popc = kn.sparse_popc;
	P.cfg.n = g->n;
	P.cfg.delta = p ? p->delta : 0;
	P.cfg.pull_div = kn.pull_div;
	P.cfg.pull_density = kn.pull_density;
	P.timeout_ns = (unsigned long long)kn.timeout_s * 1000000000ull;
	P.rowptr = g->rowptr;
	P.col = g->col;
	P.w = g->w;
	P.in_rowptr = g->in_rowptr;
	P.in_col = g->in_col;
	P.in_w = g->in_w;

	const uint32_t T = p && (p->cols || p->col_dst) ? p->ntargets : 0;
	if (T && !p->targets)
		FAIL(-EINVAL, "sssp_batch_gpu_run: %u target columns without their device array", T);
	struct layout l;
	layout_of(g->n, rows != NULL, T, &l);
	char *base = (char *)(((uintptr_t)work + 255) & ~(uintptr_t)255);
	P.dist = (uint32_t *)(base + l.dist);
	P.F[0] = base + l.F0;
	P.F[1] = base + l.F1;
	P.FM = base + l.FM;
	P.L[0] = (uint32_t *)(base + l.L0);
	P.L[1] = (uint32_t *)(base + l.L1);
	P.FL[0] = (uint32_t *)(base + l.FL0);
	P.FL[1] = (uint32_t *)(base + l.FL1);
	P.Qv = (uint32_t *)(base + l.Qv);
	P.Qm = base + l.Qm;
	P.Qc = (uint32_t *)(base + l.Qc);
	P.HPv = (uint32_t *)(base + l.HPv);
	P.HPc = (uint32_t *)(base + l.HPc);
	P.dev = (struct batch_dev *)(base + l.dev);
	P.cnt = (uint32_t *)(base + l.cnt);
	uint32_t *stage = rows ? (uint32_t *)(base + l.stage) : NULL;
	uint32_t *dcols = T ? (uint32_t *)(base + l.cols) : NULL;

	int dev, sms, r;
	if ((r = sssp_gpu_device(1, &dev, &sms, "sssp_batch_gpu_run", err, errlen)) < 0)
		return r;

	// Block sizes from the tuner; the device loop's grid from the occupancy of that block size.
	struct kernels kf;
	kernels_of(K, &kf);
	unsigned bx_init, bx_loop, bx_sum, bx_rows = 0, bx_cols = 0;
	if ((r = geometry(TUCCOMPI_KERNEL(batch_init), kf.f.init, (uint64_t)g->n * 8 * K, 0, &bx_init,
			  err, errlen)) < 0 ||
	    (r = geometry(kf.kloop, kf.f.loop, g->n, BATCH_LOOP_SHMEM(256), &bx_loop, err, errlen)) < 0 ||
	    (r = geometry(kf.ksummary, kf.f.summary, (uint64_t)g->n * 32, 0, &bx_sum, err, errlen)) < 0 ||
	    (rows && (r = geometry(kf.krows, kf.f.rows, g->n, 0, &bx_rows, err, errlen)) < 0) ||
	    (T && (r = geometry(kf.kcols, kf.f.cols, (uint64_t)T * LANES, 0, &bx_cols, err, errlen)) < 0))
		return r;
	int bps = 0;
	CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kf.f.loop, (int)bx_loop, BATCH_LOOP_SHMEM(bx_loop)));
	if (bps < 1)
		FAIL(-EIO, "sssp_batch_gpu_run: batch_loop cannot run %u threads per block on device %d", bx_loop, dev);
	unsigned share = p && p->share > 1 ? p->share : 1;
	uint64_t grid = (uint64_t)bps * (unsigned)sms / share;
	// no more warps than frontier vertices can ever need (small graphs: a cheaper barrier)
	uint64_t useful = ((uint64_t)g->n * 32 + bx_loop - 1) / bx_loop;
	if (grid > useful)
		grid = useful;
	if (grid < 1)
		grid = 1;

	unsigned cap = (unsigned)sms * 32;
	uint32_t T0 = P.cfg.delta ? P.cfg.delta : SSSP_BATCH_INF;
	struct sssp_batch_stats st;
	memset(&st, 0, sizeof(st));
	st.lanes = width;
	st.grid = (uint32_t)grid;
	st.block = bx_loop;
	st.chunk = P.chunk;
	st.delta = P.cfg.delta;
	st.pull_div = P.cfg.pull_div;
	st.pull_density = P.cfg.pull_density;
	st.sparse_popc = P.sparse_popc;
	// one traversal per `width` sources, one after the other
	for (unsigned off = 0; off < nsrc; off += width)
	{
		const unsigned k = nsrc - off < width ? nsrc - off : width;
		P.nsrc = k;
		for (unsigned i = 0; i < k; i++)
			P.src[i] = src[off + i];
		uint64_t n4 = (uint64_t)g->n * 8 * K, nw = (uint64_t)g->n * K;
		void *iargs[] = { &P.dist, &n4, &P.F[0], &P.F[1], &P.FM, &nw, &P.dev, &P.cnt, &T0 };
		CK(cudaLaunchKernel(kf.f.init, dim3(sssp_grid_for(n4, bx_init, cap)), dim3(bx_init), iargs, 0, s));
		void *args[] = { &P };
		CK(cudaLaunchCooperativeKernel(kf.f.loop, dim3((unsigned)grid), dim3(bx_loop), args, BATCH_LOOP_SHMEM(bx_loop),
					       s));
		void *sargs[] = { &P.dist, &P.n, &P.nsrc, &P.dev };
		CK(cudaLaunchKernel(kf.f.summary, dim3(sssp_grid_for((uint64_t)g->n * 32, bx_sum, cap)), dim3(bx_sum), sargs, 0, s));
		if (rows)
		{
			void *rargs[] = { &P.dist, &P.n, &P.nsrc, &stage };
			CK(cudaLaunchKernel(kf.f.rows, dim3(sssp_grid_for(((uint64_t)g->n + 31) / 32 * bx_rows, bx_rows, cap)),
					    dim3(bx_rows), rargs, 0, s));
			CK(cudaMemcpyAsync(rows + (size_t)off * g->n, stage, (size_t)k * g->n * sizeof(uint32_t),
					   cudaMemcpyDeviceToHost, s));
		}
		if (T)
		{
			// the columns gathered on the device: only they cross to the host
			unsigned width32 = 32 * K;
			void *cargs[] = { &P.dist, &width32, (void *)&p->targets, (void *)&T, &P.nsrc, &dcols };
			CK(cudaLaunchKernel(kf.f.cols, dim3(sssp_grid_for((uint64_t)k * T, bx_cols, cap)), dim3(bx_cols), cargs, 0, s));
			if (!p->col_dst)
				CK(cudaMemcpyAsync(p->cols + (size_t)off * T, dcols, (size_t)k * T * sizeof(uint32_t),
						   cudaMemcpyDeviceToHost, s));
			else
				CK((cudaError_t)sssp_gpu_cols_to_host(p->col_dst + off, p->col_pitch, dcols, T, k, s));
		}
		struct batch_dev res;
		CK(cudaMemcpyAsync(&res, P.dev, sizeof(res), cudaMemcpyDeviceToHost, s));
		CK(cudaStreamSynchronize(s));

		st.steps += res.ctl.steps;
		st.push += res.ctl.push;
		st.pushb += res.ctl.pushb;
		st.pull += res.ctl.pull;
		st.clear += res.ctl.clear;
		st.raise += res.ctl.raise;
		for (int i = 0; i < SSSP_BATCH_DONE; i++)
			st.kind_ns[i] += res.kind_ns[i];
		st.traversals++;
		last_stats = st;
		have_last_stats = 1;
		if (res.ctl.abort || res.ctl.mode != SSSP_BATCH_DONE)
			FAIL(-ETIMEDOUT,
			     "sssp_batch_gpu_run: the device loop's grid barrier waited more than %lu s (%u blocks of %u "
			     "threads, share %u): were other kernels holding the GPU? raise share (MK) or the timeout",
			     (unsigned long)(P.timeout_ns / 1000000000ull), (unsigned)grid, bx_loop, share);
		for (unsigned i = 0; i < k; i++)
		{
			struct sssp_summary *o = &out[off + i];
			o->source = src[off + i];
			o->sum = res.sum[i];
			o->ecc = res.ecc[i];
			o->reached = res.reached[i];
			o->phases = res.ctl.steps;
			o->overflow = res.ecc[i] >= SSSP_DIST_LIMIT;
			o->harmonic = sssp_harm_value(sssp_harm{ res.harm_lo[i], res.harm_hi[i] });
		}
	}
	return 0;
}

extern "C" int sssp_batch_gpu_run(const struct sssp_batch_dgraph *g, const uint32_t *src, unsigned nsrc, void *work,
				  const struct sssp_batch_params *p, void *stream, struct sssp_summary *out,
				  uint32_t *rows, char *err, size_t errlen)
{
	return sssp_gpu_settle(batch_run(g, src, nsrc, work, p, stream, out, rows, err, errlen), stream);
}
