/* The state machine of the batched GPU SSSP engine (batch_gpu_kernels.cu), shared by the kernel and by
 * its sequential model (tests/apsp/batch_model.c) so that both take the same decisions: the
 * step kinds, the counters, what the control step (run by the last block to reach each grid
 * barrier) decides from them, and the small arithmetic rules (saturating sums, the far-pile
 * classification, the arc-chunk size). Plain C; __host__ __device__ under nvcc.
 * For the engine's internals, tests and benchmarks only: the public interface is batch_gpu.h. */
#ifndef TUCCOMPI_SSSP_BATCH_GPU_LOGIC_H
#define TUCCOMPI_SSSP_BATCH_GPU_LOGIC_H

#include <stdint.h>

#ifdef __CUDACC__
#define SSSP_BATCH_HD static __host__ __device__ __forceinline__
#else
#define SSSP_BATCH_HD static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SSSP_BATCH_INF 0xffffffffu

/* Defaults of the tuning knobs (struct sssp_batch_knobs, batch_gpu.h). */
#define SSSP_BATCH_PULL_DIV 10u   /* pull when the frontier holds more than n/10 vertices (the probe's switch) */
#define SSSP_BATCH_PULL_DENSITY 1u /* ... and its vertices have at least 1 new lane each on average
                                    * (enough new lanes per pulled vertex to pay for its in-arcs) */
#define SSSP_BATCH_SPARSE_POPC 2u /* <= 2 active lanes: one thread per frontier vertex */
#define SSSP_BATCH_CHUNK_MIN 64u  /* arcs per chunk of a high-degree vertex, at least */
#define SSSP_BATCH_PULL_GROUP 3u  /* PULL: consecutive vertices per warp item (fewer registers than 4,
                                   * more arcs per warp-load than 2; docs/apsp.md) */
/* PUSH: a warp's 32 frontier vertices with at most this many dense ones expand those itself, one
 * after the other; more go to the chunk queue, one warp each in a PUSHB step -- but only when the
 * frontier averages SSSP_BATCH_DEFER_DENSITY new lanes per vertex or more: an extra step (a grid
 * barrier) pays off when there is much to spread, not for the odd dense vertex of a grid. */
#define SSSP_BATCH_INLINE_DENSE 2u
#define SSSP_BATCH_DEFER_DENSITY 2u

/** Step kinds. Each step is one pass of the whole grid between two grid barriers. */
enum sssp_batch_mode
{
	SSSP_BATCH_PROLOGUE = 0, /* seed the sources, list the in-chunks of high in-degree vertices */
	SSSP_BATCH_PUSH,         /* expand the frontier list over out-arcs; high-degree vertices -> chunk queue */
	SSSP_BATCH_PUSHB,        /* expand the chunk queue the PUSH step filled (same output lists) */
	SSSP_BATCH_PULL,         /* every vertex gathers from in-neighbours in the frontier masks */
	SSSP_BATCH_CLEAR,        /* after a pull: zero the frontier masks it read */
	SSSP_BATCH_RAISE,        /* near pile empty: raise the threshold, move far pairs below it to the frontier */
	SSSP_BATCH_DONE,
};

/** Counters, each on its own 128-byte line (index with SSSP_BATCH_CNT()). The first
 *  SSSP_BATCH_NCTL are the control step's; the grid barrier's follow. */
enum sssp_batch_counter
{
	SSSP_BATCH_C_L0 = 0,  /* entries in frontier list 0 / 1 */
	SSSP_BATCH_C_L1,
	SSSP_BATCH_C_Q,       /* chunk records a PUSH step queued */
	SSSP_BATCH_C_FL0,     /* entries in far list 0 / 1 */
	SSSP_BATCH_C_FL1,
	SSSP_BATCH_C_FMIN0,   /* smallest distance put into far pile 0 / 1 (SSSP_BATCH_INF: none) */
	SSSP_BATCH_C_FMIN1,
	SSSP_BATCH_C_HP,      /* in-chunk records of high in-degree vertices (built by the prologue) */
	SSSP_BATCH_C_NP,      /* (vertex, lane) pairs put into the frontier being built (improvements: an upper bound) */
	SSSP_BATCH_NCTL,
	/* grid barrier: blocks arrive at one of SSSP_BATCH_BAR_GROUPS counters (block % groups), the
	 * last of a group at the top counter; the release is written to one copy of the generation
	 * per group, where that group's blocks poll (no single hot line) */
	SSSP_BATCH_C_BARSUB = SSSP_BATCH_NCTL,
	SSSP_BATCH_C_BARTOP = SSSP_BATCH_C_BARSUB + 16,
	SSSP_BATCH_C_GEN,
	SSSP_BATCH_NCOUNTERS = SSSP_BATCH_C_GEN + 16,
};
#define SSSP_BATCH_BAR_GROUPS 16u
#define SSSP_BATCH_CNT(i) ((i) * 32)

/** What the control step decided for the next step, and statistics. Written only by the
 *  control step (while every other block waits at the barrier), read by all after it. */
struct sssp_batch_ctl
{
	uint32_t mode;   /* enum sssp_batch_mode of the next step */
	uint32_t p;      /* the current frontier: masks F[p], list L[p]; a step writes F[p^1], L[p^1] */
	uint32_t fr;     /* the far list being filled */
	uint32_t T;      /* threshold: distances < T are near, >= T far (SSSP_BATCH_INF: no buckets) */
	uint32_t T_old;  /* RAISE: the threshold before */
	uint32_t n_cur;  /* PUSH/PULL/CLEAR: entries in L[p] */
	uint32_t n_q;    /* PUSHB: chunk records */
	uint32_t n_far;  /* RAISE: entries in the far list fr */
	uint32_t n_hp;   /* in-chunk records */
	uint32_t abort;  /* set by a block whose barrier wait timed out */
	uint32_t defer;  /* PUSH: groups with many dense vertices send them to PUSHB */
	uint32_t steps, push, pushb, pull, clear, raise;
	uint32_t pad[15];
};

/** Constant configuration of one run. */
struct sssp_batch_cfg
{
	uint32_t n;
	uint32_t delta;
	uint32_t pull_div; /* 0: never pull */
	uint32_t pull_density;
};

/** Statistics of the calling thread's last sssp_batch_gpu_run() (for benchmarks and tests); step
 *  counts are summed over its traversals. */
struct sssp_batch_stats
{
	uint32_t steps, push, pushb, pull, clear, raise;
	uint32_t lanes, traversals; /* sources per traversal (32 or 64), traversals run */
	uint32_t grid, block, chunk; /* the device loop's launch and the arc-chunk size */
	uint32_t delta, pull_div, pull_density, sparse_popc;
	uint64_t kind_ns[SSSP_BATCH_DONE]; /* nanoseconds in steps of each kind (enum sssp_batch_mode), grid
					      barrier included; kind_ns[SSSP_BATCH_PROLOGUE]: the prologue */
};
/** 0, or -ENOENT before the first run on this thread. Only in CUDA builds (batch_gpu.cu). */
int sssp_batch_gpu_last_stats(struct sssp_batch_stats *out);

/** d + w, saturated at SSSP_BATCH_INF - 1; SSSP_BATCH_INF stays SSSP_BATCH_INF. */
SSSP_BATCH_HD uint32_t sssp_batch_sat(uint32_t d, uint32_t w)
{
	if (d == SSSP_BATCH_INF)
		return SSSP_BATCH_INF;
	uint64_t s = (uint64_t)d + w;
	return s < SSSP_BATCH_INF - 1 ? (uint32_t)s : SSSP_BATCH_INF - 1;
}

/** Arcs per chunk of a high-degree vertex: at least ceil(m / n), so that a chunk queue of 2n
 *  records always suffices (a vertex of degree > C gives ceil(deg / C) < 2 deg / C chunks). */
SSSP_BATCH_HD uint32_t sssp_batch_chunk(uint32_t n, uint64_t m, uint32_t chunk_min)
{
	uint64_t c = n ? (m + n - 1) / n : 1;
	if (c < chunk_min)
		c = chunk_min;
	if (c < 1)
		c = 1;
	return c > 0x40000000u ? 0x40000000u : (uint32_t)c;
}

/** Chunks of a vertex of degree deg (> chunk). */
SSSP_BATCH_HD uint32_t sssp_batch_nchunks(uint64_t deg, uint32_t chunk)
{
	return (uint32_t)((deg + chunk - 1) / chunk);
}

enum
{
	SSSP_BATCH_DROP = 0, /* expanded already at its current distance */
	SSSP_BATCH_MOVE,     /* now below the threshold: to the frontier */
	SSSP_BATCH_KEEP,     /* still at or above it: stays in the far pile */
};

/** RAISE: what becomes of a far pair at distance d when the threshold goes from t_old to t_new.
 *  A pair below t_old was improved again after it was put on the far pile, while the threshold
 *  was above its new distance, so it went to the frontier then and has been expanded. */
SSSP_BATCH_HD int sssp_batch_raise_class(uint32_t d, uint32_t t_old, uint32_t t_new)
{
	if (d >= t_new)
		return SSSP_BATCH_KEEP;
	return d >= t_old ? SSSP_BATCH_MOVE : SSSP_BATCH_DROP;
}

/** Whether a frontier of nl vertices holding about np (vertex, lane) pairs is expanded by pulling:
 *  when it is large (more than n / pull_div vertices) and dense (pull_density lanes per vertex or
 *  more). A pull visits every vertex with one warp whose lanes are the 32 or 64 sources, which pays
 *  off when many lanes of a vertex's in-neighbours are in the frontier (the random graphs' middle
 *  iterations); the sources of a deep graph (a grid) advance as separate waves, one or two lanes per
 *  frontier vertex, and pulling would read a whole row to use one lane. */
SSSP_BATCH_HD int sssp_batch_use_pull(uint32_t nl, uint32_t np, const struct sssp_batch_cfg *cfg)
{
	return cfg->pull_div && (uint64_t)nl * cfg->pull_div > cfg->n && np >= (uint64_t)nl * cfg->pull_density;
}

/* The control step works on copies of the control block and of the SSSP_BATCH_NCTL control
 * counters (cnt[i] = counter i), which the caller loads before and stores after: on the device
 * all loads go out together, one round trip instead of a chain of them. */

/** Choose the next step from the counters (after a step that produced a frontier). */
SSSP_BATCH_HD void sssp_batch_decide(struct sssp_batch_ctl *c, uint32_t *cnt, const struct sssp_batch_cfg *cfg)
{
	uint32_t nl = cnt[SSSP_BATCH_C_L0 + c->p];
	uint32_t np = cnt[SSSP_BATCH_C_NP];
	cnt[SSSP_BATCH_C_NP] = 0; /* for the frontier the next steps build */
	if (nl)
	{
		c->n_cur = nl;
		c->mode = sssp_batch_use_pull(nl, np, cfg) ? SSSP_BATCH_PULL : SSSP_BATCH_PUSH;
		c->defer = np >= (uint64_t)nl * SSSP_BATCH_DEFER_DENSITY;
		return;
	}
	uint32_t nf = cnt[SSSP_BATCH_C_FL0 + c->fr];
	if (nf)
	{
		/* The far pile's smallest distance is >= T (pairs go there only at or above it), so the
		 * threshold grows; a stale minimum (its pair since improved below T) only makes this
		 * RAISE move less, and the RAISE records the exact minimum of what it keeps. */
		uint32_t fmin = cnt[SSSP_BATCH_C_FMIN0 + c->fr];
		uint64_t t = (uint64_t)fmin + cfg->delta;
		c->T_old = c->T;
		c->T = t < SSSP_BATCH_INF ? (uint32_t)t : SSSP_BATCH_INF;
		c->n_far = nf;
		c->mode = SSSP_BATCH_RAISE;
		return;
	}
	c->mode = SSSP_BATCH_DONE;
}

/** The old frontier is spent: reset its counter (its masks are zero by now), swap. */
SSSP_BATCH_HD void sssp_batch_produced(struct sssp_batch_ctl *c, uint32_t *cnt, const struct sssp_batch_cfg *cfg)
{
	cnt[SSSP_BATCH_C_L0 + c->p] = 0;
	c->p ^= 1;
	sssp_batch_decide(c, cnt, cfg);
}

/** The control step: after the step c->mode finished on every block, set up the next one.
 *  Runs alone (on the device: the last block to reach the barrier, before it releases). */
SSSP_BATCH_HD void sssp_batch_control(struct sssp_batch_ctl *c, uint32_t *cnt, const struct sssp_batch_cfg *cfg)
{
	switch (c->mode)
	{
	case SSSP_BATCH_PROLOGUE:
		c->n_hp = cnt[SSSP_BATCH_C_HP];
		sssp_batch_decide(c, cnt, cfg);
		return;
	case SSSP_BATCH_PUSH:
		c->push++;
		c->steps++;
		c->n_q = cnt[SSSP_BATCH_C_Q];
		if (c->n_q)
			c->mode = SSSP_BATCH_PUSHB; /* same frontier buffers: the chunks add to L[p^1] */
		else
			sssp_batch_produced(c, cnt, cfg);
		return;
	case SSSP_BATCH_PUSHB:
		c->pushb++;
		c->steps++;
		cnt[SSSP_BATCH_C_Q] = 0;
		sssp_batch_produced(c, cnt, cfg);
		return;
	case SSSP_BATCH_PULL:
		c->pull++;
		c->steps++;
		c->mode = SSSP_BATCH_CLEAR; /* L[p] and n_cur stay: CLEAR walks them */
		return;
	case SSSP_BATCH_CLEAR:
		c->clear++;
		c->steps++;
		sssp_batch_produced(c, cnt, cfg);
		return;
	case SSSP_BATCH_RAISE:
		c->raise++;
		c->steps++;
		/* the far list it consumed is free for the next RAISE's output */
		cnt[SSSP_BATCH_C_FL0 + c->fr] = 0;
		cnt[SSSP_BATCH_C_FMIN0 + c->fr] = SSSP_BATCH_INF;
		c->fr ^= 1;
		sssp_batch_produced(c, cnt, cfg);
		return;
	default:
		return;
	}
}

#ifdef __cplusplus
}
#endif

#endif
