/* Shortest-path trees from distance rows (sssp_pred_tree, sssp.h), for every engine alike: a row
 * holds exact distances whatever engine made it (PHAST's shortcuts included), and the tight arcs
 * of the input graph, d(u) + w(u, v) = d(v), are exactly the arcs of its shortest paths, so the
 * tree needs no unpacking.
 *
 * Two passes, both in the order of the arcs in memory (a breadth-first walk from the source, the
 * first version, read the arcs in its queue's order: a random row per vertex and a random pred[]
 * per arc; 0.75 s per tree of the random 1M graph on this VM against 0.12 s for its distances):
 *  1. every tight arc of positive weight sets pred[v] = u: u is strictly nearer than v, so these
 *     arcs cannot close a cycle, and on positive weights every reached vertex but the source gets
 *     one (the last arc of a shortest path to it is tight);
 *  2. only where a tight arc of weight 0 exists: a vertex whose tight in-arcs all weigh 0 gets its
 *     predecessor from a walk of tight zero-weight arcs out of the vertices that have one (or the
 *     source). Each vertex is given a predecessor that had one before it, so the order of the
 *     assignments is a topological order: no cycle, even on cycles of zero weight. */
#define _GNU_SOURCE /* sched_getaffinity, pthread_attr_setaffinity_np */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "buffers.h"
#include "engine.h" /* the plan's graph */

/* pass 2: zero-weight tight arcs out of u into vertices without a predecessor; they join the queue */
static void zero_arcs(const struct sssp_graph *g, uint32_t src, const uint32_t *dist, int32_t *pred, uint32_t *queue,
		      uint32_t *tail, uint32_t u)
{
	for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
	{
		uint32_t v = g->col[e];
		if (g->w[e] == 0 && dist[v] == dist[u] && pred[v] == SSSP_NO_PRED && v != src)
		{
			pred[v] = (int32_t)u;
			queue[(*tail)++] = v;
		}
	}
}

void sssp_pred_tree(const struct sssp_graph *g, uint32_t src, const uint32_t *dist, int32_t *pred, uint32_t *queue)
{
	uint32_t n = g->n;
	int zero = 0;
	for (uint32_t v = 0; v < n; v++)
		pred[v] = SSSP_NO_PRED;
	for (uint32_t u = 0; u < n; u++)
	{
		uint64_t du = dist[u];
		if (du == SSSP_INF)
			continue;
		for (uint64_t e = g->rowptr[u]; e < g->rowptr[u + 1]; e++)
		{
			uint32_t v = g->col[e], w = g->w[e];
			if (du + w != dist[v])
				continue;
			if (w)
				pred[v] = (int32_t)u;
			else
				zero = 1;
		}
	}
	if (!zero)
		return;
	uint32_t head = 0, tail = 0;
	for (uint32_t u = 0; u < n; u++)
		if (dist[u] != SSSP_INF && (u == src || pred[u] != SSSP_NO_PRED))
			zero_arcs(g, src, dist, pred, queue, &tail, u);
	while (head < tail)
		zero_arcs(g, src, dist, pred, queue, &tail, queue[head++]);
}

static int emit_pred_in(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row, int32_t *pred)
{
	sssp_pred_tree(a->plan->g, src, row, pred, (uint32_t *)(pred + a->n));
	return a->pred(tuccompi_task_id(t), src, pred, a->n, a->pred_ctx);
}

int sssp_emit_pred(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row)
{
	int32_t *pred = sssp_thread_scratch((size_t)a->n * (sizeof(int32_t) + sizeof(uint32_t)));
	return pred ? emit_pred_in(a, t, src, row, pred) : -ENOMEM;
}

/* ---------------------------------------------------------------- a GPU batch's rows at once
 * A GPU batch ends with up to 256 rows on the host; their trees cost O(n + m) each on one core
 * (0.18 s for random 1M on this VM, against 0.2 ms of GPU time per row): on the GPU worker's thread
 * alone, --pred ran at 58 SSSP/s with PHAST on the H200 (plain: 140,000). The cores that no CPU
 * worker holds make them, a thread each, the worker's thread among them. */
struct emit_job
{
	struct sssp_args *a;
	struct tuccompi_batch *b;
	const uint32_t *src;
	const uint32_t *const *rows;
	unsigned n, next;
};

static void emit_rows_of(struct emit_job *j, int32_t *pred)
{
	unsigned i;
	while ((i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->n)
	{
		struct tuccompi_task *t = tuccompi_batch_task(j->b, i);
		if (j->a->row && j->a->row(tuccompi_task_id(t), j->src[i], j->rows[i], j->a->n, j->a->row_ctx) < 0)
			__atomic_store_n(&j->a->row_error, 1, __ATOMIC_RELAXED);
		if (j->a->pred && (!pred || emit_pred_in(j->a, t, j->src[i], j->rows[i], pred) < 0))
			__atomic_store_n(&j->a->pred_error, 1, __ATOMIC_RELAXED);
	}
}

static void *emit_thread(void *arg)
{
	struct emit_job *j = arg;
	int32_t *pred = malloc((size_t)j->a->n * (sizeof(int32_t) + sizeof(uint32_t)));
	emit_rows_of(j, pred);
	free(pred);
	return NULL;
}

/* The cores the process may run on: the main thread's (StarPU binds each worker's thread to one core,
 * and a thread inherits its creator's binding: the trees' threads would all share the GPU worker's). */
static int process_cores(cpu_set_t *set)
{
	CPU_ZERO(set);
	return sched_getaffinity(getpid(), sizeof(*set), set) == 0 && CPU_COUNT(set) > 0;
}

/* Threads for a GPU worker's trees: the process's cores that no CPU worker holds, shared by the GPUs. */
static unsigned emit_threads(void)
{
	static unsigned cached;
	unsigned k = __atomic_load_n(&cached, __ATOMIC_RELAXED);
	if (k)
		return k;
	cpu_set_t set;
	long cores = process_cores(&set) ? CPU_COUNT(&set) : sysconf(_SC_NPROCESSORS_ONLN);
	int cpus = tuccompi_unit_count(TUCCOMPI_UNIT_CPU), gpus = tuccompi_unit_count(TUCCOMPI_UNIT_CUDA);
	long per = (cores - (cpus > 0 ? cpus : 0)) / (gpus > 0 ? gpus : 1);
	k = per < 1 ? 1 : per > 32 ? 32 : (unsigned)per;
	__atomic_store_n(&cached, k, __ATOMIC_RELAXED);
	return k;
}

void sssp_emit_batch_rows(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src,
			  const uint32_t *const *rows, unsigned nsrc)
{
	struct emit_job j = {.a = a, .b = b, .src = src, .rows = rows, .n = nsrc};
	unsigned k = a->pred ? emit_threads() : 1;
	if (k > nsrc)
		k = nsrc;
	pthread_t th[32];
	unsigned started = 0;
	pthread_attr_t attr, *pa = NULL;
	cpu_set_t set;
	if (k > 1 && pthread_attr_init(&attr) == 0)
	{
		pa = &attr;
		if (process_cores(&set))
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	while (started + 1 < k && pthread_create(&th[started], pa, emit_thread, &j) == 0)
		started++;
	if (pa)
		pthread_attr_destroy(pa);
	int32_t *pred = a->pred ? sssp_thread_scratch((size_t)a->n * (sizeof(int32_t) + sizeof(uint32_t))) : NULL;
	emit_rows_of(&j, pred);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}
