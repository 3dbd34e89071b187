/* The tuning layer without a GPU: on the recorded properties of Fermi, Kepler, Ampere and
 * Hopper GPUs, every answer of the rule engine for every characterisation is a valid
 * launch (warp multiple, within the thread, register and shared-memory limits), the rules
 * do what docs/tuning.md says, bad characterisations are refused with a clear message, and
 * the tuning database stores, finds and clears records. */
#include <stdlib.h>
#include <tuccompi.h>
#include <tuccompi_tune.h>
#include <unistd.h>

#include "testutil.h"

static const char *devs[] = { "gtx480", "gtx680", "k20", "a100", "h100", "h200" };

static void check_valid(const struct tuccompi_device_props *d, const struct tuccompi_kernel_attr *at,
			const struct tuccompi_kernel_char *kc, const struct tuccompi_geometry *g)
{
	unsigned t = g->block_x * g->block_y;
	if (t == 0 || t % (unsigned)d->warp_size || (int)t > d->max_threads_per_block ||
	    (at->max_threads_per_block && (int)t > at->max_threads_per_block))
		FAIL("%s on %s: %ux%u is not a valid block", kc->name, d->name, g->block_x, g->block_y);
	if (kc->dims == 1 && g->block_y != 1)
		FAIL("%s: 1-D kernel got block_y = %u", kc->name, g->block_y);
	if (kc->dims == 2 && g->block_x % 16)
		FAIL("%s: 2-D rows of %u threads are not half-warp multiples", kc->name, g->block_x);
	/* registers and shared memory of the resident blocks fit the SM */
	int wpb = (int)(t + 31) / 32;
	int regs_warp = ((at->num_regs * 32 + d->reg_alloc_unit - 1) / d->reg_alloc_unit) * d->reg_alloc_unit;
	if (g->blocks_per_sm < 1 || g->blocks_per_sm > d->max_blocks_per_sm ||
	    g->blocks_per_sm * wpb * 32 > d->max_threads_per_sm || g->blocks_per_sm * wpb * regs_warp > d->regs_per_sm ||
	    (size_t)g->blocks_per_sm * (at->shared_static + (size_t)d->shared_reserved_per_block) >
		    (size_t)d->shared_per_sm)
		FAIL("%s on %s: %d blocks of %u threads do not fit an SM", kc->name, d->name, g->blocks_per_sm, t);
	if (g->carveout < -1 || g->carveout > 100)
		FAIL("carveout %d", g->carveout);
	if (g->occupancy <= 0 || g->occupancy > 1.0001)
		FAIL("occupancy %f", g->occupancy);
}

int main(void)
{
	static const enum tuccompi_level bl[] = { TUCCOMPI_LEVEL_DEF, TUCCOMPI_LEVEL_NONE, TUCCOMPI_LEVEL_LOW,
						  TUCCOMPI_LEVEL_HIGH };
	static const enum tuccompi_level cl[] = { TUCCOMPI_LEVEL_DEF, TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_MEDIUM,
						  TUCCOMPI_LEVEL_HIGH };
	static const struct tuccompi_kernel_attr attrs[] = {
		{ 16, 1024, 0, 0 }, { 32, 1024, 0, 0 }, { 64, 1024, 4096, 0 }, { 128, 512, 0, 0 }, { 40, 1024, 40000, 0 },
		{ 255, 256, 0, 0 },
	};
	int n = 0;
	for (unsigned di = 0; di < sizeof(devs) / sizeof(devs[0]); di++)
	{
		const struct tuccompi_device_props *d = tuccompi_device_props_recorded(devs[di]);
		ASSERT(d != NULL);
		for (unsigned ai = 0; ai < sizeof(attrs) / sizeof(attrs[0]); ai++)
			for (unsigned dims = 1; dims <= 2; dims++)
				for (int a = 0; a < 4; a++)
					for (int b = 0; b < 4; b++)
						for (int c = 0; c < 4; c++)
							for (int dd = 0; dd < 4; dd++)
							{
								struct tuccompi_kernel_char kc = { "k", dims,
												   (enum tuccompi_access)a,
												   bl[b], cl[c], cl[dd] };
								struct tuccompi_geometry g;
								int r = tuccompi_tune_rules(&kc, &attrs[ai], d, 1 << 20, 1, &g);
								if (attrs[ai].num_regs > d->max_regs_per_thread)
								{
									ASSERT_EQ(r, -ENOSPC);
									continue;
								}
								ASSERT_OK(r);
								check_valid(d, &attrs[ai], &kc, &g);
								n++;
							}
		/* the candidates of the empirical mode are valid too */
		struct tuccompi_kernel_char kc2 = { "k2", 2, TUCCOMPI_ACCESS_DEF, 0, 0, 0 };
		struct tuccompi_geometry cand[64];
		int nc = tuccompi_tune_candidates(&kc2, &attrs[1], d, cand, 64);
		ASSERT(nc >= 8);
		for (int i = 0; i < nc; i++)
			check_valid(d, &attrs[1], &kc2, &cand[i]);
	}
	printf("%d rule answers checked on %zu devices\n", n, sizeof(devs) / sizeof(devs[0]));

	/* The rules themselves (docs/tuning.md): the paper's APSP kernels (Table 2). */
	struct tuccompi_kernel_attr plain = { 24, 1024, 0, 0 };
	struct tuccompi_kernel_char relax = { "relax", 1, TUCCOMPI_ACCESS_SCATTER, TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_HIGH,
					      TUCCOMPI_LEVEL_LOW };
	struct tuccompi_kernel_char minimum = { "minimum", 1, TUCCOMPI_ACCESS_COALESCED, TUCCOMPI_LEVEL_LOW,
						TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_MEDIUM };
	struct tuccompi_geometry g;
	const struct tuccompi_device_props *h200 = tuccompi_device_props_recorded("h200");
	const struct tuccompi_device_props *fermi = tuccompi_device_props_recorded("gtx480");
	ASSERT_OK(tuccompi_tune_rules(&relax, &plain, h200, 1 << 20, 1, &g));
	ASSERT_EQ(g.block_x, 256); /* scattered: 8 warps (fastest of 24 on an H200) */
	ASSERT_EQ(g.cache, TUCCOMPI_CACHE_PREFER_L1);
	ASSERT(g.occupancy > 0.99);
	ASSERT(g.carveout >= 0 && g.carveout < 50); /* most of the array left to L1 */
	printf("relax on H200: %ux%u carveout %d%%: %s\n", g.block_x, g.block_y, g.carveout, g.why);
	/* A scattered kernel with 2 KB of shared counters (the dial engine's level loop: 32 registers,
	 * 2,080 bytes): 8 blocks of 256 resident, so the carveout, a percent of the 228 KB the H200's SM
	 * can give to shared memory (CUDA's definition) rounded up to one of its sizes, must give them
	 * 8 x (2,080 + 1,024) bytes: 32 KB, not 16 KB (7% of 256 KB, the old reading, became 16 KB) */
	struct tuccompi_kernel_attr counters = { 32, 1024, 2080, 0 };
	ASSERT_OK(tuccompi_tune_rules(&relax, &counters, h200, 1 << 20, 1, &g));
	ASSERT_EQ(g.block_x, 256);
	ASSERT_EQ(g.blocks_per_sm, 8);
	{
		static const int sizes[] = { 8, 16, 32, 64, 100, 132, 164, 196, 228 };
		int want = 228 * 1024 * g.carveout / 100, got = 0;
		for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0] && !got; i++)
			if (sizes[i] * 1024 >= want)
				got = sizes[i] * 1024;
		if (got < 8 * (2080 + 1024))
			FAIL("carveout %d%% of 228 KB gives %d bytes of shared memory: fewer than 8 blocks of 3,104", g.carveout,
			     got);
		printf("2 KB of shared counters on H200: carveout %d%% (%d KB): %d blocks\n", g.carveout, got / 1024,
		       g.blocks_per_sm);
	}
	/* Fermi: 8 blocks of 8 warps would exceed 1536 threads: still full occupancy (6 blocks) */
	struct tuccompi_kernel_attr light = { 16, 1024, 0, 0 };
	ASSERT_OK(tuccompi_tune_rules(&relax, &light, fermi, 1 << 20, 1, &g));
	ASSERT_EQ(g.block_x, 256);
	ASSERT(g.occupancy > 0.99);
	/* 24 registers: Fermi's 32 K registers hold 42 warps; 3 blocks of 14 warps reach that */
	ASSERT_OK(tuccompi_tune_rules(&relax, &plain, fermi, 1 << 20, 1, &g));
	ASSERT_EQ(g.block_x, 448);
	/* minimum reuses data (D medium): 8 warps, default cache despite its reduction scratch */
	ASSERT_OK(tuccompi_tune_rules(&minimum, &plain, h200, 1 << 20, 1, &g));
	ASSERT_EQ(g.block_x, 256);
	ASSERT_EQ(g.cache, TUCCOMPI_CACHE_DEFAULT);
	struct tuccompi_kernel_attr scratch = { 14, 1024, 128, 0 };
	ASSERT_OK(tuccompi_tune_rules(&minimum, &scratch, h200, 1 << 20, 1, &g));
	ASSERT_EQ(g.cache, TUCCOMPI_CACHE_DEFAULT);
	/* a light streaming kernel (update): the largest block at full occupancy */
	struct tuccompi_kernel_char update = { "update", 1, TUCCOMPI_ACCESS_COALESCED, TUCCOMPI_LEVEL_LOW,
					       TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_LOW };
	ASSERT_OK(tuccompi_tune_rules(&update, &plain, h200, 1 << 20, 1, &g));
	ASSERT_EQ(g.block_x, 1024);
	ASSERT_OK(tuccompi_tune_rules(&update, &light, fermi, 1 << 20, 1, &g));
	ASSERT_EQ(g.block_x, 768); /* 2 x 768 = 1536 threads per Fermi SM */
	/* 128 registers per thread: 65536 / (128 * 32) = 16 of 64 warps fit, the rule still
	 * finds a size that reaches that */
	struct tuccompi_kernel_attr heavy = { 128, 512, 0, 0 };
	ASSERT_OK(tuccompi_tune_rules(&minimum, &heavy, h200, 1 << 20, 1, &g));
	ASSERT(g.occupancy > 0.249 && g.occupancy < 0.251);
	/* B high: half occupancy is enough */
	struct tuccompi_kernel_char arith = { "arith", 1, TUCCOMPI_ACCESS_COALESCED, TUCCOMPI_LEVEL_HIGH,
					      TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_LOW };
	ASSERT_OK(tuccompi_tune_rules(&arith, &plain, h200, 1 << 20, 1, &g));
	ASSERT(g.occupancy >= 0.5);
	/* 2-D, D high: square blocks; D low: wide rows */
	struct tuccompi_kernel_char stencil = { "stencil", 2, TUCCOMPI_ACCESS_COALESCED, TUCCOMPI_LEVEL_LOW,
						TUCCOMPI_LEVEL_MEDIUM, TUCCOMPI_LEVEL_HIGH };
	ASSERT_OK(tuccompi_tune_rules(&stencil, &plain, h200, 4096, 4096, &g));
	ASSERT_EQ(g.block_x, 16);
	ASSERT_EQ(g.block_y, 16);
	stencil.d = TUCCOMPI_LEVEL_LOW;
	ASSERT_OK(tuccompi_tune_rules(&stencil, &plain, h200, 4096, 4096, &g));
	ASSERT_EQ(g.block_x, 128);
	ASSERT_EQ(g.block_y, 2);
	/* big static shared memory limits occupancy: prefer shared */
	struct tuccompi_kernel_attr shm = { 32, 1024, 40000, 0 }; /* 40 KB: 5 blocks fit in 228 KB */
	ASSERT_OK(tuccompi_tune_rules(&minimum, &shm, h200, 1 << 20, 1, &g));
	ASSERT_EQ(g.cache, TUCCOMPI_CACHE_PREFER_SHARED);
	/* a kernel that cannot run at all */
	struct tuccompi_kernel_attr huge = { 32, 1024, 300000, 0 };
	ASSERT_EQ(tuccompi_tune_rules(&minimum, &huge, h200, 1 << 20, 1, &g), -ENOSPC);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "cannot run on");

	/* Bad characterisations are refused, saying what and how to fix. */
	struct tuccompi_kernel_char bad = relax;
	bad.b = TUCCOMPI_LEVEL_MEDIUM;
	ASSERT_EQ(tuccompi_kernel_char_check(&bad), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "B = medium is not allowed; B takes high, low, none or def");
	bad = relax;
	bad.c = TUCCOMPI_LEVEL_NONE;
	ASSERT_EQ(tuccompi_tune_rules(&bad, &plain, h200, 1, 1, &g), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "C = none");
	bad = relax;
	bad.dims = 3;
	ASSERT_EQ(tuccompi_kernel_char_check(&bad), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "dims = 3");
	bad = relax;
	bad.a = (enum tuccompi_access)7;
	ASSERT_EQ(tuccompi_kernel_char_check(&bad), -EINVAL);
	struct tuccompi_kernel_char parsed;
	char name[32];
	ASSERT_OK(tuccompi_kernel_char_parse("update 1 coalesced low low low", &parsed, name, sizeof(name)));
	ASSERT_EQ(parsed.a, TUCCOMPI_ACCESS_COALESCED);
	ASSERT_OK(tuccompi_kernel_char_parse("k 2 medium-coalesced none medium high", &parsed, name, sizeof(name)));
	ASSERT_EQ(tuccompi_kernel_char_parse("k 1 scattered low low low", &parsed, name, sizeof(name)), -EINVAL);
	ASSERT_STR_CONTAINS(tuccompi_last_error(), "A = 'scattered' unknown");
	ASSERT_EQ(tuccompi_kernel_char_parse("k 1 scatter low", &parsed, name, sizeof(name)), -EINVAL);
	ASSERT_EQ(tuccompi_kernel_char_parse("k 1 scatter medium low low", &parsed, name, sizeof(name)), -EINVAL);

	/* The tuning database */
	char dir[] = "/tmp/tuccompi-tune-XXXXXX";
	ASSERT(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof(path), "%s/sub/tune.db", dir);
	setenv("TUCCOMPI_TUNE_DB", path, 1);
	struct tuccompi_tune_record r = { "kernel", "NVIDIA_H200_sm90", "relax", 20, 128, 1, 8, 0, 12.5, 5 }, out;
	ASSERT_EQ(tuccompi_tune_db_lookup("kernel", "NVIDIA_H200_sm90", "relax", 20, &out), 0);
	ASSERT_OK(tuccompi_tune_db_store(&r));
	r.block_x = 256; /* a newer measurement of the same key wins */
	ASSERT_OK(tuccompi_tune_db_store(&r));
	struct tuccompi_tune_record mk = { "mk", "NVIDIA_H200_sm90", "sssp", 0, 0, 0, 0, 4, 3000.0, 3 };
	ASSERT_OK(tuccompi_tune_db_store(&mk));
	ASSERT_EQ(tuccompi_tune_db_lookup("kernel", "NVIDIA_H200_sm90", "relax", 20, &out), 1);
	ASSERT_EQ(out.block_x, 256);
	ASSERT_EQ(tuccompi_tune_db_lookup("mk", "NVIDIA_H200_sm90", "sssp", 0, &out), 1);
	ASSERT_EQ(out.mk, 4);
	ASSERT_EQ(tuccompi_tune_db_lookup("kernel", "NVIDIA_H200_sm90", "relax", 21, &out), 0);
	ASSERT_EQ(tuccompi_tune_db_print(stdout), 2);
	ASSERT_OK(tuccompi_tune_db_clear());
	ASSERT_EQ(tuccompi_tune_db_lookup("kernel", "NVIDIA_H200_sm90", "relax", 20, &out), 0);
	rmdir(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);

	/* modes */
	enum tuccompi_tune_mode m;
	ASSERT_OK(tuccompi_tune_mode_parse("Empirical", &m));
	ASSERT_EQ(m, TUCCOMPI_TUNE_EMPIRICAL);
	ASSERT_EQ(tuccompi_tune_mode_parse("magic", &m), -EINVAL);
	ASSERT_EQ(tuccompi_tune_force("relax", 0, 1, -1), -EINVAL);
	printf("tuning rules ok\n");
	return 0;
}
