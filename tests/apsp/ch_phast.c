/* Contraction hierarchies and CPU PHAST (codelets/sssp/phast/ch*.c, phast.c): every distance row and
 * summary equals the reference Dijkstra's (tests/apsp/sssp_ref.h) on random (with and without
 * zero weights), grid (all weights equal: ties everywhere), R-MAT and road-like graphs and on
 * hand-made cases (a single vertex, isolated vertices and disconnected parts, one-way arcs,
 * zero-weight cycles, parallel arcs, a tie that two vertices of one contraction round could
 * each witness for the other); the hierarchy does not depend on the number of threads and
 * its levels have no arcs inside; the cache file round-trips, and a corrupt, truncated,
 * foreign or stale file is refused with the right error and leaves nothing behind; the road-like
 * generator is deterministic, symmetric and connected. */
#include "graph.h"
#include "phast/ch.h"
#include "phast/phast.h"
#include "sssp.h"
#include "sssp_ref.h"
#include "testutil.h"

#include <dirent.h>
#include <unistd.h>

static struct sssp_graph view_of(const struct graph *g)
{
	struct sssp_graph v = { g->n, g->m, g->rowptr, g->col, g->w, g->min_out, g->max_w };
	return v;
}

/* The hierarchy's own invariants, straight from its buffers. */
static void check_structure(const struct sssp_ch *ch, const struct graph *g)
{
	struct sssp_ch_view v;
	sssp_ch_view(ch, &v);
	ASSERT_EQ(v.n, g->n);
	ASSERT_EQ(v.level_start[0], 0);
	ASSERT_EQ(v.level_start[v.levels], v.n);
	uint32_t *lev = malloc((v.n + 1) * sizeof *lev);
	for (uint32_t b = 0; b < v.levels; b++)
		for (uint32_t p = v.level_start[b]; p < v.level_start[b + 1]; p++)
			lev[p] = b; /* block index: 0 is the highest level */
	for (uint32_t p = 0; p < v.n; p++)
	{
		ASSERT_EQ(v.orig[v.pos[p]] == p, 1);
		for (uint64_t e = v.up_start[p]; e < v.up_start[p + 1]; e++)
			ASSERT(lev[v.up[e].v] < lev[p]);
		for (uint64_t e = v.down_start[p]; e < v.down_start[p + 1]; e++)
			ASSERT(lev[v.down[e].v] < lev[p]);
		for (uint64_t e = v.upin_start[p]; e < v.upin_start[p + 1]; e++)
			ASSERT(lev[v.upin[e].v] > lev[p]);
	}
	free(lev);
	struct sssp_ch_stats st;
	sssp_ch_stats(ch, &st);
	ASSERT_EQ(st.levels, v.levels);
	ASSERT(st.shortcuts <= st.up_arcs + st.down_arcs);
}

static int same_buffers(const struct sssp_ch *a, const struct sssp_ch *b)
{
	const void *pa[SSSP_CH_NBUF], *pb[SSSP_CH_NBUF];
	size_t sa[SSSP_CH_NBUF], sb[SSSP_CH_NBUF];
	ASSERT_EQ(sssp_ch_buffers(a, pa, sa, SSSP_CH_NBUF), SSSP_CH_NBUF);
	sssp_ch_buffers(b, pb, sb, SSSP_CH_NBUF);
	for (int i = 0; i < SSSP_CH_NBUF; i++)
		if (sa[i] != sb[i] || memcmp(pa[i], pb[i], sa[i]) != 0)
			return 0;
	return 1;
}

/* A CPU model of the GPU engine's passes (phast_gpu.cu), one source at a time: upward sweep
 * lowest level first over upin arcs from reached vertices, then the downward sweep highest
 * level first; must give Dijkstra's distances (in positions). */
static void model_gpu(const struct sssp_ch_view *v, uint32_t src, uint32_t *dist, uint8_t *flag)
{
	memset(flag, 0, v->n);
	uint32_t s = v->pos[src];
	dist[s] = 0;
	flag[s] = 1;
	for (int b = (int)v->levels - 1; b >= 0; b--)
		for (uint32_t p = v->level_start[b]; p < v->level_start[b + 1]; p++)
		{
			uint64_t d = flag[p] ? dist[p] : UINT64_MAX;
			int any = flag[p];
			for (uint64_t e = v->upin_start[p]; e < v->upin_start[p + 1]; e++)
				if (flag[v->upin[e].v])
				{
					any = 1;
					uint64_t t = (uint64_t)dist[v->upin[e].v] + v->upin[e].w;
					d = t < d ? t : d;
				}
			if (any)
			{
				dist[p] = (uint32_t)d;
				flag[p] = 1;
			}
		}
	for (uint32_t b = 0; b < v->levels; b++)
		for (uint32_t p = v->level_start[b]; p < v->level_start[b + 1]; p++)
		{
			uint64_t d = flag[p] ? dist[p] : SSSP_INF;
			for (uint64_t e = v->down_start[p]; e < v->down_start[p + 1]; e++)
				if (dist[v->down[e].v] != SSSP_INF)
				{
					uint64_t t = (uint64_t)dist[v->down[e].v] + v->down[e].w;
					d = t < d ? t : d;
				}
			dist[p] = (uint32_t)d;
		}
}

/* PHAST from @p k sources against the reference: rows, summaries (the harmonic sum bit for bit) and
 * target columns (sssp_phast_cpu_out: a list with a repeat and the last vertex). */
static void check_sources(const char *what, const struct graph *g, const struct sssp_ch *ch, const uint32_t *src,
			  unsigned k)
{
	struct sssp_ch_view v;
	sssp_ch_view(ch, &v);
	void *work = malloc(sssp_phast_cpu_workspace_size(g->n, k));
	struct sssp_summary *out = calloc(k, sizeof *out);
	uint32_t **rows = calloc(k, sizeof *rows);
	uint32_t *ref = malloc(g->n * sizeof *ref);
	for (unsigned i = 0; i < k; i++)
		rows[i] = malloc(g->n * sizeof(uint32_t));
	ASSERT(work && out && rows && ref);
	uint32_t nt = g->n < 11 ? g->n : 11, tgt[11];
	for (uint32_t j = 0; j < nt; j++)
		tgt[j] = j + 1 == nt ? g->n - 1 : (uint32_t)(((uint64_t)j * 40503u) % g->n);
	if (nt > 2)
		tgt[2] = tgt[0];
	uint32_t *cols = malloc((size_t)k * nt * sizeof *cols);
	ASSERT(cols);
	struct sssp_phast_out po = { .rows = rows, .targets = tgt, .ntargets = nt, .cols = cols, .harmonic = 1 };
	ASSERT_EQ(sssp_phast_cpu_out(&v, src, k, work, out, &po), 0);
	for (unsigned i = 0; i < k; i++)
	{
		sssp_ref(g, src[i], ref);
		for (uint32_t t = 0; t < g->n; t++)
			if (rows[i][t] != ref[t])
				FAIL("%s: source %u, vertex %u: PHAST %u, Dijkstra %u", what, src[i], t, rows[i][t], ref[t]);
		for (uint32_t j = 0; j < nt; j++)
			if (cols[(size_t)i * nt + j] != ref[tgt[j]])
				FAIL("%s: source %u, target %u (vertex %u): PHAST %u, Dijkstra %u", what, src[i], j, tgt[j],
				     cols[(size_t)i * nt + j], ref[tgt[j]]);
		struct sssp_summary s;
		sssp_summarize(ref, g->n, src[i], &s);
		ASSERT_EQ(out[i].source, src[i]);
		ASSERT_EQ(out[i].sum, s.sum);
		ASSERT_EQ(out[i].ecc, s.ecc);
		ASSERT_EQ(out[i].reached, s.reached);
		ASSERT_EQ(out[i].overflow, s.overflow);
		if (out[i].harmonic != s.harmonic)
			FAIL("%s: source %u: harmonic %.17g, Dijkstra's row %.17g", what, src[i], out[i].harmonic, s.harmonic);
		if (i < 8)
		{
			uint32_t *md = malloc(g->n * sizeof *md);
			uint8_t *fl = malloc(g->n + 1);
			model_gpu(&v, src[i], md, fl);
			for (uint32_t t = 0; t < g->n; t++)
				if (md[v.pos[t]] != ref[t])
					FAIL("%s: GPU model, source %u, vertex %u: %u, Dijkstra %u", what, src[i], t, md[v.pos[t]],
					     ref[t]);
			free(md);
			free(fl);
		}
	}
	/* summaries alone (no rows, no harmonic sum: sssp_phast_cpu; the lowest level's rows are then not
	 * stored) agree with the rows', over a workspace of stale bytes */
	struct sssp_summary *out2 = calloc(k, sizeof *out2);
	memset(work, 0xab, sssp_phast_cpu_workspace_size(g->n, k));
	ASSERT_EQ(sssp_phast_cpu(&v, src, k, work, out2, NULL), 0);
	for (unsigned i = 0; i < k; i++)
	{
		ASSERT_EQ(out2[i].sum, out[i].sum);
		ASSERT_EQ(out2[i].ecc, out[i].ecc);
		ASSERT_EQ(out2[i].reached, out[i].reached);
		ASSERT(out2[i].harmonic == 0);
	}
	for (unsigned i = 0; i < k; i++)
		free(rows[i]);
	free(rows);
	free(out);
	free(out2);
	free(cols);
	free(ref);
	free(work);
}

static struct sssp_ch *build(const struct graph *g, unsigned threads)
{
	struct sssp_graph gv = view_of(g);
	struct sssp_ch *ch = NULL;
	struct sssp_ch_stats st;
	char err[256];
	int rc = sssp_ch_build(&gv, threads, &ch, &st, err, sizeof err);
	if (rc < 0)
		FAIL("sssp_ch_build: %s", err);
	return ch;
}

/* Build with 1 and 3 threads (same result), check structure and distances. @p all: every
 * vertex as a source, else a sample (with a duplicate and a group that is not full). */
static void check_graph(const char *what, const struct graph *g, int all)
{
	struct sssp_ch *ch = build(g, 1), *ch3 = build(g, 3);
	if (!same_buffers(ch, ch3))
		FAIL("%s: the hierarchy depends on the number of threads", what);
	sssp_ch_free(ch3);
	check_structure(ch, g);
	uint32_t k = all ? g->n : 37;
	uint32_t *src = malloc(k * sizeof *src);
	for (uint32_t i = 0; i < k; i++)
		src[i] = all ? i : (uint32_t)(((uint64_t)i * 2654435761u) % g->n);
	if (!all && k > 3)
		src[3] = src[2];
	check_sources(what, g, ch, src, k);
	struct sssp_ch_stats st;
	sssp_ch_stats(ch, &st);
	printf("%-28s n=%-6u m=%-7lu levels=%-4u shortcuts=%-7lu up=%-7lu down=%-7lu rounds=%u\n", what, g->n,
	       (unsigned long)g->m, st.levels, (unsigned long)st.shortcuts, (unsigned long)st.up_arcs,
	       (unsigned long)st.down_arcs, st.rounds);
	free(src);
	sssp_ch_free(ch);
}

static void hand_made(void)
{
	struct graph g;
	/* one vertex */
	sssp_ref_graph(&g, 1, 0, NULL);
	check_graph("single vertex", &g, 1);
	graph_free(&g);

	/* two parts, isolated vertices (5, 9), one-way arcs, parallel arcs, a zero cycle */
	static const uint32_t parts[] = { 0, 1, 4, 1, 2, 0, 2, 0, 0, 0, 2, 7, 2, 3, 1, 3, 4, 2,
					  4, 0, 9, 6, 7, 1, 7, 8, 1, 8, 6, 5, 6, 8, 3, 7, 6, 2, 0, 1, 3, 2, 1, 0 };
	sssp_ref_graph(&g, 10, sizeof parts / sizeof parts[0] / 3, parts);
	check_graph("parts, one-way, zero cycle", &g, 1);
	graph_free(&g);

	/* Two vertices that one round may contract together, each on the other's only
	 * equal-length witness: u=0 <-> x=2 and w=1 <-> y=3 at weight 0, u -> a=4 -> w and
	 * x -> b=5 -> y at weight 1 + 1. */
	static const uint32_t tie[] = { 0, 2, 0, 2, 0, 0, 1, 3, 0, 3, 1, 0, 0, 4, 1, 4, 1, 1, 2, 5, 1, 5, 3, 1 };
	sssp_ref_graph(&g, 6, sizeof tie / sizeof tie[0] / 3, tie);
	check_graph("mutual witnesses", &g, 1);
	graph_free(&g);

	/* Many copies of that pattern side by side (one of them will hit a round together),
	 * chained by one-way zero arcs. */
	enum
	{
		COPIES = 200
	};
	uint32_t *arcs = malloc(COPIES * 9 * 3 * sizeof *arcs), m = 0;
	for (uint32_t c = 0; c < COPIES; c++)
	{
		uint32_t b = 6 * c;
		for (unsigned i = 0; i < 8; i++)
		{
			arcs[3 * m] = b + tie[3 * i];
			arcs[3 * m + 1] = b + tie[3 * i + 1];
			arcs[3 * m++ + 2] = tie[3 * i + 2];
		}
		if (c + 1 < COPIES)
		{
			arcs[3 * m] = b + 1;
			arcs[3 * m + 1] = b + 6;
			arcs[3 * m++ + 2] = 0;
		}
	}
	sssp_ref_graph(&g, 6 * COPIES, m, arcs);
	check_graph("mutual witnesses x200", &g, 1);
	graph_free(&g);
	free(arcs);
}

static void generated(void)
{
	struct graph g;
	struct graph_error err;
	ASSERT_EQ(graph_gen_random(800, 1, 4, 1, 10, 7, &g, &err), 0);
	check_graph("random 1..10 (directed)", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_random(1500, 0, 4, 0, 2, 8, &g, &err), 0);
	check_graph("random 0..2 (zero weights)", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_grid(30, 40, 1, 10, 9, &g, &err), 0);
	check_graph("grid 30x40", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_grid(25, 25, 1, 1, 9, &g, &err), 0);
	check_graph("grid 25x25 unit (ties)", &g, 1);
	graph_free(&g);
	ASSERT_EQ(graph_gen_rmat(9, 4, 0.57, 0.19, 0.19, 1, 10, 3, &g, &err), 0);
	check_graph("R-MAT 9", &g, 0);
	graph_free(&g);
	ASSERT_EQ(graph_gen_road(4000, 5, &g, &err), 0);
	check_graph("road 4000", &g, 0);
	graph_free(&g);
}

static int leftovers(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;
	while ((e = readdir(d)))
		n += !strncmp(e->d_name, prefix, strlen(prefix)) && strstr(e->d_name, ".tmp.");
	closedir(d);
	return n;
}

/* sssp_set_tmp_hooks: the temporary file is tracked while it exists, then given back */
static char tracked[512];
static int tracked_slot = -1, untracked_slot = -1;
static int track(const char *tmp)
{
	snprintf(tracked, sizeof tracked, "%s", tmp);
	ASSERT_EQ(access(tmp, F_OK), 0);
	return tracked_slot = 7;
}
static void untrack(int slot)
{
	untracked_slot = slot;
}

static void cache(void)
{
	struct graph g, g2;
	struct graph_error gerr;
	ASSERT_EQ(graph_gen_road(1500, 11, &g, &gerr), 0);
	ASSERT_EQ(graph_gen_road(1500, 12, &g2, &gerr), 0);
	struct sssp_graph gv = view_of(&g), gv2 = view_of(&g2);
	uint64_t key = sssp_graph_hash(&gv), key2 = sssp_graph_hash(&gv2);
	ASSERT(key != key2);
	ASSERT_EQ(key, sssp_graph_hash(&gv)); /* stable */
	struct sssp_ch *ch = build(&g, 2), *back = NULL;
	char dir[] = "/tmp/ch_phast.XXXXXX", path[256], err[512];
	ASSERT(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/g.ch", dir);

	ASSERT_EQ(sssp_ch_read(path, key, &back, err, sizeof err), -ENOENT);
	sssp_set_tmp_hooks(track, untrack);
	ASSERT_EQ(sssp_ch_write(ch, path, key, err, sizeof err), 0);
	sssp_set_tmp_hooks(NULL, NULL);
	if (tracked_slot != 7 || untracked_slot != 7 || strncmp(tracked, path, strlen(path)) || !strstr(tracked, ".tmp."))
		FAIL("the cache's temporary file was not tracked and given back: '%s' %d %d", tracked, tracked_slot,
		     untracked_slot);
	ASSERT(access(tracked, F_OK) != 0);
	ASSERT_EQ(leftovers(dir, "g.ch"), 0);
	ASSERT_EQ(sssp_ch_read(path, key, &back, err, sizeof err), 0);
	ASSERT(same_buffers(ch, back));
	struct sssp_ch_stats a, b;
	sssp_ch_stats(ch, &a);
	sssp_ch_stats(back, &b);
	ASSERT_EQ(a.shortcuts, b.shortcuts);
	ASSERT_EQ(a.levels, b.levels);
	ASSERT(a.build_s == b.build_s);
	const uint32_t src[3] = { 0, 700, 1499 };
	check_sources("cache read back", &g, back, src, 3);
	sssp_ch_free(back);

	/* another graph's key */
	ASSERT_EQ(sssp_ch_read(path, key2, &back, err, sizeof err), -ESTALE);
	ASSERT_STR_CONTAINS(err, "another graph");
	ASSERT(back == NULL);

	/* flip one byte in the middle, then at the end */
	FILE *f = fopen(path, "r+b");
	ASSERT(f);
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	long spots[2] = { size / 2, size - 1 };
	for (int i = 0; i < 2; i++)
	{
		fseek(f, spots[i], SEEK_SET);
		int c = fgetc(f);
		fseek(f, spots[i], SEEK_SET);
		fputc(c ^ 0x10, f);
		fflush(f);
		ASSERT_EQ(sssp_ch_read(path, key, &back, err, sizeof err), -EBADMSG);
		ASSERT_STR_CONTAINS(err, "checksum");
		fseek(f, spots[i], SEEK_SET);
		fputc(c, f);
		fflush(f);
	}
	fclose(f);
	ASSERT_EQ(sssp_ch_read(path, key, &back, err, sizeof err), 0);
	sssp_ch_free(back);

	/* truncated */
	ASSERT_EQ(truncate(path, size - 100), 0);
	ASSERT_EQ(sssp_ch_read(path, key, &back, err, sizeof err), -EBADMSG);
	ASSERT_STR_CONTAINS(err, "truncated");

	/* not a cache at all */
	f = fopen(path, "wb");
	fputs("p sp 3 2\na 1 2 3\n", f);
	fclose(f);
	ASSERT_EQ(sssp_ch_read(path, key, &back, err, sizeof err), -EBADMSG);
	ASSERT_STR_CONTAINS(err, path);

	/* rewriting over it is atomic and gives a valid file again */
	ASSERT_EQ(sssp_ch_write(ch, path, key, err, sizeof err), 0);
	ASSERT_EQ(sssp_ch_read(path, key, &back, err, sizeof err), 0);
	sssp_ch_free(back);

	/* an unwritable place: an error naming it, nothing created */
	char bad[300];
	snprintf(bad, sizeof bad, "%s/no/such/dir/g.ch", dir);
	int rc = sssp_ch_write(ch, bad, key, err, sizeof err);
	ASSERT(rc < 0);
	ASSERT_STR_CONTAINS(err, bad);

	unlink(path);
	rmdir(dir);
	sssp_ch_free(ch);
	graph_free(&g);
	graph_free(&g2);
}

/* The road-like generator: deterministic for a seed, symmetric, connected, integer weights
 * within the API's range, about 3 arcs per vertex. */
static void road_generator(void)
{
	struct graph a, b, c;
	struct graph_error err;
	ASSERT_EQ(graph_gen_road(5000, 3, &a, &err), 0);
	ASSERT_EQ(graph_gen_road(5000, 3, &b, &err), 0);
	ASSERT_EQ(graph_gen_road(5000, 4, &c, &err), 0);
	ASSERT_EQ(a.m, b.m);
	ASSERT(!memcmp(a.rowptr, b.rowptr, (a.n + 1) * sizeof *a.rowptr));
	ASSERT(!memcmp(a.col, b.col, a.m * sizeof *a.col) && !memcmp(a.w, b.w, a.m * sizeof *a.w));
	ASSERT(a.m != c.m || memcmp(a.col, c.col, a.m * sizeof *a.col));
	ASSERT(a.m > 2.5 * a.n && a.m < 3.5 * a.n);
	ASSERT(a.max_w >= 1 && a.max_w <= GRAPH_MAX_WEIGHT);
	uint32_t *d = malloc(a.n * sizeof *d);
	sssp_ref(&a, 0, d);
	for (uint32_t v = 0; v < a.n; v++)
		ASSERT(d[v] != GRAPH_INF); /* connected */
	for (uint32_t u = 0; u < a.n; u++)
		for (uint64_t e = a.rowptr[u]; e < a.rowptr[u + 1]; e++)
		{
			uint32_t v = a.col[e], found = 0;
			ASSERT(a.w[e] >= 1);
			for (uint64_t f = a.rowptr[v]; f < a.rowptr[v + 1]; f++)
				found |= a.col[f] == u && a.w[f] == a.w[e];
			if (!found)
				FAIL("road: arc %u -> %u (weight %u) has no reverse arc of the same weight", u, v, a.w[e]);
		}
	struct graph one;
	ASSERT_EQ(graph_gen_road(1, 1, &one, &err), 0);
	ASSERT_EQ(one.n, 1);
	ASSERT_EQ(one.m, 0);
	ASSERT(graph_gen_road(0, 1, &one, &err) < 0);
	ASSERT_STR_CONTAINS(err.msg, "vertices");
	free(d);
	graph_free(&a);
	graph_free(&b);
	graph_free(&c);
	graph_free(&one);
}

static void bad_source(void)
{
	struct graph g;
	struct graph_error gerr;
	ASSERT_EQ(graph_gen_grid(4, 4, 1, 3, 1, &g, &gerr), 0);
	struct sssp_ch *ch = build(&g, 1);
	struct sssp_ch_view v;
	sssp_ch_view(ch, &v);
	void *work = malloc(sssp_phast_cpu_workspace_size(g.n, 2));
	uint32_t src[2] = { 1, 16 };
	struct sssp_summary out[2];
	ASSERT_EQ(sssp_phast_cpu(&v, src, 2, work, out, NULL), -EINVAL);
	free(work);
	sssp_ch_free(ch);
	graph_free(&g);
}

/* Graphs that do not contract are refused (-EDOM, a message saying so) instead of taking hours:
 * R-MAT's hubs before the first round, a random graph once its core has grown dense. */
static void no_contraction(void)
{
	struct graph g;
	struct graph_error gerr;
	struct sssp_graph sg;
	struct sssp_ch *ch = NULL;
	char err[512];
	ASSERT_EQ(graph_gen_rmat(11, 16, 0.57, 0.19, 0.19, 1, 10, 3, &g, &gerr), 0);
	sg = view_of(&g);
	err[0] = 0;
	ASSERT_EQ(sssp_ch_build(&sg, 2, &ch, NULL, err, sizeof(err)), -EDOM);
	if (ch || !strstr(err, "the graph does not contract") || !strstr(err, "after 0 rounds") ||
	    !strstr(err, "--engine batched"))
		FAIL("R-MAT 11: %s", err);
	graph_free(&g);
	printf("R-MAT 11: %s\n", err);
	ASSERT_EQ(graph_gen_random(3000, 3, 5, 1, 10, 5, &g, &gerr), 0);
	sg = view_of(&g);
	err[0] = 0;
	ASSERT_EQ(sssp_ch_build(&sg, 2, &ch, NULL, err, sizeof(err)), -EDOM);
	if (ch || !strstr(err, "the graph does not contract") || strstr(err, "after 0 rounds"))
		FAIL("random 3000: %s", err);
	graph_free(&g);
	printf("random 3000: %s\n", err);
}

/* A star: hub 0 and leaves 1..leaves, arcs both ways (out 1..7, back 2..6). */
static void star_graph(struct graph *g, uint32_t leaves)
{
	uint32_t *a = malloc((size_t)2 * leaves * 3 * sizeof *a);
	ASSERT(a);
	for (uint32_t i = 0; i < leaves; i++)
	{
		uint32_t *x = a + (size_t)6 * i;
		x[0] = 0, x[1] = i + 1, x[2] = 1 + i % 7;
		x[3] = i + 1, x[4] = 0, x[5] = 2 + i % 5;
	}
	sssp_ref_graph(g, leaves + 1, (uint64_t)2 * leaves, a);
	free(a);
}

/* A star of 50,000 leaves, arcs both ways: it contracts without a single shortcut (every leaf's paths
 * run through the hub). The hub's 2.5e9 shortcut candidates once made the guard refuse it before the
 * first round; the hub now waits until its leaves are gone. Every PHAST row equals Dijkstra's. */
static void star(void)
{
	const uint32_t leaves = 50000;
	struct graph g;
	star_graph(&g, leaves);
	struct sssp_graph sg = view_of(&g);
	struct sssp_ch *ch = NULL;
	char err[512] = "";
	ASSERT_EQ(sssp_ch_build(&sg, 2, &ch, NULL, err, sizeof(err)), 0);
	struct sssp_ch_stats st;
	sssp_ch_stats(ch, &st);
	ASSERT_EQ(st.shortcuts, 0);
	sssp_ch_free(ch);
	check_graph("star of 50,000 leaves", &g, 0);
	graph_free(&g);
}

/* H hubs, each with L leaves (arcs both ways), the leaves on one path across all hubs and the hubs
 * on a cycle (when there are several). */
static void hubs_graph(struct graph *g, uint32_t H, uint32_t L)
{
	const uint32_t n = H + H * L;
	uint64_t m = (uint64_t)H * L * 3 + (H > 1 ? H : 0);
	uint32_t *a = malloc(m * 3 * sizeof *a), *x = a;
	ASSERT(a);
	for (uint32_t j = 0; j < H * L; j++)
	{
		uint32_t h = j / L, leaf = H + j;
		*x++ = h, *x++ = leaf, *x++ = 1 + j % 7;
		*x++ = leaf, *x++ = h, *x++ = 2 + j % 5;
		*x++ = leaf, *x++ = H + (j + 1) % (H * L), *x++ = 1 + j % 3;
	}
	for (uint32_t h = 0; H > 1 && h < H; h++)
		*x++ = h, *x++ = (h + 1) % H, *x++ = 5;
	sssp_ref_graph(g, n, m, a);
	free(a);
}

/* A broom: K hubs on a path (weights 1..3 both ways), each with L leaves (arcs both ways). */
static void broom_graph(struct graph *g, uint32_t K, uint32_t L)
{
	uint64_t m = 2 * ((uint64_t)K - 1) + 2 * (uint64_t)K * L;
	uint32_t *a = malloc(m * 3 * sizeof *a), *x = a;
	ASSERT(a);
	for (uint32_t h = 0; h + 1 < K; h++)
	{
		*x++ = h, *x++ = h + 1, *x++ = 1 + h % 3;
		*x++ = h + 1, *x++ = h, *x++ = 1 + (h + 1) % 3;
	}
	for (uint32_t j = 0; j < K * L; j++)
	{
		*x++ = j % K, *x++ = K + j, *x++ = 1 + j % 9;
		*x++ = K + j, *x++ = j % K, *x++ = 1 + j % 7;
	}
	sssp_ref_graph(g, K + K * L, m, a);
	free(a);
}

/* Hubs that lose thousands of neighbours a round while shortcuts join their lists: 8 hubs of 3,000
 * leaves (hubs_graph). The hubs wait (3,000 x 3,000 candidates) and their lists are long, so
 * contracted leaves leave them in one pass at the end of each round (unlink_arc) while the leaves'
 * shortcuts are merged in. Rows equal Dijkstra's, and the hierarchy is the same on 1 and 3 threads
 * (check_graph). The dense-core guard is on: after two rounds the hubs stop waiting and their
 * 1,500 x 1,500 candidates count, above its limit; it once refused the graph there, and now lets the
 * pairs fall (by 60% a round). Then one hub of 100,000 leaves on a cycle through it, where every
 * leaf's witness searches reach the hub: each scanned its whole list (the build grew as the square
 * of the leaves: docs/apsp.md has the times), and now a hub reached on the way relaxes only its arcs
 * to the targets, and a search from the hub runs back from each target. Then a broom, and a star of a
 * million leaves, whose build took minutes while each leaf's contraction searched its hub's list
 * (growing as the square of the leaves). */
static void hubs(void)
{
	struct graph g;
	hubs_graph(&g, 8, 3000);
	check_graph("8 hubs of 3,000 leaves", &g, 0);
	graph_free(&g);
	hubs_graph(&g, 1, 100000);
	check_graph("a hub of 100,000 leaves", &g, 0);
	graph_free(&g);

	/* A broom of 1,000 hubs with 220 leaves each: the hubs' 220 x 220 candidates sum to twice the
	 * guard's limit before the first round, which once refused it; but a leaf's only neighbour is
	 * its hub, so the hubs' witness searches end at once (first_scans), and the leaves go in the
	 * first round. */
	broom_graph(&g, 1000, 220);
	check_graph("broom of 220,000 leaves", &g, 0);
	graph_free(&g);

	const uint32_t leaves = 1000000;
	star_graph(&g, leaves);
	struct sssp_graph sg = view_of(&g);
	struct sssp_ch *ch = NULL;
	char err[512] = "";
	if (sssp_ch_build(&sg, 2, &ch, NULL, err, sizeof(err)) != 0)
		FAIL("star of 1,000,000 leaves: %s", err);
	struct sssp_ch_stats st;
	sssp_ch_stats(ch, &st);
	ASSERT_EQ(st.shortcuts, 0);
	const uint32_t src[] = { 0, 1, 999999, 1000000 };
	check_sources("star of 1,000,000 leaves", &g, ch, src, 4);
	printf("star of 1,000,000 leaves: built in %.2f s, %u levels\n", st.build_s, st.levels);
	sssp_ch_free(ch);
	graph_free(&g);
}

/* A hub's row out of order and with parallel arcs (struct sssp_graph asks for neither, but a C caller
 * may give both; the graph library's CSR has neither): a star of 300,000 leaves whose hub row is
 * reversed and has each arc twice, the second heavier. Its hierarchy is the clean star's, byte for
 * byte; both build times are printed (the builder once searched the hub's list for each of its arcs,
 * N^2: docs/apsp.md, "PHAST"). */
static void unsorted_rows(void)
{
	const uint32_t leaves = 300000;
	struct graph g;
	star_graph(&g, leaves);
	ASSERT_EQ(g.rowptr[1], leaves);

	/* the messy copy: row 0 has 2 x leaves arcs, from the last leaf to the first, each light then heavy */
	uint64_t *rowptr = malloc(((size_t)g.n + 1) * sizeof *rowptr), m = g.m + leaves;
	uint32_t *col = malloc(m * sizeof *col), *w = malloc(m * sizeof *w);
	ASSERT(rowptr && col && w);
	rowptr[0] = 0;
	for (uint32_t u = 1; u <= g.n; u++)
		rowptr[u] = g.rowptr[u] + leaves;
	for (uint32_t k = 0; k < leaves; k++)
	{
		uint32_t e = leaves - 1 - k;
		col[2 * k] = col[2 * k + 1] = g.col[e];
		w[2 * k] = g.w[e];
		w[2 * k + 1] = g.w[e] + 3;
	}
	memcpy(col + 2 * leaves, g.col + leaves, (g.m - leaves) * sizeof *col);
	memcpy(w + 2 * leaves, g.w + leaves, (g.m - leaves) * sizeof *w);
	struct sssp_graph clean = view_of(&g), messy = clean;
	messy.m = m, messy.rowptr = rowptr, messy.col = col, messy.w = w;

	struct sssp_ch *ch[2] = { NULL, NULL };
	struct sssp_ch_stats st[2];
	char err[512] = "";
	for (int k = 0; k < 2; k++)
	{
		if (sssp_ch_build(k ? &messy : &clean, 2, &ch[k], &st[k], err, sizeof(err)) != 0)
			FAIL("star of 300,000 leaves%s: %s", k ? ", hub row reversed, arcs twice" : "", err);
	}
	printf("star of 300,000 leaves: built in %.2f s; hub row reversed with each arc twice: %.2f s\n",
	       st[0].build_s, st[1].build_s);
	if (!same_buffers(ch[0], ch[1]))
		FAIL("a reversed hub row with parallel arcs gives another hierarchy than the clean star's");
	const uint32_t src[] = { 0, 1, 150000, 300000 };
	check_sources("star, hub row reversed, arcs twice", &g, ch[1], src, 4);
	sssp_ch_free(ch[0]);
	sssp_ch_free(ch[1]);
	free(rowptr);
	free(col);
	free(w);
	graph_free(&g);
}

int main(void)
{
	road_generator();
	hand_made();
	generated();
	cache();
	bad_source();
	no_contraction();
	star();
	hubs();
	unsorted_rows();
	printf("ch_phast: all checks passed\n");
	return 0;
}
