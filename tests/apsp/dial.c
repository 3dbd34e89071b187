/* Tests of the dial engine's CPU implementation (codelets/sssp/dial/dial.c): every distance and every
 * summary field (source, reached, sum, ecc, overflow, harmonic) must equal those of the independent
 * reference (tests/apsp/sssp_ref.h), with rows, with target distances (sssp_dial_cpu_run_targets) and
 * without, from every source of small graphs (in
 * calls of 64, and of fewer, and in calls of 128, 256 and 512 through sssp_dial_cpu_run_words) and
 * from samples of larger ones, duplicates included; on random
 * (sparse with unreachable parts, dense), R-MAT, grid and path graphs with weights 1..10 and 1..64;
 * a single vertex; vertices without arcs. One workspace serves every call: it starts full of garbage
 * and must be left ready for the next call (the ring is not cleared between calls), also after a
 * graph of another size. The weight check refuses arcs of weight 0 and above SSSP_DIAL_WMAX. */
#include "graph.h"
#include "cli.h"
#include "dial/dial.h"
#include "sssp.h"
#include "sssp_ref.h"
#include "testutil.h"

static void *work;
static size_t work_size;

static void *workspace(uint32_t n, uint32_t wmax, unsigned words)
{
	size_t size = words > 1 ? sssp_dial_cpu_workspace_size_words(n, wmax, words) : sssp_dial_cpu_workspace_size(n, wmax);
	ASSERT_EQ(sssp_dial_cpu_workspace_size_words(n, wmax, 1), sssp_dial_cpu_workspace_size(n, wmax));
	if (size > work_size)
	{
		free(work);
		work = aligned_alloc(64, (size + 63) & ~(size_t)63);
		ASSERT(work);
		memset(work, 0xab, size); /* garbage, as a reused allocation holds */
		work_size = size;
	}
	return work;
}

static void check_summary(const char *what, uint32_t s, const struct sssp_summary *got, const struct sssp_summary *want)
{
	if (got->source != want->source || got->reached != want->reached || got->sum != want->sum ||
	    got->ecc != want->ecc || got->overflow != want->overflow || got->harmonic != want->harmonic)
		FAIL("%s, source %u: summary (source %" PRIu64 ", reached %u, sum %" PRIu64
		     ", ecc %u, overflow %u, harmonic %.17g), want (%" PRIu64 ", %u, %" PRIu64 ", %u, %u, %.17g)",
		     what, s, got->source, got->reached, got->sum, got->ecc, got->overflow, got->harmonic, want->source,
		     want->reached, want->sum, want->ecc, want->overflow, want->harmonic);
}

/* The sources src[0..k) in calls of @p per (<= 64 x @p words; words 1 through sssp_dial_cpu_run, more
 * through sssp_dial_cpu_run_words), with rows on every third call and, wider than 1 word, the distances
 * to every third vertex through sssp_dial_cpu_run_targets on the next (over stale slots). */
static void check_sources(const struct graph *gr, const uint32_t *src, uint32_t k, unsigned per, unsigned words,
			  const char *what)
{
	struct sssp_graph g = apsp_graph_view(gr);
	uint32_t n = g.n, wmax = 0;
	char why[160];
	if (!sssp_dial_weights(&g, &wmax, why, sizeof why))
		FAIL("%s: weights refused: %s", what, why);
	ASSERT(wmax >= 1 && wmax <= SSSP_DIAL_WMAX);
	uint32_t *want = malloc((size_t)n * 4), *rowbuf = malloc((size_t)per * n * 4);
	ASSERT(want && rowbuf && per <= 64 * words);
	static uint32_t *rows[SSSP_DIAL_CPU_LANES_MAX];
	for (unsigned i = 0; i < per; i++)
		rows[i] = rowbuf + (size_t)i * n;
	/* targets: every third vertex, slots in reverse order */
	uint32_t *slot = malloc((size_t)n * 4), nslots = (n + 2) / 3;
	struct sssp_dial_targets tg = { .slot = slot, .dist = malloc(sssp_dial_cpu_targets_size(nslots, words)) };
	ASSERT(slot && tg.dist);
	for (uint32_t v = 0; v < n; v++)
		slot[v] = v % 3 ? SSSP_DIAL_NO_SLOT : nslots - 1 - v / 3;
	static struct sssp_summary out[SSSP_DIAL_CPU_LANES_MAX];
	struct sssp_summary sum;
	unsigned call = 0;
	for (uint32_t at = 0; at < k; at += per, call++)
	{
		unsigned c = k - at < per ? k - at : per;
		int with_rows = call % 3 == 0, with_targets = call % 3 == 1 && words > 1;
		memset(out, 0x77, sizeof out);
		memset(rowbuf, 0x3c, (size_t)c * n * 4);
		memset(tg.dist, 0x3c, sssp_dial_cpu_targets_size(nslots, words));
		void *ws = workspace(n, wmax, words);
		if (words == 1)
			sssp_dial_cpu_run(&g, wmax, src + at, c, ws, out, with_rows ? rows : NULL);
		else if (with_targets)
			sssp_dial_cpu_run_targets(&g, wmax, words, src + at, c, ws, out, &tg);
		else
			sssp_dial_cpu_run_words(&g, wmax, words, src + at, c, ws, out, with_rows ? rows : NULL);
		for (unsigned i = 0; i < c; i++)
		{
			uint32_t s = src[at + i];
			sssp_ref(gr, s, want);
			if (with_rows)
				for (uint32_t v = 0; v < n; v++)
					if (rows[i][v] != want[v])
						FAIL("%s, %u words, source %u (lane %u): dist[%u] = %u, reference %u", what, words,
						     s, i, v, rows[i][v], want[v]);
			for (uint32_t v = 0; with_targets && v < n; v += 3)
				if (sssp_dial_cpu_target_at(ws, &tg, v, i) != want[v])
					FAIL("%s, %u words, source %u (lane %u): target %u at %u, reference %u", what, words, s, i,
					     v, sssp_dial_cpu_target_at(ws, &tg, v, i), want[v]);
			sssp_summarize(want, n, s, &sum);
			check_summary(what, s, &out[i], &sum);
		}
	}
	free(want);
	free(rowbuf);
	free(slot);
	free(tg.dist);
}

/* Every source (or a sample of 70) in calls of 64, then in calls of 128 and 256 (a sample of 140) and
 * of 512 (a sample of 520: a full call and a partial one), then a sample with duplicates in a call of 7, narrow and wide. The
 * workspace goes from one width to another between calls: the ring must be cleared again. */
static void check_graph(const struct graph *gr, int all, const char *what)
{
	uint32_t n = gr->n, k = all ? n : 70, kw = all ? n : 520;
	uint32_t *src = malloc((size_t)(kw > 7 ? kw : 7) * 4);
	ASSERT(src);
	for (uint32_t i = 0; i < kw; i++)
		src[i] = all ? i : (uint32_t)((uint64_t)i * 2654435761u % n);
	check_sources(gr, src, k, SSSP_DIAL_CPU_LANES, 1, what);
	for (unsigned words = 2; words <= 8; words *= 2)
		check_sources(gr, src, words == 8 || all ? kw : 140, 64 * words, words, what);
	for (uint32_t i = 0; i < 7; i++)
		src[i] = (uint32_t)((uint64_t)(i % 5) * (n - 1) / 4);
	check_sources(gr, src, 7, 7, 1, what);
	check_sources(gr, src, 7, 7, 8, what);
	free(src);
}

static void check_generated(int ret, struct graph *g, const struct graph_error *err, int all, const char *what)
{
	if (ret < 0)
		FAIL("%s: %s", what, err->msg);
	check_graph(g, all, what);
	graph_free(g);
}

static void from_arcs(uint32_t n, uint64_t m, const uint32_t *s, const uint32_t *d, const uint32_t *w, struct graph *g)
{
	struct graph_error err;
	if (graph_from_arcs(n, m, s, d, w, g, &err) < 0)
		FAIL("graph_from_arcs: %s", err.msg);
}

static void check_refused(int ret, struct graph *gr, const struct graph_error *err, const char *want)
{
	if (ret < 0)
		FAIL("%s", err->msg);
	struct sssp_graph g = apsp_graph_view(gr);
	uint32_t wmax = 0;
	char why[160] = "";
	ASSERT_EQ(sssp_dial_weights(&g, &wmax, why, sizeof why), 0);
	if (!strstr(why, want))
		FAIL("weight check said '%s', want '%s'", why, want);
	graph_free(gr);
}

int main(void)
{
	struct graph g = { 0 };
	struct graph_error err;

	check_generated(graph_gen_random(300, 0, 2, 1, 10, 1, &g, &err), &g, &err, 1, "random sparse 1..10");
	check_generated(graph_gen_random(120, 60, 119, 1, 10, 4, &g, &err), &g, &err, 1, "random dense 1..10");
	check_generated(graph_gen_random(150, 1, 6, 1, 64, 5, &g, &err), &g, &err, 1, "random 1..64");
	check_generated(graph_gen_random(30000, 1, 6, 1, 64, 7, &g, &err), &g, &err, 0, "random 30000 1..64");
	check_generated(graph_gen_random(20000, 1, 9, 1, 10, 6, &g, &err), &g, &err, 0, "random 20000 1..10");
	check_generated(graph_gen_rmat(8, 8, 0.57, 0.19, 0.19, 1, 10, 8, &g, &err), &g, &err, 1, "R-MAT 8 1..10");
	check_generated(graph_gen_rmat(13, 16, 0.57, 0.19, 0.19, 1, 64, 10, &g, &err), &g, &err, 0, "R-MAT 13 1..64");
	check_generated(graph_gen_grid(15, 20, 1, 10, 11, &g, &err), &g, &err, 1, "grid 15x20 1..10");
	check_generated(graph_gen_grid(150, 130, 1, 64, 13, &g, &err), &g, &err, 0, "grid 150x130 1..64");
	check_generated(graph_gen_random(200, 0, 3, 1, 1, 14, &g, &err), &g, &err, 1, "random unit weights");

	from_arcs(1, 0, NULL, NULL, NULL, &g);
	check_graph(&g, 1, "single vertex");
	graph_free(&g);
	{
		uint32_t s[] = { 0, 1, 2, 3 }, d[] = { 1, 2, 3, 0 }, w[] = { 4, 64, 1, 9 };
		from_arcs(12, 4, s, d, w, &g);
		check_graph(&g, 1, "isolated vertices");
		graph_free(&g);
	}
	{ /* a path of weight-64 arcs: thousands of levels, the ring wrapping around many times */
		enum { LEN = 3000 };
		uint32_t *s = malloc(LEN * 4), *d = malloc(LEN * 4), *w = malloc(LEN * 4);
		ASSERT(s && d && w);
		for (uint32_t i = 0; i < LEN; i++)
			s[i] = i, d[i] = (i + 1) % LEN, w[i] = i % 7 ? 64 : 1;
		from_arcs(LEN, LEN, s, d, w, &g);
		check_graph(&g, 0, "cycle of 3000");
		graph_free(&g);
		free(s), free(d), free(w);
	}

	check_refused(graph_gen_random(50, 1, 3, 0, 1, 2, &g, &err), &g, &err, "weight 0");
	check_refused(graph_gen_random(50, 1, 3, 65, 90, 3, &g, &err), &g, &err, "takes weights 1..64");
	free(work);
	printf("dial: all distances and summaries equal\n");
	return 0;
}
