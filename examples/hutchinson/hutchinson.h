/* hutchinson.h: what the CPU code (main.c) and the CUDA code (kernel.cu) of the example share: the
 * problem, a task's result, and the CPU's computation of one task (also used by rank 0's check and
 * by bench/plugin_starpu).
 *
 * The problem: estimate the trace of a symmetric n x n matrix A that only rank 0 has, by
 * Hutchinson's method: the mean of x^T A x over many random probe vectors x of +1 and -1 entries
 * tends to tr(A). Task i draws probe i from a hash of (i, c), computes y = A x and returns x^T y and
 * the sum of y's entries (which rank 0 checks cheaply: it is the dot product of x with A's column
 * sums). Plain C, also compiled by nvcc. */
#ifndef HUTCHINSON_H
#define HUTCHINSON_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define HUT_HD static __host__ __device__ inline
#else
#define HUT_HD static inline
#endif

/* A task's result (tuccompi_plugin::result_size bytes). */
struct probe_result
{
	double quad; /* x^T A x: its mean over the probes estimates tr(A) */
	double sum;  /* the sum of y = A x */
};

/* What the plug-in functions get as their argument (tuccompi_taskset_desc::arg). */
struct hut_args
{
	uint32_t n; /* A's order */
};

/* Entry c of probe @p id: +1 or -1, the low bit of a hash (splitmix64) of (id, c). */
HUT_HD double probe_entry(uint64_t id, uint32_t c)
{
	uint64_t z = (id << 32 | c) * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return ((z ^ (z >> 31)) & 1) ? 1.0 : -1.0;
}

/* Entry (r, c) of the matrix: symmetric, decaying away from its diagonal of ones (tr(A) = n). */
static inline double matrix_entry(uint32_t r, uint32_t c)
{
	return 1.0 / (1.0 + fabs((double)r - (double)c));
}

/* One task on the CPU: probe @p id into @p x (n doubles of scratch), its result into @p out.
 * A's rows are its columns (symmetric): y_r reads row r. */
static inline void probe_cpu(const double *A, uint32_t n, uint64_t id, double *x, struct probe_result *out)
{
	for (uint32_t c = 0; c < n; c++)
		x[c] = probe_entry(id, c);
	double quad = 0, sum = 0;
	for (uint32_t r = 0; r < n; r++)
	{
		const double *row = A + (size_t)r * n;
		double y = 0;
		for (uint32_t c = 0; c < n; c++)
			y += row[c] * x[c];
		quad += x[r] * y;
		sum += y;
	}
	out->quad = quad;
	out->sum = sum;
}

/* Rank 0's check of @p ntasks results: every task's sum against x . w (w: A's column sums, in
 * @p w, n doubles of scratch), and every quad of @p nfull tasks spread over the set computed again.
 * Both to 1e-9 of the sum of |A| (the results' scale; a GPU's sums run in another order). Returns
 * the number of wrong results and puts the estimate of tr(A) in @p trace. */
static inline uint64_t probe_check(const double *A, uint32_t n, const struct probe_result *res, uint64_t ntasks,
				   unsigned nfull, double *w, double *x, double *trace)
{
	double scale = 0, mean = 0;
	for (uint32_t c = 0; c < n; c++)
		w[c] = 0;
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t c = 0; c < n; c++)
		{
			w[c] += A[(size_t)r * n + c];
			scale += fabs(A[(size_t)r * n + c]);
		}
	double tol = 1e-9 * scale;
	uint64_t wrong = 0;
	for (uint64_t i = 0; i < ntasks; i++)
	{
		double expect = 0;
		for (uint32_t c = 0; c < n; c++)
			expect += w[c] * probe_entry(i, c);
		wrong += !(fabs(res[i].sum - expect) <= tol); /* a NaN is wrong too */
		mean += res[i].quad;
	}
	for (unsigned k = 0; k < nfull && ntasks; k++)
	{
		uint64_t i = (uint64_t)k * (ntasks - 1) / (nfull > 1 ? nfull - 1 : 1);
		struct probe_result r;
		probe_cpu(A, n, i, x, &r);
		wrong += !(fabs(res[i].quad - r.quad) <= tol);
	}
	*trace = ntasks ? mean / (double)ntasks : 0;
	return wrong;
}

#endif
