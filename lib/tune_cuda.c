/* GPULAUNCH / GPUSYN: per (kernel, device, input-size class) the geometry comes from the
 * rules, CUDA's occupancy API, a forced value, the tuning database, or is measured on the
 * fly (empirical mode): the first launches of the kernel try each candidate geometry in
 * turn, timed with CUDA events (real launches, so measuring costs no extra work), and
 * the fastest (median of its samples) is kept in the database for later runs. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi_cuda.h>

#define MAX_DEV 16
#define NCLASS 48    /* size classes: floor(log2(elements)) */
#define MAX_CAND 64
#define SAMPLES 11   /* timed launches per candidate */

struct tuning
{
	int ncand;
	struct tuccompi_geometry cand[MAX_CAND];
	float t[MAX_CAND][SAMPLES];
	int nt[MAX_CAND];
	int issued[MAX_CAND];
	int next;      /* candidate of the next timed launch */
	int inflight;  /* timed launches not yet collected */
};

struct kclass
{
	int decided;
	struct tuccompi_geometry g;
	struct tuccompi_geometry fallback; /* rules, used by others while one worker measures */
	struct tuning *tune;
};

struct kdev
{
	int ready;
	const void *func;
	struct tuccompi_kernel_attr attr;
	int applied_carveout; /* attribute currently set on the function; -2 none yet */
	struct kclass cls[NCLASS];
};

struct kstate
{
	pthread_mutex_t lock;
	struct kdev dev[MAX_DEV];
};

static struct
{
	pthread_mutex_t lock;
	int ready[MAX_DEV];
	struct tuccompi_device_props props[MAX_DEV];
	char key[MAX_DEV][96];
} devices = { .lock = PTHREAD_MUTEX_INITIALIZER };

static pthread_mutex_t state_alloc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct tuccompi_kernel *seen[256]; /* kernels launched so far, for tools */
static int nseen;
static int decisions_epoch; /* bumped by tuccompi_gpu_reset_decisions */

/* Timed launches of this thread, collected at GPUSYN. */
struct pending
{
	struct tuccompi_kernel *k;
	int dev, cls, cand;
	cudaEvent_t start, stop;
};
static __thread struct pending pend[64];
static __thread int npend;
static __thread cudaStream_t thread_stream;
static __thread int thread_stream_set;
/* This thread's first launch that failed since its job began (jobs.c fails the job with it), and
 * whether GPUSYN has reported it yet. */
static __thread struct _tuccompi_fail launch_fail;
static __thread int launch_unsynced;

/* ------------------------------------------------------------------ devices */

/* Unified L1/shared size and the shared-memory sizes a carveout can select, by compute
 * capability (CUDA C Programming Guide, "Compute Capabilities", shared memory sections). */
static void arch_cache(int major, int minor, struct tuccompi_device_props *p)
{
	static const int h[] = { 8, 16, 32, 64, 100, 132, 164, 196, 228, 0 };
	static const int a100[] = { 8, 16, 32, 64, 100, 132, 164, 0 };
	static const int ga[] = { 8, 16, 32, 64, 100, 0 };
	static const int volta[] = { 8, 16, 32, 64, 96, 0 };
	static const int turing[] = { 32, 64, 0 };
	const int *opt;
	if (major >= 9)
		opt = h, p->l1_shared_total = 256 * 1024;
	else if (major == 8 && minor == 0)
		opt = a100, p->l1_shared_total = 192 * 1024;
	else if (major == 8)
		opt = ga, p->l1_shared_total = 128 * 1024;
	else if (major == 7 && minor == 5)
		opt = turing, p->l1_shared_total = 96 * 1024;
	else
		opt = volta, p->l1_shared_total = 128 * 1024;
	for (int i = 0; i < 12; i++)
	{
		p->carveout_options[i] = opt[i];
		if (!opt[i])
			break;
	}
}

int tuccompi_gpu_device_props(int dev, struct tuccompi_device_props *out, char *key, size_t keylen)
{
	if (dev < 0 || dev >= MAX_DEV)
		return _tuccompi_error(-EINVAL, "CUDA device %d out of range", dev);
	pthread_mutex_lock(&devices.lock);
	if (!devices.ready[dev])
	{
		struct cudaDeviceProp cp;
		cudaError_t e = cudaGetDeviceProperties(&cp, dev);
		if (e != cudaSuccess)
		{
			pthread_mutex_unlock(&devices.lock);
			return _tuccompi_error(-ENODEV, "cudaGetDeviceProperties(%d): %s", dev, cudaGetErrorString(e));
		}
		struct tuccompi_device_props *p = &devices.props[dev];
		memset(p, 0, sizeof(*p));
		snprintf(p->name, sizeof(p->name), "%.63s", cp.name);
		p->cc_major = cp.major;
		p->cc_minor = cp.minor;
		p->sm_count = cp.multiProcessorCount;
		p->warp_size = cp.warpSize;
		p->max_threads_per_block = cp.maxThreadsPerBlock;
		p->max_threads_per_sm = cp.maxThreadsPerMultiProcessor;
		p->max_blocks_per_sm = cp.maxBlocksPerMultiProcessor;
		p->regs_per_sm = cp.regsPerMultiprocessor;
		p->regs_per_block = cp.regsPerBlock;
		p->max_regs_per_thread = 255;
		p->reg_alloc_unit = 256;
		p->shared_per_sm = (int)cp.sharedMemPerMultiprocessor;
		p->shared_per_block = (int)cp.sharedMemPerBlock;
		p->shared_per_block_optin = (int)cp.sharedMemPerBlockOptin;
		p->shared_reserved_per_block = (int)cp.reservedSharedMemPerBlock;
		arch_cache(cp.major, cp.minor, p);
		/* database key: name without spaces + compute capability */
		char *k = devices.key[dev];
		snprintf(k, sizeof(devices.key[dev]), "%.80s_sm%d%d", cp.name, cp.major, cp.minor);
		for (char *c = k; *c; c++)
			if (*c == ' ' || *c == '/')
				*c = '_';
		devices.ready[dev] = 1;
	}
	if (out)
		*out = devices.props[dev];
	if (key)
		snprintf(key, keylen, "%s", devices.key[dev]);
	pthread_mutex_unlock(&devices.lock);
	return 0;
}

/* ------------------------------------------------------------------ decisions */

static struct kstate *state_of(struct tuccompi_kernel *k)
{
	struct kstate *s = __atomic_load_n((struct kstate **)&k->state, __ATOMIC_ACQUIRE);
	if (s)
		return s;
	pthread_mutex_lock(&state_alloc_lock);
	s = k->state;
	if (!s)
	{
		s = calloc(1, sizeof(*s));
		if (!s)
		{
			pthread_mutex_unlock(&state_alloc_lock);
			return NULL;
		}
		pthread_mutex_init(&s->lock, NULL);
		__atomic_store_n((struct kstate **)&k->state, s, __ATOMIC_RELEASE);
		if (nseen < 256)
			seen[nseen++] = k;
	}
	pthread_mutex_unlock(&state_alloc_lock);
	return s;
}

static int size_class(uint64_t n)
{
	int c = 0;
	while (n > 1 && c < NCLASS - 1)
	{
		n >>= 1;
		c++;
	}
	return c;
}

/* CUDA's recommendation, computed as cudaOccupancyMaxPotentialBlockSize (a C++ template
 * of cuda_runtime.h) does: from the largest block size down, the first size reaching the
 * highest occupancy in threads. */
static int cuda_geometry(const void *func, const struct tuccompi_kernel_char *kc, size_t shmem,
			 const struct tuccompi_device_props *dp, const struct tuccompi_kernel_attr *attr,
			 struct tuccompi_geometry *g)
{
	int limit = dp->max_threads_per_block;
	if (attr->max_threads_per_block > 0 && attr->max_threads_per_block < limit)
		limit = attr->max_threads_per_block;
	int best = 0, best_threads = 0;
	for (int t = limit - limit % dp->warp_size; t > 0; t -= dp->warp_size)
	{
		int blocks = 0;
		cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, t, shmem);
		if (e != cudaSuccess)
			return _tuccompi_error(-EIO, "cudaOccupancyMaxActiveBlocksPerMultiprocessor(%s): %s", kc->name,
					       cudaGetErrorString(e));
		if (blocks * t > best_threads)
		{
			best_threads = blocks * t;
			best = t;
		}
		if (best_threads == dp->max_threads_per_sm)
			break;
	}
	if (!best)
		return _tuccompi_error(-ENOSPC, "kernel %s cannot run on %s", kc->name, dp->name);
	memset(g, 0, sizeof(*g));
	g->block_x = (unsigned)best;
	g->block_y = 1;
	if (kc->dims == 2)
	{
		g->block_x = (unsigned)dp->warp_size;
		g->block_y = (unsigned)best / g->block_x;
	}
	g->carveout = -1;
	g->blocks_per_sm = best_threads / best;
	g->occupancy = (double)best_threads / dp->max_threads_per_sm;
	snprintf(g->why, sizeof(g->why), "CUDA's occupancy recommendation: %d threads", best);
	return 0;
}

/* Give candidate @g the cache preference of @like (recomputing carveout and occupancy). */
static void fill_cache_like(struct tuccompi_geometry *g, const struct tuccompi_geometry *like,
			    const struct tuccompi_device_props *dp, const struct tuccompi_kernel_attr *attr)
{
	g->cache = like->cache;
	g->carveout = like->carveout;
	if (like->cache == TUCCOMPI_CACHE_PREFER_L1)
	{
		/* the smallest carveout that keeps this size's blocks resident */
		int full = tuccompi_occupancy_blocks(dp, attr, g->block_x * g->block_y, -1);
		for (int p = 0; p <= 100; p++)
			if (tuccompi_occupancy_blocks(dp, attr, g->block_x * g->block_y, p) >= full)
			{
				g->carveout = p;
				break;
			}
	}
	g->blocks_per_sm = tuccompi_occupancy_blocks(dp, attr, g->block_x * g->block_y, g->carveout);
}

/* Decide (or start measuring) for one class; called with the kernel's lock held. */
static int decide(struct tuccompi_kernel *k, struct kdev *kd, int dev, int cls, uint64_t nx, uint64_t ny,
		  size_t shmem)
{
	struct kclass *c = &kd->cls[cls];
	const struct tuccompi_device_props *dp = &devices.props[dev];
	enum tuccompi_tune_mode mode = tuccompi_tune_get_mode();
	int ret = tuccompi_tune_rules(&k->kc, &kd->attr, dp, nx, ny, &c->fallback);
	if (ret < 0)
		return ret;
	if (k->block_x)
	{
		/* a kernel written for one block (KERNELCHAR_BLOCK): that block in every mode, the rules'
		 * cache preference for it */
		unsigned fy = k->block_y ? k->block_y : 1, threads = k->block_x * fy;
		c->g = c->fallback;
		c->g.block_x = k->block_x;
		c->g.block_y = fy;
		fill_cache_like(&c->g, &c->fallback, dp, &kd->attr);
		if (c->g.blocks_per_sm == 0)
			return _tuccompi_error(-ENOSPC, "kernel %s cannot run its block of %ux%u threads on %s (%d registers/thread)",
					       k->kc.name, k->block_x, fy, dp->name, kd->attr.num_regs);
		c->g.occupancy = (double)(c->g.blocks_per_sm * (int)((threads + dp->warp_size - 1) / dp->warp_size)) /
				 (double)(dp->max_threads_per_sm / dp->warp_size);
		snprintf(c->g.why, sizeof(c->g.why), "its own block (KERNELCHAR_BLOCK): %ux%u threads; the rules' cache preference",
			 k->block_x, fy);
		c->decided = 1;
		return 0;
	}
	unsigned bx, by;
	int carve;
	if (mode == TUCCOMPI_TUNE_FIXED && _tuccompi_tune_forced(k->kc.name, &bx, &by, &carve))
	{
		memset(&c->g, 0, sizeof(c->g));
		c->g.block_x = bx;
		c->g.block_y = k->kc.dims == 2 ? by : 1;
		c->g.carveout = carve;
		c->g.blocks_per_sm = tuccompi_occupancy_blocks(dp, &kd->attr, c->g.block_x * c->g.block_y, carve);
		snprintf(c->g.why, sizeof(c->g.why), "forced");
		if (c->g.blocks_per_sm == 0)
			return _tuccompi_error(-EINVAL, "forced geometry %ux%u cannot run kernel %s on %s", bx, by, k->kc.name,
					       dp->name);
		c->decided = 1;
		return 0;
	}
	if (mode == TUCCOMPI_TUNE_CUDA)
	{
		if ((ret = cuda_geometry(kd->func, &k->kc, shmem, dp, &kd->attr, &c->g)) < 0)
			return ret;
		c->decided = 1;
		return 0;
	}
	int empirical = mode == TUCCOMPI_TUNE_EMPIRICAL || k->kc.a == TUCCOMPI_ACCESS_DEF;
	if (!empirical)
	{
		c->g = c->fallback;
		c->decided = 1;
		return 0;
	}
	struct tuccompi_tune_record r;
	if (tuccompi_tune_db_lookup("kernel", devices.key[dev], k->kc.name, cls, &r) == 1)
	{
		memset(&c->g, 0, sizeof(c->g));
		c->g.block_x = r.block_x;
		c->g.block_y = r.block_y;
		c->g.carveout = r.carveout;
		c->g.blocks_per_sm = tuccompi_occupancy_blocks(dp, &kd->attr, r.block_x * r.block_y, r.carveout);
		snprintf(c->g.why, sizeof(c->g.why), "tuning database (%.2f us, %d samples)", r.value, r.samples);
		if (c->g.blocks_per_sm > 0)
		{
			c->decided = 1;
			return 0;
		}
	}
	c->tune = calloc(1, sizeof(*c->tune));
	if (!c->tune)
		return _tuccompi_error(-ENOMEM, "out of memory for tuning");
	/* Measure block sizes and shapes only, under the rules' cache preference: a per-launch
	 * timing cannot see that a kernel whose L1/shared split differs from its neighbours'
	 * makes the SMs reconfigure between launches (kernels of one task with different splits run
	 * slower than all alike). */
	struct tuccompi_geometry all[MAX_CAND];
	int nall = tuccompi_tune_candidates(&k->kc, &kd->attr, dp, all, MAX_CAND);
	c->tune->ncand = 0;
	for (int i = 0; i < nall; i++)
		if (all[i].cache == TUCCOMPI_CACHE_DEFAULT)
		{
			struct tuccompi_geometry g = all[i];
			fill_cache_like(&g, &c->fallback, dp, &kd->attr);
			if (g.blocks_per_sm > 0)
				c->tune->cand[c->tune->ncand++] = g;
		}
	return 0;
}

static void finish_tuning(struct tuccompi_kernel *k, struct kdev *kd, int dev, int cls)
{
	struct kclass *c = &kd->cls[cls];
	struct tuning *t = c->tune;
	int best = -1;
	float best_med = 0;
	for (int i = 0; i < t->ncand; i++)
	{
		float s[SAMPLES];
		memcpy(s, t->t[i], sizeof(s));
		for (int a = 1; a < SAMPLES; a++) /* insertion sort of a few values */
			for (int b = a; b > 0 && s[b - 1] > s[b]; b--)
			{
				float x = s[b];
				s[b] = s[b - 1];
				s[b - 1] = x;
			}
		float med = s[SAMPLES / 2];
		if (best < 0 || med < best_med)
		{
			best = i;
			best_med = med;
		}
	}
	c->g = t->cand[best];
	snprintf(c->g.why, sizeof(c->g.why), "measured: best of %d candidates, %.2f us", t->ncand, (double)best_med * 1e3);
	struct tuccompi_tune_record r;
	memset(&r, 0, sizeof(r));
	snprintf(r.kind, sizeof(r.kind), "kernel");
	snprintf(r.device, sizeof(r.device), "%s", devices.key[dev]);
	snprintf(r.name, sizeof(r.name), "%s", k->kc.name);
	r.size_class = cls;
	r.block_x = c->g.block_x;
	r.block_y = c->g.block_y;
	r.carveout = c->g.carveout;
	r.value = (double)best_med * 1e3;
	r.samples = SAMPLES;
	if (tuccompi_tune_db_store(&r) < 0)
		fprintf(stderr, "tuccompi: %s\n", tuccompi_last_error());
	free(t);
	c->tune = NULL;
	c->decided = 1;
}

static void apply_cache(struct kdev *kd, const struct tuccompi_device_props *dp, const struct tuccompi_geometry *g)
{
	int carveout = g->carveout;
	if (kd->applied_carveout == carveout)
		return;
	if (dp->cc_major >= 7)
	{
		/* The carveout is a hint the driver rounds to one of its sizes; where the blocks the choice
		 * counted on would not all be resident under it, raise it until they are. */
		int p = carveout, got = 0;
		unsigned threads = g->block_x * g->block_y;
		for (;;)
		{
			cudaFuncSetAttribute(kd->func, cudaFuncAttributePreferredSharedMemoryCarveout,
					     p < 0 ? cudaSharedmemCarveoutDefault : p);
			if (p < 0 || p >= 100 || g->blocks_per_sm <= 0 || threads == 0 ||
			    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, kd->func, (int)threads,
									  kd->attr.shared_dynamic) != cudaSuccess ||
			    got >= g->blocks_per_sm)
				break;
			p++;
		}
		cudaGetLastError(); /* a refused hint is not the launch's error */
	}
	else
		cudaFuncSetCacheConfig(kd->func, carveout < 0 ? cudaFuncCachePreferNone
						: carveout < 50 ? cudaFuncCachePreferL1
								 : cudaFuncCachePreferShared);
	kd->applied_carveout = carveout;
}

/* A launch that cannot be made, or that CUDA refused: this thread's error, and its job's (jobs.c). */
static int launch_failed(int err, const char *kernel, const char *why)
{
	_tuccompi_fail_set(&launch_fail, err, "cannot launch kernel %s: %s", kernel, why);
	launch_unsynced = 1;
	return _tuccompi_error(err, "cannot launch kernel %s: %s", kernel, why);
}

int _tuccompi_gpu_launch_take(struct _tuccompi_fail *f)
{
	int err = launch_fail.err;
	if (err && f)
		*f = launch_fail;
	launch_fail.err = 0;
	launch_unsynced = 0;
	return err;
}

/* Geometry for this launch; *timed_cand >= 0 when this launch is a measurement. */
static int choose(struct tuccompi_kernel *k, const void *func, uint64_t nx, uint64_t ny, size_t shmem,
		  struct tuccompi_geometry *g, int *dev_out, int *cls_out, int *timed_cand)
{
	int dev;
	if (cudaGetDevice(&dev) != cudaSuccess || dev >= MAX_DEV)
		return _tuccompi_error(-ENODEV, "no current CUDA device");
	int ret = tuccompi_gpu_device_props(dev, NULL, NULL, 0);
	if (ret < 0)
		return ret;
	struct kstate *s = state_of(k);
	if (!s)
		return _tuccompi_error(-ENOMEM, "out of memory");
	pthread_mutex_lock(&s->lock);
	struct kdev *kd = &s->dev[dev];
	if (!kd->ready || kd->func != func)
	{
		struct cudaFuncAttributes fa;
		cudaError_t e = cudaFuncGetAttributes(&fa, func);
		if (e != cudaSuccess)
		{
			pthread_mutex_unlock(&s->lock);
			return _tuccompi_error(-EIO, "cudaFuncGetAttributes(%s): %s (was it compiled for this GPU?)",
					       k->kc.name, cudaGetErrorString(e));
		}
		memset(kd, 0, sizeof(*kd));
		kd->func = func;
		kd->attr.num_regs = fa.numRegs;
		kd->attr.max_threads_per_block = fa.maxThreadsPerBlock;
		kd->attr.shared_static = fa.sharedSizeBytes;
		kd->applied_carveout = -2;
		kd->ready = decisions_epoch + 1;
	}
	else if (kd->ready != decisions_epoch + 1)
	{
		for (int c = 0; c < NCLASS; c++)
		{
			free(kd->cls[c].tune);
			memset(&kd->cls[c], 0, sizeof(kd->cls[c]));
		}
		kd->ready = decisions_epoch + 1;
	}
	kd->attr.shared_dynamic = shmem;
	int cls = size_class(nx * ny);
	struct kclass *c = &kd->cls[cls];
	*timed_cand = -1;
	if (!c->decided && !c->tune && (ret = decide(k, kd, dev, cls, nx, ny, shmem)) < 0)
	{
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	if (c->decided)
		*g = c->g;
	else
	{
		/* Every worker measures: the samples are taken under the concurrency (MK) the
		 * kernel really runs with. */
		struct tuning *t = c->tune;
		if (t->next < t->ncand * SAMPLES && npend < 64)
		{
			/* The least-sampled candidate, starting from a point that moves by a stride
			 * prime to the count: successive launches of a kernel often do different work
			 * (a phase of an algorithm), and a fixed round-robin would give each candidate
			 * the same few phases. */
			int cand = -1;
			for (int i = 0; i < t->ncand; i++)
			{
				int c2 = (int)(((unsigned)t->next * 7919u + (unsigned)i) % (unsigned)t->ncand);
				if (cand < 0 || t->issued[c2] < t->issued[cand])
					cand = c2;
			}
			t->issued[cand]++;
			t->next++;
			t->inflight++;
			*g = t->cand[cand];
			*timed_cand = cand;
		}
		else
			*g = c->fallback;
	}
	apply_cache(kd, &devices.props[dev], g);
	pthread_mutex_unlock(&s->lock);
	*dev_out = dev;
	*cls_out = cls;
	return 0;
}

/* A measurement slot taken by choose() for a launch that is not made: give it back. */
static void unclaim(struct tuccompi_kernel *k, int dev, int cls, int cand)
{
	struct kstate *s = k->state;
	pthread_mutex_lock(&s->lock);
	struct tuning *t = s->dev[dev].cls[cls].tune;
	if (t)
	{
		t->next--;
		t->inflight--;
		t->issued[cand]--;
	}
	pthread_mutex_unlock(&s->lock);
}

int tuccompi_gpu_geometry(struct tuccompi_kernel *k, const void *func, uint64_t nx, uint64_t ny, size_t shmem,
			  struct tuccompi_geometry *out)
{
	int dev, cls, cand;
	int ret = choose(k, func, nx, ny, shmem, out, &dev, &cls, &cand);
	if (ret == 0 && cand >= 0)
		unclaim(k, dev, cls, cand); /* not launched */
	return ret;
}

static uint64_t ceil_div64(uint64_t a, uint64_t b)
{
	return (a + b - 1) / b;
}

int tuccompi_gpu_begin(struct tuccompi_kernel *k, const void *func, uint64_t nx, uint64_t ny, size_t shmem,
		       struct tuccompi_gpu_launch *l)
{
	struct tuccompi_geometry g;
	int dev, cls, cand;
	if (nx == 0 || ny == 0)
		return launch_failed(-EINVAL, k->kc.name, "empty input (nx or ny is 0)");
	int ret = choose(k, func, nx, ny, shmem, &g, &dev, &cls, &cand);
	if (ret < 0)
	{
		char why[TUCCOMPI_FAIL_MSG];
		snprintf(why, sizeof(why), "%s", tuccompi_last_error());
		return launch_failed(ret, k->kc.name, why);
	}
	memset(l, 0, sizeof(*l));
	l->block.x = g.block_x;
	l->block.y = g.block_y;
	l->block.z = 1;
	uint64_t gx = ceil_div64(nx, g.block_x), gy = ceil_div64(ny, g.block_y);
	if (gx > 0x7fffffffu || gy > 65535)
	{
		if (cand >= 0)
			unclaim(k, dev, cls, cand);
		return launch_failed(-EOVERFLOW, k->kc.name, "input too large for one grid");
	}
	l->grid.x = (unsigned)gx;
	l->grid.y = (unsigned)gy;
	l->grid.z = 1;
	l->shmem = shmem;
	l->stream = tuccompi_gpu_stream();
	l->timing = 0;
	l->slot = -1;
	if (cand >= 0)
	{
		struct pending *p = &pend[npend];
		if (!p->start)
		{
			cudaEventCreate(&p->start);
			cudaEventCreate(&p->stop);
		}
		p->k = k;
		p->dev = dev;
		p->cls = cls;
		p->cand = cand;
		cudaEventRecord(p->start, l->stream);
		l->timing = 1;
		l->slot = npend++;
	}
	return 0;
}

void tuccompi_gpu_end(struct tuccompi_kernel *k, struct tuccompi_gpu_launch *l)
{
	cudaError_t e = cudaGetLastError();
	if (e != cudaSuccess)
	{
		char why[256];
		snprintf(why, sizeof(why), "%s (grid %ux%u, block %ux%u, %zu bytes shared)", cudaGetErrorString(e),
			 l->grid.x, l->grid.y, l->block.x, l->block.y, l->shmem);
		launch_failed(-EIO, k->kc.name, why);
		if (l->timing)
			cudaEventRecord(pend[l->slot].stop, l->stream); /* the slot's pair is complete all the same */
		return;
	}
	if (l->timing)
		cudaEventRecord(pend[l->slot].stop, l->stream);
}

static void collect(void)
{
	for (int i = 0; i < npend; i++)
	{
		struct pending *p = &pend[i];
		float ms = 0;
		cudaEventSynchronize(p->stop);
		cudaEventElapsedTime(&ms, p->start, p->stop);
		struct kstate *s = p->k->state;
		pthread_mutex_lock(&s->lock);
		struct kdev *kd = &s->dev[p->dev];
		struct tuning *t = kd->cls[p->cls].tune;
		if (t)
		{
			if (t->nt[p->cand] < SAMPLES)
				t->t[p->cand][t->nt[p->cand]++] = ms;
			t->inflight--;
			if (t->next >= t->ncand * SAMPLES && t->inflight == 0)
				finish_tuning(p->k, kd, p->dev, p->cls);
		}
		pthread_mutex_unlock(&s->lock);
	}
	npend = 0;
}

int tuccompi_gpu_sync(void)
{
	cudaError_t e = cudaStreamSynchronize(tuccompi_gpu_stream());
	if (e == cudaSuccess)
		e = cudaGetLastError();
	collect();
	if (e != cudaSuccess)
		return _tuccompi_error(-EIO, "GPUSYN: %s", cudaGetErrorString(e));
	if (launch_unsynced)
	{
		/* a launch since the last GPUSYN did not run: what it was to compute is missing */
		launch_unsynced = 0;
		return _tuccompi_fail_raise(&launch_fail);
	}
	return 0;
}

cudaStream_t tuccompi_gpu_stream(void)
{
	int w = starpu_worker_get_id();
	if (w >= 0 && starpu_worker_get_type(w) == STARPU_CUDA_WORKER)
		return starpu_cuda_get_local_stream();
	return thread_stream_set ? thread_stream : 0;
}

void tuccompi_gpu_set_stream(cudaStream_t s)
{
	thread_stream = s;
	thread_stream_set = 1;
}

void tuccompi_gpu_reset_decisions(void)
{
	__atomic_fetch_add(&decisions_epoch, 1, __ATOMIC_RELAXED);
}

int tuccompi_gpu_kernel_info(const char *name, struct tuccompi_kernel_char *kc, struct tuccompi_kernel_attr *attr)
{
	int dev;
	if (cudaGetDevice(&dev) != cudaSuccess || dev >= MAX_DEV)
		return _tuccompi_error(-ENODEV, "no current CUDA device");
	pthread_mutex_lock(&state_alloc_lock);
	struct tuccompi_kernel *k = NULL;
	for (int i = 0; i < nseen && !k; i++)
		if (!strcmp(seen[i]->kc.name, name))
			k = seen[i];
	pthread_mutex_unlock(&state_alloc_lock);
	if (!k)
		return _tuccompi_error(-ENOENT, "kernel '%s' has not been launched yet", name);
	struct kstate *s = k->state;
	pthread_mutex_lock(&s->lock);
	int ready = s->dev[dev].ready;
	if (ready && attr)
		*attr = s->dev[dev].attr;
	pthread_mutex_unlock(&s->lock);
	if (kc)
		*kc = k->kc;
	return ready ? 0 : _tuccompi_error(-ENOENT, "kernel '%s' has not run on device %d", name, dev);
}

void _tuccompi_cuda_clear_error(void)
{
	cudaGetLastError();
}

const char *_tuccompi_cuda_unit_broken(void)
{
	/* a sticky error stays in the context: every later call returns it */
	cudaGetLastError();
	static __thread void *probe;
	cudaStream_t s = tuccompi_gpu_stream();
	cudaError_t e = probe ? cudaSuccess : cudaMalloc(&probe, 64);
	if (e == cudaErrorMemoryAllocation)
	{
		/* a full GPU is not a broken one: the stream alone must still complete */
		cudaGetLastError();
		probe = NULL;
		e = cudaStreamSynchronize(s);
		if (e == cudaSuccess)
			return NULL;
	}
	else if (e == cudaSuccess)
		e = cudaMemsetAsync(probe, 0, 64, s);
	if (e == cudaSuccess)
		e = cudaStreamSynchronize(s);
	if (e == cudaSuccess)
		return NULL;
	cudaGetLastError();
	return cudaGetErrorString(e);
}

int _tuccompi_cuda_host_registered(const void *p)
{
	struct cudaPointerAttributes at;
	if (cudaPointerGetAttributes(&at, p) != cudaSuccess)
	{
		cudaGetLastError();
		return 0;
	}
	return at.type == cudaMemoryTypeHost;
}

int _tuccompi_cuda_device_count(void)
{
	int n = 0;
	if (cudaGetDeviceCount(&n) != cudaSuccess)
	{
		cudaGetLastError(); /* no driver or no device: not an error here */
		return 0;
	}
	return n;
}
