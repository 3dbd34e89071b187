/* The tuning layer's rule engine: characterisation (Table 1 of the paper) + device
 * properties + kernel attributes -> block size/shape and L1/shared split.
 *
 * Every rule below says where it comes from:
 *  [occ]    CUDA occupancy arithmetic (CUDA C Programming Guide, "Occupancy"; the CUDA
 *           occupancy calculator's register/shared-memory granularities).
 *  [ubench] the block-geometry principles of Torres, Gonzalez-Escribano, Llanos: "uBench:
 *           exposing the impact of CUDA block geometry in terms of performance" (J. Supercomput.
 *           65(3), 2013) and "Using Fermi architecture knowledge to speed up CUDA and OpenCL
 *           programs" (ISPA 2012), on which TuCCompi's tuning layer is based: fill the SM first
 *           (blocks too small to reach full occupancy under the blocks-per-SM limit lose);
 *           warp-wide rows for coalescing; more L1 for irregular, cache-evicting accesses.
 *  [sweep]  the library's own rules, each checked against a sweep of block sizes and caches
 *           (docs/tuning.md says how to run it).
 * No GPU is needed here: tests run these rules on recorded property sets. */
#include "internal.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi_tune.h>

/* ------------------------------------------------------------------ names and checks */

static const char *const access_names[] = { "def", "scatter", "medium-coalesced", "coalesced" };
static const char *const level_names[] = { "def", "none", "low", "medium", "high" };

const char *tuccompi_access_name(enum tuccompi_access a)
{
	return (unsigned)a < 4 ? access_names[a] : "?";
}

const char *tuccompi_level_name(enum tuccompi_level l)
{
	return (unsigned)l < 5 ? level_names[l] : "?";
}

/* Table 1: B is high/low/none/def; C and D are high/medium/low/def. */
static int level_allowed(char param, enum tuccompi_level l)
{
	switch (l)
	{
	case TUCCOMPI_LEVEL_DEF:
	case TUCCOMPI_LEVEL_LOW:
	case TUCCOMPI_LEVEL_HIGH:
		return 1;
	case TUCCOMPI_LEVEL_NONE:
		return param == 'B';
	case TUCCOMPI_LEVEL_MEDIUM:
		return param != 'B';
	}
	return 0;
}

int tuccompi_kernel_char_check(const struct tuccompi_kernel_char *kc)
{
	if (!kc)
		return _tuccompi_error(-EINVAL, "kernel characterisation is NULL");
	const char *name = kc->name && *kc->name ? kc->name : "(unnamed kernel)";
	if (!kc->name || !*kc->name)
		return _tuccompi_error(-EINVAL, "KERNELCHAR: the kernel has no name");
	if (kc->dims != 1 && kc->dims != 2)
		return _tuccompi_error(-EINVAL, "KERNELCHAR(%s): dims = %u, the thread block must be 1- or 2-D", name,
				       kc->dims);
	if ((unsigned)kc->a > TUCCOMPI_ACCESS_COALESCED)
		return _tuccompi_error(-EINVAL,
				       "KERNELCHAR(%s): A = %d is not an access pattern; use scatter, medium-coalesced, "
				       "coalesced or def",
				       name, (int)kc->a);
	const struct
	{
		char p;
		enum tuccompi_level v;
		const char *allowed;
	} lv[] = { { 'B', kc->b, "high, low, none or def" },
		   { 'C', kc->c, "high, medium, low or def" },
		   { 'D', kc->d, "high, medium, low or def" } };
	for (int i = 0; i < 3; i++)
		if ((unsigned)lv[i].v > TUCCOMPI_LEVEL_HIGH || !level_allowed(lv[i].p, lv[i].v))
			return _tuccompi_error(-EINVAL, "KERNELCHAR(%s): %c = %s is not allowed; %c takes %s", name, lv[i].p,
					       tuccompi_level_name(lv[i].v), lv[i].p, lv[i].allowed);
	return 0;
}

static int parse_word(const char *w, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcasecmp(w, names[i]) == 0)
			return i;
	if (strcasecmp(w, "medium_coalesced") == 0 && names == access_names)
		return TUCCOMPI_ACCESS_MEDIUM_COALESCED;
	return -1;
}

int tuccompi_kernel_char_parse(const char *text, struct tuccompi_kernel_char *kc, char *name_buf, size_t name_len)
{
	char name[96], a[32], b[32], c[32], d[32];
	unsigned dims;
	char extra;
	if (!text || sscanf(text, "%95s %u %31s %31s %31s %31s %c", name, &dims, a, b, c, d, &extra) != 6)
		return _tuccompi_error(-EINVAL, "kernel characterisation '%s': expected 'NAME DIMS A B C D'",
				       text ? text : "(null)");
	int ia = parse_word(a, access_names, 4), ib = parse_word(b, level_names, 5), ic = parse_word(c, level_names, 5),
	    id = parse_word(d, level_names, 5);
	if (ia < 0)
		return _tuccompi_error(-EINVAL, "KERNELCHAR(%s): A = '%s' unknown; use scatter, medium-coalesced, "
						"coalesced or def",
				       name, a);
	const char *bad = ib < 0 ? b : ic < 0 ? c : id < 0 ? d : NULL;
	if (bad)
		return _tuccompi_error(-EINVAL, "KERNELCHAR(%s): '%s' is not a level; use high, medium, low, none or def",
				       name, bad);
	snprintf(name_buf, name_len, "%s", name);
	kc->name = name_buf;
	kc->dims = dims;
	kc->a = (enum tuccompi_access)ia;
	kc->b = (enum tuccompi_level)ib;
	kc->c = (enum tuccompi_level)ic;
	kc->d = (enum tuccompi_level)id;
	return tuccompi_kernel_char_check(kc);
}

/* ------------------------------------------------------------------ occupancy [occ] */

static int ceil_div(int a, int b)
{
	return (a + b - 1) / b;
}

/* Shared memory (bytes) the SM is configured with for a carveout percent; -1: the most. The percent
 * is of the largest shared capacity (cudaDevAttrMaxSharedMemoryPerMultiprocessor), not of the
 * unified L1 + shared array: a percent of the array's size asks for less than the blocks need, the
 * driver rounds it to its own steps, and fewer blocks fit [occ]. */
static int shared_config(const struct tuccompi_device_props *dev, int carveout)
{
	if (carveout < 0)
		return dev->shared_per_sm;
	int want = (int)((int64_t)dev->shared_per_sm * carveout / 100);
	/* The hardware offers a few sizes: the smallest one that holds the request. */
	int best = dev->shared_per_sm;
	for (int i = 0; i < 12 && dev->carveout_options[i]; i++)
	{
		int bytes = dev->carveout_options[i] * 1024;
		if (bytes >= want && bytes < best)
			best = bytes;
	}
	return best;
}

/* Resident blocks ignoring shared memory (warps, blocks, registers). */
static int blocks_without_shared(const struct tuccompi_device_props *dev, const struct tuccompi_kernel_attr *attr,
				 unsigned threads)
{
	int warp = dev->warp_size;
	if (threads == 0 || threads % (unsigned)warp || (int)threads > dev->max_threads_per_block ||
	    (attr->max_threads_per_block > 0 && (int)threads > attr->max_threads_per_block))
		return 0;
	int wpb = ceil_div((int)threads, warp);
	int by_warps = (dev->max_threads_per_sm / warp) / wpb;
	int blocks = by_warps < dev->max_blocks_per_sm ? by_warps : dev->max_blocks_per_sm;
	if (attr->num_regs > 0)
	{
		if (attr->num_regs > dev->max_regs_per_thread)
			return 0;
		int per_warp = ceil_div(attr->num_regs * warp, dev->reg_alloc_unit) * dev->reg_alloc_unit;
		if (per_warp * wpb > dev->regs_per_block)
			return 0;
		int by_regs = (dev->regs_per_sm / per_warp) / wpb;
		if (by_regs < blocks)
			blocks = by_regs;
	}
	return blocks;
}

static int block_shared(const struct tuccompi_device_props *dev, const struct tuccompi_kernel_attr *attr)
{
	return (int)(attr->shared_static + attr->shared_dynamic) + dev->shared_reserved_per_block;
}

int tuccompi_occupancy_blocks(const struct tuccompi_device_props *dev, const struct tuccompi_kernel_attr *attr,
			      unsigned threads, int carveout)
{
	int blocks = blocks_without_shared(dev, attr, threads);
	size_t smem = attr->shared_static + attr->shared_dynamic;
	int limit = dev->shared_per_block_optin > dev->shared_per_block ? dev->shared_per_block_optin
									 : dev->shared_per_block;
	if (blocks == 0 || smem > (size_t)limit)
		return 0;
	int per_block = block_shared(dev, attr);
	if (per_block > 0)
	{
		/* The driver may enlarge a carveout hint to run at least one block. */
		int avail = shared_config(dev, carveout);
		if (avail < per_block)
			avail = per_block;
		int by_smem = avail / per_block;
		if (by_smem < blocks)
			blocks = by_smem;
	}
	return blocks;
}

/* The carveout (percent) that gives the largest L1 while keeping @blocks resident: the
 * smallest percentage whose configuration (the hardware rounds up to one of its sizes)
 * holds their shared memory. */
static int carveout_prefer_l1(const struct tuccompi_device_props *dev, const struct tuccompi_kernel_attr *attr,
			      int blocks)
{
	int need = blocks * block_shared(dev, attr);
	for (int p = 0; p < 100; p++)
		if (shared_config(dev, p) >= need)
			return p;
	return 100;
}

static void fill(struct tuccompi_geometry *g, const struct tuccompi_device_props *dev,
		 const struct tuccompi_kernel_attr *attr, unsigned bx, unsigned by, enum tuccompi_cache_pref cache)
{
	unsigned t = bx * by;
	g->block_x = bx;
	g->block_y = by;
	g->cache = cache;
	int pre = blocks_without_shared(dev, attr, t);
	switch (cache)
	{
	case TUCCOMPI_CACHE_PREFER_L1:
		g->carveout = carveout_prefer_l1(dev, attr, pre);
		break;
	case TUCCOMPI_CACHE_PREFER_SHARED:
		g->carveout = 100;
		break;
	case TUCCOMPI_CACHE_EQUAL:
		g->carveout = 50;
		break;
	default:
		g->carveout = -1;
	}
	g->blocks_per_sm = tuccompi_occupancy_blocks(dev, attr, t, g->carveout);
	g->occupancy = (double)(g->blocks_per_sm * ceil_div((int)t, dev->warp_size)) /
		       (double)(dev->max_threads_per_sm / dev->warp_size);
}

/* A 2-D shape for t threads: rows of whole warps for coalescing [ubench]; square when
 * neighbours in both directions reuse each other's data (D high) [ubench]. */
static void shape_2d(const struct tuccompi_kernel_char *kc, unsigned t, unsigned warp, unsigned *bx, unsigned *by)
{
	unsigned x;
	if (kc->d == TUCCOMPI_LEVEL_HIGH)
	{
		x = 16;
		while (x * x < t)
			x *= 2;
		if (t % x)
			x = warp;
	}
	else if (kc->d == TUCCOMPI_LEVEL_MEDIUM || kc->d == TUCCOMPI_LEVEL_DEF)
		x = warp;
	else
		x = t >= 4 * warp ? 4 * warp : t; /* low reuse: wide rows, fewest row changes */
	if (x > t)
		x = t;
	*bx = x;
	*by = t / x;
}

int tuccompi_tune_rules(const struct tuccompi_kernel_char *kc, const struct tuccompi_kernel_attr *attr,
			const struct tuccompi_device_props *dev, uint64_t nx, uint64_t ny, struct tuccompi_geometry *out)
{
	int ret = tuccompi_kernel_char_check(kc);
	if (ret < 0)
		return ret;
	memset(out, 0, sizeof(*out));
	unsigned warp = (unsigned)dev->warp_size;

	/* [occ] valid sizes and their occupancy */
	int best_blocks_warps = 0;
	for (unsigned t = warp; (int)t <= dev->max_threads_per_block; t += warp)
	{
		int b = tuccompi_occupancy_blocks(dev, attr, t, -1);
		int w = b * ceil_div((int)t, (int)warp);
		if (w > best_blocks_warps)
			best_blocks_warps = w;
	}
	if (best_blocks_warps == 0)
		return _tuccompi_error(-ENOSPC,
				       "kernel %s cannot run on %s: %d registers/thread, %zu bytes of shared memory "
				       "per block exceed the device's limits",
				       kc->name, dev->name, attr->num_regs, attr->shared_static + attr->shared_dynamic);
	int max_warps = dev->max_threads_per_sm / (int)warp;

	/* [ubench] fill the SM first; an arithmetic-bound kernel (B high) hides latency with
	 * its own instructions and is content with half of it. */
	int need_warps = best_blocks_warps;
	const char *occ_rule = "max occupancy";
	if (kc->b == TUCCOMPI_LEVEL_HIGH && best_blocks_warps > max_warps / 2)
	{
		need_warps = max_warps / 2;
		occ_rule = ">=50% occupancy (B high)";
	}

	/* Preferred block size:
	 *  scatter: 8 warps, the smallest block that still fills the SM under the blocks-per-SM
	 *    limit of every generation (more, smaller blocks keep independent requests in flight
	 *    [ubench][sweep];
	 *  light streaming kernels (coalesced or medium, B low/none, D low/def: one thread per
	 *    element, nothing reused): the largest block that keeps the occupancy, since such
	 *    kernels are bound by block scheduling more than by anything a block does [sweep];
	 *  the rest (reuse, arithmetic): 8 warps [ubench][occ]. */
	int streaming = kc->a != TUCCOMPI_ACCESS_SCATTER && kc->a != TUCCOMPI_ACCESS_DEF &&
			(kc->b == TUCCOMPI_LEVEL_LOW || kc->b == TUCCOMPI_LEVEL_NONE) &&
			(kc->d == TUCCOMPI_LEVEL_LOW || kc->d == TUCCOMPI_LEVEL_DEF);
	unsigned prefer = 8 * warp;
	unsigned chosen = 0;
	if (streaming && kc->dims == 1)
	{
		for (unsigned t = (unsigned)dev->max_threads_per_block / warp * warp; t >= warp && !chosen; t -= warp)
		{
			int b = tuccompi_occupancy_blocks(dev, attr, t, -1);
			if (b * ceil_div((int)t, (int)warp) >= need_warps)
				chosen = t;
		}
	}
	/* first the preferred size or larger, then smaller ones */
	for (unsigned t = prefer; (int)t <= dev->max_threads_per_block && !chosen; t += warp)
	{
		int b = tuccompi_occupancy_blocks(dev, attr, t, -1);
		if (b * ceil_div((int)t, (int)warp) >= need_warps)
			chosen = t;
	}
	for (unsigned t = prefer; t >= warp && !chosen; t -= warp)
	{
		int b = tuccompi_occupancy_blocks(dev, attr, t, -1);
		if (b * ceil_div((int)t, (int)warp) >= need_warps)
			chosen = t;
	}
	if (!chosen) /* unreachable: best_blocks_warps was reached by some size */
		chosen = warp;

	/* Cache: irregular accesses that evict L1 lines (C high, or scattered with C medium)
	 * want the largest L1 [ubench]; a kernel whose shared memory limits occupancy wants
	 * shared memory [occ]; otherwise the driver's default. */
	enum tuccompi_cache_pref cache = TUCCOMPI_CACHE_DEFAULT;
	const char *cache_rule = "driver default";
	if (kc->c == TUCCOMPI_LEVEL_HIGH ||
	    (kc->c == TUCCOMPI_LEVEL_MEDIUM && kc->a == TUCCOMPI_ACCESS_SCATTER))
	{
		cache = TUCCOMPI_CACHE_PREFER_L1;
		cache_rule = "prefer L1 (C high / scattered)";
	}
	else if (attr->shared_static + attr->shared_dynamic >= 16 * 1024 &&
		 tuccompi_occupancy_blocks(dev, attr, chosen, 50) < blocks_without_shared(dev, attr, chosen))
	{
		/* a kernel built on shared memory, limited by it at an even split [occ] (a few
		 * bytes of reduction scratch do not count: such a kernel gains nothing from more
		 * shared memory [sweep]) */
		cache = TUCCOMPI_CACHE_PREFER_SHARED;
		cache_rule = "prefer shared (shared memory limits occupancy)";
	}

	unsigned bx = chosen, by = 1;
	if (kc->dims == 2)
		shape_2d(kc, chosen, warp, &bx, &by);
	fill(out, dev, attr, bx, by, cache);
	if (out->blocks_per_sm == 0)
		fill(out, dev, attr, bx, by, TUCCOMPI_CACHE_DEFAULT);
	snprintf(out->why, sizeof(out->why), "%s; %s -> %u threads; %s%s", occ_rule,
		 streaming && kc->dims == 1 ? "light streaming kernel" : kc->a == TUCCOMPI_ACCESS_SCATTER ? "scattered" : "8 warps",
		 chosen, cache_rule, kc->dims == 2 ? (kc->d == TUCCOMPI_LEVEL_HIGH ? "; square (D high)" : "; warp rows") : "");
	(void)nx;
	(void)ny;
	return 0;
}

int tuccompi_tune_candidates(const struct tuccompi_kernel_char *kc, const struct tuccompi_kernel_attr *attr,
			     const struct tuccompi_device_props *dev, struct tuccompi_geometry *out, int max)
{
	static const unsigned warps[] = { 2, 4, 6, 8, 12, 16, 24, 32 };
	static const enum tuccompi_cache_pref caches[] = { TUCCOMPI_CACHE_DEFAULT, TUCCOMPI_CACHE_PREFER_L1,
							   TUCCOMPI_CACHE_PREFER_SHARED };
	unsigned warp = (unsigned)dev->warp_size;
	int n = 0;
	for (unsigned i = 0; i < sizeof(warps) / sizeof(warps[0]); i++)
	{
		unsigned t = warps[i] * warp;
		if (!blocks_without_shared(dev, attr, t))
			continue;
		/* 2-D: every shape with warp-multiple rows, and 16-wide squares */
		unsigned shapes[8][2], ns = 0;
		if (kc->dims == 2)
		{
			for (unsigned x = 16; x <= t && ns < 8; x *= 2)
				if (t % x == 0 && (x % warp == 0 || x * x == t))
				{
					shapes[ns][0] = x;
					shapes[ns][1] = t / x;
					ns++;
				}
		}
		else
		{
			shapes[0][0] = t;
			shapes[0][1] = 1;
			ns = 1;
		}
		for (unsigned s = 0; s < ns; s++)
			for (unsigned c = 0; c < 3; c++)
			{
				if (n >= max)
					return n;
				fill(&out[n], dev, attr, shapes[s][0], shapes[s][1], caches[c]);
				if (out[n].blocks_per_sm > 0)
				{
					snprintf(out[n].why, sizeof(out[n].why), "candidate %ux%u cache %u", shapes[s][0],
						 shapes[s][1], c);
					n++;
				}
			}
	}
	return n;
}

/* ------------------------------------------------------------------ recorded devices */

/* From NVIDIA's published limits (CUDA C Programming Guide, "Compute Capabilities"
 * table; the occupancy calculator's allocation granularities). */
static const struct
{
	const char *key;
	struct tuccompi_device_props p;
} recorded[] = {
	{ "gtx480",
	  { "GeForce GTX 480 (Fermi)", 2, 0, 15, 32, 1024, 1536, 8, 32768, 32768, 63, 64, 49152, 49152, 49152, 65536, 0,
	    { 16, 48 } } },
	{ "gtx680",
	  { "GeForce GTX 680 (Kepler)", 3, 0, 8, 32, 1024, 2048, 16, 65536, 65536, 63, 256, 49152, 49152, 49152, 65536,
	    0, { 16, 32, 48 } } },
	{ "k20",
	  { "Tesla K20 (Kepler)", 3, 5, 13, 32, 1024, 2048, 16, 65536, 65536, 255, 256, 49152, 49152, 49152, 65536, 0,
	    { 16, 32, 48 } } },
	{ "a100",
	  { "A100 (Ampere)", 8, 0, 108, 32, 1024, 2048, 32, 65536, 65536, 255, 256, 167936, 49152, 166912, 196608, 1024,
	    { 8, 16, 32, 64, 100, 132, 164 } } },
	{ "h100",
	  { "H100 SXM (Hopper)", 9, 0, 132, 32, 1024, 2048, 32, 65536, 65536, 255, 256, 233472, 49152, 232448, 262144,
	    1024, { 8, 16, 32, 64, 100, 132, 164, 196, 228 } } },
	{ "h200",
	  { "H200 (Hopper)", 9, 0, 132, 32, 1024, 2048, 32, 65536, 65536, 255, 256, 233472, 49152, 232448, 262144, 1024,
	    { 8, 16, 32, 64, 100, 132, 164, 196, 228 } } },
};

const struct tuccompi_device_props *tuccompi_device_props_recorded(const char *name)
{
	for (unsigned i = 0; i < sizeof(recorded) / sizeof(recorded[0]); i++)
		if (name && strcasecmp(name, recorded[i].key) == 0)
			return &recorded[i].p;
	return NULL;
}
