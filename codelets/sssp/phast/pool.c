/* The builder's pool of threads (pool.h). */
#include <stdlib.h>
#include <string.h>

#include "phast/pool.h"

static void *pool_main(void *arg)
{
	struct sssp_pool_thread *t = arg;
	struct sssp_pool *p = t->p;
	pthread_mutex_lock(&p->lock);
	while (!p->ready)
		pthread_cond_wait(&p->ready_cond, &p->lock);
	pthread_mutex_unlock(&p->lock);
	for (;;)
	{
		pthread_barrier_wait(&p->start);
		if (p->quit)
			return NULL;
		p->fn(p, t->tid);
		pthread_barrier_wait(&p->done);
	}
}

void sssp_pool_run(struct sssp_pool *p, sssp_pool_fn fn, uint64_t total)
{
	p->fn = fn;
	p->next = 0;
	p->total = total;
	if (p->t)
		pthread_barrier_wait(&p->start);
	fn(p, 0);
	if (p->t)
		pthread_barrier_wait(&p->done);
}

void sssp_pool_start(struct sssp_pool *p, unsigned n, void *ctx)
{
	memset(p, 0, sizeof *p);
	p->n = 1;
	p->ctx = ctx;
	if (n <= 1 || !(p->t = calloc(n, sizeof *p->t)))
		return;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->ready_cond, NULL);
	for (unsigned i = 1; i < n; i++)
	{
		p->t[i].p = p;
		p->t[i].tid = i;
		if (pthread_create(&p->t[i].th, NULL, pool_main, &p->t[i]) != 0)
			break;
		p->n = i + 1;
	}
	pthread_barrier_init(&p->start, NULL, p->n);
	pthread_barrier_init(&p->done, NULL, p->n);
	pthread_mutex_lock(&p->lock);
	p->ready = 1;
	pthread_cond_broadcast(&p->ready_cond);
	pthread_mutex_unlock(&p->lock);
}

void sssp_pool_stop(struct sssp_pool *p)
{
	if (!p->t)
		return;
	p->quit = 1;
	pthread_barrier_wait(&p->start);
	for (unsigned i = 1; i < p->n; i++)
		pthread_join(p->t[i].th, NULL);
	pthread_barrier_destroy(&p->start);
	pthread_barrier_destroy(&p->done);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->ready_cond);
	free(p->t);
}
