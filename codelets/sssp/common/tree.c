/* Shortest-path trees from distance rows (sssp_pred_tree, sssp.h), for every engine alike: a row
 * holds exact distances whatever engine made it (PHAST's shortcuts included), and the tight arcs
 * of the input graph, d(u) + w(u, v) = d(v), are exactly the arcs of its shortest paths, so the
 * tree needs no unpacking.
 *
 * Two passes, both in the order of the arcs in memory (a breadth-first walk from the source, the
 * first version, read the arcs in its queue's order: a random row per vertex and a random pred[]
 * per arc, far from memory order; docs/apsp.md, "What the outputs cost"):
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

#include "common/buffers.h"
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

int sssp_emit_pred(struct sssp_args *a, struct tuccompi_task *t, uint32_t src, const uint32_t *row)
{
	int32_t *pred = sssp_thread_scratch((size_t)a->n * (sizeof(int32_t) + sizeof(uint32_t)));
	if (!pred)
		return -ENOMEM;
	sssp_pred_tree(a->plan->g, src, row, pred, (uint32_t *)(pred + a->n));
	return a->pred(tuccompi_task_id(t), src, pred, a->n, a->pred_ctx);
}

/* ---------------------------------------------------------------- a GPU batch's rows at once
 * A GPU batch ends with up to 256 rows on the host; their trees cost O(n + m) each on one core,
 * far more than the GPU's time per row: on the GPU worker's thread alone --pred would go at a small
 * part of a plain run's rate. The cores that no CPU worker holds make them,
 * a thread each, the worker's thread among them. */
struct emit_job
{
	struct sssp_args *a;
	struct tuccompi_batch *b;
	const uint32_t *src;
	const uint32_t *const *rows;
	unsigned n, next;
};

static void emit_rows_of(struct emit_job *j)
{
	unsigned i;
	while ((i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->n)
		sssp_emit_row(j->a, tuccompi_batch_task(j->b, i), j->src[i], j->rows[i]);
}

static void *emit_thread(void *arg)
{
	emit_rows_of(arg);
	sssp_thread_scratch_free();
	return NULL;
}

/* Threads for a GPU worker's trees: the cores of @p set (the process's) that no CPU worker holds,
 * shared by the GPUs; at least 1, at most 32. */
static unsigned emit_threads(const cpu_set_t *set)
{
	long cores = set ? CPU_COUNT(set) : sysconf(_SC_NPROCESSORS_ONLN);
	int cpus = tuccompi_unit_count(TUCCOMPI_UNIT_CPU), gpus = tuccompi_unit_count(TUCCOMPI_UNIT_CUDA);
	long per = (cores - (cpus > 0 ? cpus : 0)) / (gpus > 0 ? gpus : 1);
	return per < 1 ? 1 : per > 32 ? 32 : (unsigned)per;
}

void sssp_emit_batch_rows(struct sssp_args *a, struct tuccompi_batch *b, const uint32_t *src,
			  const uint32_t *const *rows, unsigned nsrc)
{
	struct emit_job j = {.a = a, .b = b, .src = src, .rows = rows, .n = nsrc};
	/* The main thread's cores: StarPU binds each worker's thread to one core, and a thread
	 * inherits its creator's binding (the trees' threads would all share the GPU worker's). */
	cpu_set_t set;
	CPU_ZERO(&set);
	int have_set = a->pred && sched_getaffinity(getpid(), sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0;
	unsigned k = a->pred ? emit_threads(have_set ? &set : NULL) : 1;
	if (k > nsrc)
		k = nsrc;
	pthread_t th[32];
	unsigned started = 0;
	pthread_attr_t attr;
	if (k > 1 && pthread_attr_init(&attr) == 0)
	{
		if (have_set)
			pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		while (started + 1 < k && pthread_create(&th[started], &attr, emit_thread, &j) == 0)
			started++;
		pthread_attr_destroy(&attr);
	}
	emit_rows_of(&j);
	for (unsigned i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}
