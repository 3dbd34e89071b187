// bench/tune_kernels: the tuning layer against measurement, on one GPU, in one run.
//
// For the APSP kernels (relax, minimum, update of the GPU Crauser SSSP on the paper's random
// graph) and for a kernel of another character (a 2-D 5-point Jacobi stencil), it measures:
//   (a) rules      - the rule engine's choice (TUCCOMPI_TUNE_RULES)
//   (b) empirical  - the empirical mode, from an empty tuning database
//   (c) cuda       - CUDA's occupancy recommendation (cudaOccupancyMaxPotentialBlockSize)
//   (d) sweep      - the best of an exhaustive per-kernel sweep of block sizes/shapes and
//                    cache settings (each kernel swept with the others at the rules' choice)
// and SSSP throughput with MK = 1, 2, 4, 8 concurrent SSSPs (host threads, one stream each).
// Prints time ratios against (d) and (c).
//
// Usage: tune_kernels [--n N] [--sources S] [--grid G] [--csv FILE]
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <tuccompi.h>
#include <tuccompi_cuda.h>
#include <tuccompi_tune.h>
#include <vector>

#include "bench.h"
#include "sssp.h"

// ------------------------------------------------------------------ 2-D stencil
TUCCOMPI_KERNELCHAR(jacobi, 2, coalesced, low, medium, high);
__global__ void jacobi(const float *__restrict__ in, float *__restrict__ out, int nx, int ny)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1)
		return;
	size_t i = (size_t)y * nx + x;
	out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx]);
}

static double run_stencil(float *a, float *b, int g, int iters)
{
	cudaStream_t s = tuccompi_gpu_stream();
	for (int w = 0; w < 3; w++)
		TUCCOMPI_GPULAUNCH2D(jacobi, g, g, a, b, g, g);
	tuccompi_gpu_sync();
	cudaEvent_t e0, e1;
	BENCH_CUDA(cudaEventCreate(&e0));
	BENCH_CUDA(cudaEventCreate(&e1));
	BENCH_CUDA(cudaEventRecord(e0, s));
	for (int i = 0; i < iters; i++)
	{
		TUCCOMPI_GPULAUNCH2D(jacobi, g, g, a, b, g, g);
		float *t = a;
		a = b;
		b = t;
	}
	BENCH_CUDA(cudaEventRecord(e1, s));
	tuccompi_gpu_sync();
	float ms;
	BENCH_CUDA(cudaEventElapsedTime(&ms, e0, e1));
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	return ms * 1e3 / iters; // us per sweep
}

// ------------------------------------------------------------------ SSSP driver
struct sssp_ctx
{
	struct sssp_gpu_graph g;
	const uint32_t *sources;
	int nsources;
	int next;
	pthread_mutex_t lock;
	std::vector<struct sssp_gpu_work> work;
	std::vector<cudaStream_t> streams;
	uint64_t checksum;
};

struct thread_arg
{
	struct sssp_ctx *c;
	int k;
};

static void *sssp_thread(void *p)
{
	struct thread_arg *ta = (struct thread_arg *)p;
	struct sssp_ctx *c = ta->c;
	tuccompi_gpu_set_stream(c->streams[ta->k]);
	uint64_t sum = 0;
	for (;;)
	{
		pthread_mutex_lock(&c->lock);
		int i = c->next < c->nsources ? c->next++ : -1;
		pthread_mutex_unlock(&c->lock);
		if (i < 0)
			break;
		struct sssp_summary s;
		char err[256];
		if (sssp_gpu_run(&c->g, c->sources[i], &c->work[ta->k], NULL, &s, err, sizeof(err)) < 0)
			bench_die("%s", err);
		sum += s.sum + s.reached;
	}
	pthread_mutex_lock(&c->lock);
	c->checksum += sum;
	pthread_mutex_unlock(&c->lock);
	return NULL;
}

// SSSP/s with mk concurrent streams over nsources sources (after one warm-up SSSP per stream).
static double run_sssp(struct sssp_ctx *c, int mk, int nsources, uint64_t *checksum)
{
	c->next = 0;
	c->nsources = mk;
	c->checksum = 0;
	std::vector<pthread_t> th(mk);
	std::vector<struct thread_arg> ta(mk);
	for (int k = 0; k < mk; k++)
	{
		ta[k] = { c, k };
		pthread_create(&th[k], NULL, sssp_thread, &ta[k]);
	}
	for (int k = 0; k < mk; k++)
		pthread_join(th[k], NULL);
	c->next = 0;
	c->nsources = nsources;
	c->checksum = 0;
	double t0 = bench_now();
	for (int k = 0; k < mk; k++)
		pthread_create(&th[k], NULL, sssp_thread, &ta[k]);
	for (int k = 0; k < mk; k++)
		pthread_join(th[k], NULL);
	double el = bench_now() - t0;
	if (checksum)
		*checksum = c->checksum;
	return nsources / el;
}

int main(int argc, char **argv)
{
	bench_name = "tune_kernels";
	uint32_t n = 1049088;
	int nsources = 256, grid = 4096;
	const char *csv = NULL;
	for (int i = 1; i < argc; i++)
	{
		if (!strcmp(argv[i], "--n") && i + 1 < argc)
			n = (uint32_t)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--sources") && i + 1 < argc)
			nsources = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--grid") && i + 1 < argc)
			grid = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--csv") && i + 1 < argc)
			csv = argv[++i];
		else
		{
			fprintf(stderr, "usage: tune_kernels [--n N] [--sources S] [--grid G] [--csv FILE]\n");
			return 2;
		}
	}
	char dbpath[] = "/tmp/tuccompi-bench-tune-XXXXXX";
	int fd = mkstemp(dbpath);
	close(fd);
	unlink(dbpath);
	setenv("TUCCOMPI_TUNE_DB", dbpath, 1); // (b) starts from an empty database

	struct graph g = {};
	struct graph_error err;
	double tg = bench_now();
	if (graph_gen_random(n, 1, 9, 1, 10, 42, &g, &err) < 0)
	{
		fprintf(stderr, "tune_kernels: %s\n", err.msg);
		return 1;
	}
	struct tuccompi_device_props dp;
	char key[96];
	BENCH_CUDA(cudaSetDevice(0));
	if (tuccompi_gpu_device_props(0, &dp, key, sizeof(key)) < 0)
	{
		fprintf(stderr, "tune_kernels: %s\n", tuccompi_last_error());
		return 77;
	}
	printf("device %s (%s), %d SMs; graph n=%u m=%llu (generated in %.1f s)\n", dp.name, key, dp.sm_count, g.n,
	       (unsigned long long)g.m, bench_now() - tg);

	struct sssp_ctx c;
	memset(&c.g, 0, sizeof(c.g));
	c.g.n = g.n;
	uint64_t *d_rowptr;
	uint32_t *d_col, *d_w, *d_min;
	BENCH_CUDA(cudaMalloc(&d_rowptr, (g.n + 1) * sizeof(uint64_t)));
	BENCH_CUDA(cudaMalloc(&d_col, g.m * sizeof(uint32_t)));
	BENCH_CUDA(cudaMalloc(&d_w, g.m * sizeof(uint32_t)));
	BENCH_CUDA(cudaMalloc(&d_min, g.n * sizeof(uint32_t)));
	BENCH_CUDA(cudaMemcpy(d_rowptr, g.rowptr, (g.n + 1) * sizeof(uint64_t), cudaMemcpyHostToDevice));
	BENCH_CUDA(cudaMemcpy(d_col, g.col, g.m * sizeof(uint32_t), cudaMemcpyHostToDevice));
	BENCH_CUDA(cudaMemcpy(d_w, g.w, g.m * sizeof(uint32_t), cudaMemcpyHostToDevice));
	BENCH_CUDA(cudaMemcpy(d_min, g.min_out, g.n * sizeof(uint32_t), cudaMemcpyHostToDevice));
	c.g.rowptr = d_rowptr;
	c.g.col = d_col;
	c.g.w = d_w;
	c.g.min_out = d_min;
	pthread_mutex_init(&c.lock, NULL);
	const int MKMAX = 8;
	c.work.resize(MKMAX);
	c.streams.resize(MKMAX);
	for (int k = 0; k < MKMAX; k++)
	{
		BENCH_CUDA(cudaMalloc(&c.work[k].dist, g.n * sizeof(uint32_t)));
		BENCH_CUDA(cudaMalloc(&c.work[k].state, g.n));
		BENCH_CUDA(cudaMalloc(&c.work[k].misc, sssp_gpu_misc_size()));
		BENCH_CUDA(cudaStreamCreateWithFlags(&c.streams[k], cudaStreamNonBlocking));
	}
	std::vector<uint32_t> src(nsources);
	uint64_t x = 12345;
	for (int i = 0; i < nsources; i++)
	{
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		src[i] = (uint32_t)((x >> 33) % g.n);
	}
	c.sources = src.data();

	float *ga, *gb;
	size_t gbytes = (size_t)grid * grid * sizeof(float);
	BENCH_CUDA(cudaMalloc(&ga, gbytes));
	BENCH_CUDA(cudaMalloc(&gb, gbytes));
	BENCH_CUDA(cudaMemset(ga, 0, gbytes));
	BENCH_CUDA(cudaMemset(gb, 0, gbytes));
	tuccompi_gpu_set_stream(c.streams[0]);

	// (a) rules: also launches every kernel once, so their attributes are known
	tuccompi_tune_set_mode(TUCCOMPI_TUNE_RULES);
	tuccompi_gpu_reset_decisions();
	const int mks[] = { 1, 2, 4, 8 };
	double rate[4][4];
	uint64_t ref_sum = 0, sum;
	double stencil_us[4];
	// the SSSP kernels of the variant in use (TUCCOMPI_SSSP_KERNELS=paper|fused), then the stencil
	const char *variant = getenv("TUCCOMPI_SSSP_KERNELS");
	int paper = variant && !strcmp(variant, "paper");
	std::vector<const char *> kn;
	if (paper)
		kn = { "relax", "minimum", "update", "jacobi" };
	else
		kn = { "minimum", "settle_relax", "jacobi" };
	const int nk = (int)kn.size(), nsssp_k = nk - 1;
	printf("SSSP kernels: %s variant\n", paper ? "paper (relax, minimum, update)" : "fused (minimum, settle_relax)");

	for (int mode = 0; mode < 3; mode++)
	{
		enum tuccompi_tune_mode m = mode == 0 ? TUCCOMPI_TUNE_RULES : mode == 1 ? TUCCOMPI_TUNE_EMPIRICAL : TUCCOMPI_TUNE_CUDA;
		tuccompi_tune_set_mode(m);
		tuccompi_gpu_reset_decisions();
		if (mode == 1)
		{
			// let the empirical mode measure: enough SSSPs for every candidate's samples
			run_sssp(&c, 1, 8, NULL);
			for (int i = 0; i < 20; i++)
				run_stencil(ga, gb, grid, 20);
		}
		for (int j = 0; j < 4; j++)
		{
			rate[mode][j] = run_sssp(&c, mks[j], nsources, &sum);
			if (!ref_sum)
				ref_sum = sum;
			else if (sum != ref_sum)
			{
				fprintf(stderr, "tune_kernels: results differ between configurations (%llu vs %llu)\n",
					(unsigned long long)sum, (unsigned long long)ref_sum);
				return 1;
			}
		}
		stencil_us[mode] = run_stencil(ga, gb, grid, 200);
		printf("(%c) %-9s SSSP/s MK=1 %8.1f  MK=2 %8.1f  MK=4 %8.1f  MK=8 %8.1f   stencil %.2f us/sweep\n", 'a' + mode,
		       mode == 0 ? "rules" : mode == 1 ? "empirical" : "cuda", rate[mode][0], rate[mode][1], rate[mode][2],
		       rate[mode][3], stencil_us[mode]);
	}

	for (int k = 0; k < nk; k++)
	{
		struct tuccompi_kernel_char kc;
		struct tuccompi_kernel_attr at;
		struct tuccompi_geometry rg;
		if (tuccompi_gpu_kernel_info(kn[k], &kc, &at) == 0 &&
		    tuccompi_tune_rules(&kc, &at, &dp, k < nsssp_k ? g.n : grid, k < nsssp_k ? 1 : grid, &rg) == 0)
			printf("    rules for %-12s (%s %s %s %s, %d regs): %ux%u carveout %d%%  [%s]\n", kn[k],
			       tuccompi_access_name(kc.a), tuccompi_level_name(kc.b), tuccompi_level_name(kc.c),
			       tuccompi_level_name(kc.d), at.num_regs, rg.block_x, rg.block_y, rg.carveout, rg.why);
	}

	// (d) exhaustive per-kernel sweep at MK=1 (others at the rules' choice), then the best
	// of each kernel together at every MK.
	tuccompi_tune_set_mode(TUCCOMPI_TUNE_FIXED);
	struct tuccompi_geometry best[4];
	FILE *sweep_csv = NULL;
	if (csv)
	{
		char path[4096];
		snprintf(path, sizeof(path), "%s.sweep", csv);
		sweep_csv = fopen(path, "w");
		if (sweep_csv)
			fprintf(sweep_csv, "kernel,block_x,block_y,carveout,us\n");
	}
	for (int k = 0; k < nk; k++)
	{
		struct tuccompi_kernel_char kc;
		struct tuccompi_kernel_attr at;
		if (tuccompi_gpu_kernel_info(kn[k], &kc, &at) < 0)
		{
			fprintf(stderr, "tune_kernels: %s\n", tuccompi_last_error());
			return 1;
		}
		struct tuccompi_geometry cand[64];
		int nc = tuccompi_tune_candidates(&kc, &at, &dp, cand, 64);
		double best_t = 1e30;
		for (int i = 0; i < nc; i++)
		{
			tuccompi_tune_force(kn[k], cand[i].block_x, cand[i].block_y, cand[i].carveout);
			tuccompi_gpu_reset_decisions();
			double t;
			if (k < nsssp_k)
				t = 1e6 / run_sssp(&c, 1, nsources / 4 > 16 ? nsources / 4 : 16, NULL); // us per SSSP
			else
				t = run_stencil(ga, gb, grid, 50);
			if (sweep_csv)
				fprintf(sweep_csv, "%s,%u,%u,%d,%.3f\n", kn[k], cand[i].block_x, cand[i].block_y, cand[i].carveout, t);
			if (t < best_t)
			{
				best_t = t;
				best[k] = cand[i];
			}
		}
		printf("    sweep %-12s %2d candidates: best %ux%u carveout %d%% (%s %.2f us)\n", kn[k], nc, best[k].block_x,
		       best[k].block_y, best[k].carveout, k < nsssp_k ? "SSSP" : "sweep", best_t);
		// keep the best of this kernel forced while sweeping the next ones
		tuccompi_tune_force(kn[k], best[k].block_x, best[k].block_y, best[k].carveout);
	}
	if (sweep_csv)
		fclose(sweep_csv);
	tuccompi_gpu_reset_decisions();
	for (int j = 0; j < 4; j++)
	{
		rate[3][j] = run_sssp(&c, mks[j], nsources, &sum);
		if (sum != ref_sum)
		{
			fprintf(stderr, "tune_kernels: results differ under the swept geometry\n");
			return 1;
		}
	}
	stencil_us[3] = run_stencil(ga, gb, grid, 200);
	printf("(d) %-9s SSSP/s MK=1 %8.1f  MK=2 %8.1f  MK=4 %8.1f  MK=8 %8.1f   stencil %.2f us/sweep\n", "sweep",
	       rate[3][0], rate[3][1], rate[3][2], rate[3][3], stencil_us[3]);

	printf("\ntime ratios (time per SSSP or per stencil sweep; < 1 is faster)\n");
	printf("%-12s %-8s %8s %8s %8s %8s %10s\n", "mode", "vs", "MK=1", "MK=2", "MK=4", "MK=8", "stencil");
	const char *names[] = { "(a) rules", "(b) empirical", "(c) cuda", "(d) sweep" };
	FILE *out = csv ? fopen(csv, "w") : NULL;
	if (out)
		fprintf(out, "mode,reference,mk1,mk2,mk4,mk8,stencil\n");
	for (int ref = 3; ref >= 2; ref--)
		for (int mode = 0; mode < 4; mode++)
		{
			printf("%-12s %-8s", names[mode], ref == 3 ? "(d)" : "(c)");
			if (out)
				fprintf(out, "%s,%s", names[mode], ref == 3 ? "sweep" : "cuda");
			for (int j = 0; j < 4; j++)
			{
				printf(" %8.3f", rate[ref][j] / rate[mode][j]);
				if (out)
					fprintf(out, ",%.4f", rate[ref][j] / rate[mode][j]);
			}
			printf(" %10.3f\n", stencil_us[mode] / stencil_us[ref]);
			if (out)
				fprintf(out, ",%.4f\n", stencil_us[mode] / stencil_us[ref]);
		}
	if (out)
		fclose(out);
	printf("\ntuning database written by (b): %s\n", dbpath);
	tuccompi_tune_db_print(stdout);
	unlink(dbpath);
	graph_free(&g);
	return 0;
}
