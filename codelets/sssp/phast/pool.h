/* A small pool of threads for the contraction-hierarchy builder (ch_build.c): every thread runs
 * the same job, taking chunks of its items from one atomic counter; the caller is thread 0. */
#ifndef TUCCOMPI_SSSP_POOL_H
#define TUCCOMPI_SSSP_POOL_H

#include <pthread.h>
#include <stdint.h>

struct sssp_pool;
typedef void (*sssp_pool_fn)(struct sssp_pool *p, unsigned tid);

struct sssp_pool_thread
{
	struct sssp_pool *p;
	unsigned tid;
	pthread_t th;
};

struct sssp_pool
{
	unsigned n;
	struct sssp_pool_thread *t;
	pthread_barrier_t start, done;
	pthread_mutex_t lock;
	pthread_cond_t ready_cond;
	int ready; /* the barriers exist (their count is known once every thread was created) */
	sssp_pool_fn fn;
	void *ctx;
	int quit;
	uint64_t next; /* work counter of the running job (atomic) */
	uint64_t total;
};

/* Up to n threads (fewer if the system gives fewer); ctx is the jobs' context (p->ctx). */
void sssp_pool_start(struct sssp_pool *p, unsigned n, void *ctx);
/* Run fn on every thread (the caller is thread 0) over @p total items. */
void sssp_pool_run(struct sssp_pool *p, sssp_pool_fn fn, uint64_t total);
void sssp_pool_stop(struct sssp_pool *p);

/* The next chunk of items [*b, *e) of the running job; 0 when none is left. A chunk is at most a
 * quarter of an even share (total / 4n), so that a job of few costly items (a contraction round's
 * last vertices) still spreads over every thread. */
static inline int sssp_pool_chunk(struct sssp_pool *p, uint64_t chunk, uint64_t *b, uint64_t *e)
{
	uint64_t share = p->total / (4 * (uint64_t)p->n);
	if (chunk > share)
		chunk = share ? share : 1;
	uint64_t s = __atomic_fetch_add(&p->next, chunk, __ATOMIC_RELAXED);
	if (s >= p->total)
		return 0;
	*b = s;
	*e = s + chunk < p->total ? s + chunk : p->total;
	return 1;
}

#endif
