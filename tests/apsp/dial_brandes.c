/* Betweenness on the dial engine's levels (the "dial-brandes" engine) against the brandes engine's CPU
 * code, bit for bit: on grids with unit weights (many equal-length paths), random graphs with weights
 * 1..10 and 1..64 and unreachable parts, two grids joined one way, a hub of more than one chunk of
 * arcs both ways (SSSP_BRANDES_CHUNK) and an R-MAT graph:
 *  - sssp_dial_brandes_cpu_run() in calls of 64, 128, 256 and 512 sources and of fewer, with
 *    duplicates: every vertex's sum and every arc's flow (edge betweenness) have the bits of
 *    sssp_brandes_cpu() source by source (summed exactly), and the summaries the reference's; a call
 *    whose visits overflow its log says -ENOSPC and adds nothing;
 *  - a host replica of the GPU sweeps (dial_brandes_sweep.h: the per-warp logs, the cursors, the
 *    visits a warp sweeps alone and those whose chunks and pairs go to the whole grid, the chunks'
 *    partial sums and their combination) over the same visits: the same bits, for several grid sizes
 *    and work limits;
 *  - the engine through the runtime (auto on a graph of weights 1..64; --engine dial), every source and
 *    a sample, under EQ1, MS and MS-TAIL, on however many ranks this runs: the same bits, the edge
 *    sums included; auto's reason names the engine; weights of 0 or above 64 and deep graphs go to the
 *    brandes engine, and so does a plan whose batch would not fit the GPU (it keeps the GPU).
 * With --gpu (tests/apsp/dial_brandes_gpu.sh; exit 77 without CUDA or a GPU): the GPU form's sums
 * against the CPU's, batch by batch, then through the runtime (GPU alone, GPU with CPU cores), with
 * what differs printed (vertex, level, degrees, both values and their bits). */
#include "bc_ref.h"
#include "dial/dial_brandes.h"
#include "dial/dial_brandes_sweep.h"
#include "dial/dial_gpu.h"

/* The CPU form in calls of @p per sources at @p words words per mask; -ENOSPC calls are run again one
 * source at a time through the brandes code (as the engine does). Returns the calls that overflowed. */
static unsigned cpu_form(const struct graph *g, const struct both *b, const uint32_t *src, uint64_t k, unsigned words,
			 unsigned per, struct tuccompi_exact *acc)
{
	uint32_t wmax = bc_wmax(g), *dist = malloc((size_t)g->n * 4);
	void *ws = aligned_alloc(64, (sssp_dial_brandes_cpu_workspace_size(g->n, wmax, words) + 63) & ~(size_t)63);
	void *bw = malloc(sssp_brandes_cpu_work_size(g->n));
	struct sssp_summary out[SSSP_DIAL_CPU_LANES_MAX];
	ASSERT(dist && ws && bw);
	memset(acc, 0, ((size_t)g->n + g->m) * sizeof(*acc));
	unsigned overflowed = 0;
	char err[256];
	for (uint64_t at = 0; at < k; at += per)
	{
		unsigned c = k - at < per ? (unsigned)(k - at) : per;
		struct tuccompi_exact first = acc[0];
		int ret = sssp_dial_brandes_cpu_run(&b->bg, wmax, words, src + at, c, ws, out, acc, acc + g->n);
		if (ret == -ENOSPC)
		{
			ASSERT(!memcmp(&first, &acc[0], sizeof(first))); /* nothing added */
			overflowed++;
			for (unsigned i = 0; i < c; i++)
			{
				sssp_ref(g, src[at + i], dist);
				const double *delta = sssp_brandes_cpu(&b->bg, src[at + i], dist, bw, acc + g->n, err, sizeof(err));
				ASSERT(delta);
				sssp_brandes_accumulate(acc, delta, g->n, src[at + i]);
			}
			continue;
		}
		ASSERT_OK(ret);
		for (unsigned i = 0; i < c; i++)
		{
			struct sssp_summary ref;
			sssp_ref(g, src[at + i], dist);
			sssp_summarize(dist, g->n, src[at + i], &ref);
			if (out[i].sum != ref.sum || out[i].reached != ref.reached || out[i].ecc != ref.ecc ||
			    out[i].source != src[at + i])
				FAIL("summary of source %u: sum %llu/%llu reached %u/%u", src[at + i],
				     (unsigned long long)out[i].sum, (unsigned long long)ref.sum, out[i].reached, ref.reached);
		}
	}
	free(dist);
	free(ws);
	free(bw);
	return overflowed;
}

static void check_cpu(const char *what, struct graph *g)
{
	struct both b;
	both_of(g, &b);
	uint32_t n = g->n;
	uint32_t *all = malloc(((size_t)n + 8) * 4);
	uint64_t k = 0;
	for (uint32_t v = 0; v < n; v++)
		all[k++] = v;
	for (uint32_t v = 0; v < 8 && v < n; v++) /* duplicates */
		all[k++] = (v * 7) % n;
	struct tuccompi_exact *want = malloc(((size_t)n + g->m) * sizeof(*want)),
			      *got = malloc(((size_t)n + g->m) * sizeof(*got));
	ASSERT(want && got);
	bc_reference(g, &b, all, k, 1, want);
	static const unsigned words[] = { 1, 2, 4, 8, 1, 8 }, per[] = { 64, 128, 256, 512, 37, 300 };
	for (int i = 0; i < 6; i++)
	{
		unsigned over = cpu_form(g, &b, all, k, words[i], per[i], got);
		char tag[160];
		snprintf(tag, sizeof tag, "%s, CPU form, calls of %u at %u word(s)", what, per[i], words[i]);
		if (bc_differ(tag, g, &b, g->m, got, want))
			FAIL("%s: other bits than the brandes engine's", tag);
		printf("%s: %llu sources, the brandes engine's bits (vertices and arcs)%s\n", tag, (unsigned long long)k,
		       over ? " (some calls overflowed their log: run one source at a time)" : "");
	}
	free(all);
	free(want);
	free(got);
	both_free(&b);
}


/* ------------------------------------------------------------------ the GPU sweeps' host replica */

/* The replica's settings: the traversal's warps (shares), the light limit, the log's visits per vertex. */
struct shape_of_run
{
	uint32_t warps, light_work, visits;
};

/* One lane's pull (dial_brandes_gpu.cu's pull for the lane alone; flows added one by one, exactly). */
static double lane_pull(const struct db_sweep *S, int dir, uint32_t d, unsigned s, uint64_t a0, uint64_t a1, double sv)
{
	const uint32_t *col = dir == DB_FWD ? S->in_col : S->col, *wt = dir == DB_FWD ? S->in_w : S->w;
	double part = 0.0;
	for (uint64_t a = a0; a < a1; a++)
	{
		const uint32_t o = db_other(S, dir, d, col[a], wt[a]);
		double val;
		if (o == DB_NONE || !db_value(S, o, s, &val))
			continue;
		part += val;
		if (dir == DB_BWD && S->eacc)
			tuccompi_exact_add(&S->eacc[a], sv * val);
	}
	return part;
}

/* finish() for one lane. */
static void lane_finish(const struct db_sweep *S, int dir, uint32_t v, uint64_t pk, unsigned s, double tot, double sv)
{
	const int own = db_own(S, s, v);
	if (dir == DB_FWD)
	{
		S->pairs[pk] = own ? 1.0 : tot;
		if (!own && !(tot > 0.0))
			S->ctl->bad++;
		return;
	}
	if (!(sv > 0.0))
		S->ctl->bad++;
	const double dv = sv * tot;
	S->pairs[pk] = (1.0 + dv) / sv;
	if (!own && dv != 0.0)
		tuccompi_exact_add(&S->acc[v], dv);
}

/* The three kernels of a level, warp by warp and lane by lane (the warps of the visits kernel in
 * reverse order, the items backwards: no order may matter). */
static void replica_level(const struct db_sweep *S, int dir)
{
	struct db_ctl *C = S->ctl;
	const uint32_t d = C->level;
	for (uint32_t r = S->W; r-- > 0;) /* visits */
	{
		uint64_t first;
		uint32_t vertices;
		sssp_dial_gpu_share(S->n, S->W, r, &first, &vertices);
		const uint64_t base = first * S->visits;
		uint32_t cur = S->cur[r];
		const uint32_t cnt = S->count[r];
		for (;;)
		{
			if (dir == DB_FWD ? cur >= cnt : cur == 0)
				break;
			const uint64_t i = base + (dir == DB_FWD ? cur : cur - 1);
			const uint32_t *h = S->head + 4 * i, v = h[0], poff = h[2], c = h[3];
			if (h[1] != d)
			{
				if (dir == DB_FWD)
					C->next = h[1] < C->next ? h[1] : C->next;
				else
					C->next = h[1] + 1 > C->next ? h[1] + 1 : C->next;
				break;
			}
			const uint64_t *row = dir == DB_FWD ? S->in_rowptr : S->rowptr, b = row[v], e = row[v + 1];
			S->ring[2 * ((uint64_t)(d % S->R) * S->n + v)] = d;
			S->ring[2 * ((uint64_t)(d % S->R) * S->n + v) + 1] = (uint32_t)i;
			uint32_t chunks, rounds;
			if (db_light(e - b, c, S->light_work, &chunks, &rounds))
			{
				for (uint32_t q = 0; q < rounds; q++)
					for (uint32_t lane = 0; lane < 32; lane++)
					{
						const uint32_t k = 32 * q + lane;
						if (k >= c)
							continue;
						const unsigned src = db_select(S->mask + i * DB_WORDS, k);
						const double sv = dir == DB_BWD ? S->pairs[poff + k] : 0.0;
						lane_finish(S, dir, v, poff + k, src, 0.0 + lane_pull(S, dir, d, src, b, e, sv), sv);
					}
			}
			else
			{
				const unsigned long long items = (unsigned long long)chunks * rounds, old = C->heavy;
				C->heavy += (1ull << DB_ITEM_BITS) | items;
				const uint32_t ent = (uint32_t)(old >> DB_ITEM_BITS);
				S->hrec[ent] = (uint32_t)i;
				S->hbase[ent] = old & ((1ull << DB_ITEM_BITS) - 1);
				if (chunks > 1)
				{
					S->hpb[ent] = C->parts;
					C->parts += (uint32_t)items;
					C->multi = 1;
					if (C->parts > S->part_cap)
						C->bad++;
				}
			}
			C->pairs_done += c;
			cur = dir == DB_FWD ? cur + 1 : cur - 1;
		}
		S->cur[r] = cur;
	}
	const unsigned long long I = C->heavy & ((1ull << DB_ITEM_BITS) - 1);
	const uint32_t E = (uint32_t)(C->heavy >> DB_ITEM_BITS);
	for (unsigned long long t = I; t-- > 0;) /* items */
	{
		const uint32_t ent = db_entry_of(S->hbase, E, t), i = S->hrec[ent];
		const uint32_t *h = S->head + 4 * (uint64_t)i, v = h[0], poff = h[2], c = h[3];
		const uint64_t *row = dir == DB_FWD ? S->in_rowptr : S->rowptr, b = row[v], e = row[v + 1];
		uint32_t chunks, rounds;
		db_light(e - b, c, S->light_work, &chunks, &rounds);
		const uint64_t local = t - S->hbase[ent];
		const uint32_t j = (uint32_t)(local / rounds), q = (uint32_t)(local % rounds);
		for (uint32_t lane = 0; lane < 32; lane++)
		{
			const uint32_t k = 32 * q + lane;
			if (k >= c)
				continue;
			const unsigned src = db_select(S->mask + (uint64_t)i * DB_WORDS, k);
			const double sv = dir == DB_BWD ? S->pairs[poff + k] : 0.0;
			const uint64_t a0 = b + (uint64_t)j * SSSP_BRANDES_CHUNK,
				       a1 = a0 + SSSP_BRANDES_CHUNK < e ? a0 + SSSP_BRANDES_CHUNK : e;
			const double part = lane_pull(S, dir, d, src, a0, a1, sv);
			if (chunks == 1)
				lane_finish(S, dir, v, poff + k, src, 0.0 + part, sv);
			else
				S->part[((uint64_t)S->hpb[ent] + (uint64_t)j * rounds + q) * 32 + lane] = part;
		}
	}
	for (uint32_t ent = 0; C->multi && ent < E; ent++) /* combine */
	{
		const uint32_t i = S->hrec[ent];
		const uint32_t *h = S->head + 4 * (uint64_t)i, v = h[0], poff = h[2], c = h[3];
		const uint64_t *row = dir == DB_FWD ? S->in_rowptr : S->rowptr;
		uint32_t chunks, rounds;
		db_light(row[v + 1] - row[v], c, S->light_work, &chunks, &rounds);
		if (chunks == 1)
			continue;
		for (uint32_t q = 0; q < rounds; q++)
			for (uint32_t lane = 0; lane < 32; lane++)
			{
				const uint32_t k = 32 * q + lane;
				if (k >= c)
					continue;
				const unsigned src = db_select(S->mask + (uint64_t)i * DB_WORDS, k);
				const double sv = dir == DB_BWD ? S->pairs[poff + k] : 0.0;
				double tot = 0.0;
				for (uint32_t j = 0; j < chunks; j++)
					tot += S->part[((uint64_t)S->hpb[ent] + (uint64_t)j * rounds + q) * 32 + lane];
				lane_finish(S, dir, v, poff + k, src, tot, sv);
			}
	}
	/* control */
	const uint32_t nx = C->next;
	if (dir == DB_FWD)
	{
		if (nx == DB_NONE)
			C->done = 1;
		else
			C->level = nx;
		C->next = DB_NONE;
	}
	else
	{
		if (nx == 0)
			C->done = 1;
		else
			C->level = nx - 1;
		C->next = 0;
	}
	C->heavy = 0, C->parts = 0, C->multi = 0, C->levels++;
}

/* The GPU's form on the host for one batch (<= 512 sources): its traversal's log laid out per warp of
 * rs->warps as dial_gpu.cu lays it (from the CPU traversal's log, in its level order), then both sweeps
 * level by level. 0, or -ENOSPC when a warp's share of the log would overflow. */
static int replica(const struct graph *g, const struct both *b, const uint32_t *src, unsigned nsrc,
		   const struct shape_of_run *rs, struct tuccompi_exact *acc)
{
	const uint32_t n = g->n, wmax = bc_wmax(g), nw = (n + 31) / 32, W = rs->warps;
	const uint64_t slots = (uint64_t)nw * 32;
	/* the CPU traversal at 512 lanes: its masks are the GPU's, bit for bit (little-endian words) */
	void *ws = aligned_alloc(64, (sssp_dial_cpu_workspace_size_words(n, wmax, 8) + 63) & ~(size_t)63);
	struct sssp_dial_log log = { .v = malloc(slots * 512 * 4), .d = malloc(slots * 512 * 4),
				     .mask = malloc(slots * 512 * 64), .cap = slots * 512 };
	struct sssp_summary out[512];
	ASSERT(ws && log.v && log.d && log.mask);
	sssp_dial_cpu_run_log(&(struct sssp_graph){ n, g->m, g->rowptr, g->col, g->w, NULL, 0 }, wmax, 8, src, nsrc, ws, out,
			      &log);
	ASSERT(!log.overflow);
	uint32_t *head = calloc(slots * rs->visits, 16), *mask = calloc(slots * rs->visits, 64), *count = calloc(W, 4);
	uint32_t *npair = calloc(W, 4), *cur = calloc(W, 4);
	ASSERT(head && mask && count && npair && cur);
	int ret = 0;
	for (uint64_t k = 0; k < log.count && !ret; k++)
	{
		const uint32_t v = log.v[k], r = (v / 32) % W;
		uint64_t first;
		uint32_t vertices;
		sssp_dial_gpu_share(n, W, r, &first, &vertices);
		ASSERT(vertices / 32 == (r < nw ? (nw - r + W - 1) / W : 0)); /* the words r, r + W, ... */
		uint32_t c = 0;
		for (int q = 0; q < 8; q++)
			c += (uint32_t)__builtin_popcountll(log.mask[8 * k + q]);
		if (count[r] == vertices * rs->visits)
		{
			ret = -ENOSPC;
			break;
		}
		const uint64_t at = first * rs->visits + count[r]++;
		head[4 * at] = v, head[4 * at + 1] = log.d[k], head[4 * at + 2] = (uint32_t)(first * nsrc + npair[r]);
		head[4 * at + 3] = c;
		npair[r] += c;
		memcpy(mask + 16 * at, log.mask + 8 * k, 64);
	}
	struct sssp_dial_brandes_shape sh;
	sssp_dial_brandes_shape_of(&b->bg, &sh);
	struct db_ctl ctl;
	struct db_sweep S = {
		.n = n, .nsrc = nsrc, .W = W, .R = wmax + 1, .visits = rs->visits, .light_work = rs->light_work,
		.rowptr = g->rowptr, .in_rowptr = b->irp, .col = g->col, .w = g->w, .in_col = b->icol, .in_w = b->iw,
		.head = head, .mask = mask, .count = count, .src = src, .cur = cur,
		.ring = malloc((size_t)(wmax + 1) * n * 8), .pairs = malloc(slots * nsrc * 8),
		.hrec = malloc((size_t)n * 4), .hpb = malloc((size_t)n * 4), .hbase = malloc((size_t)n * 8),
		.part = malloc((sh.heavy_chunks * 16 + 1) * 32 * 8), .part_cap = sh.heavy_chunks * 16,
		.acc = acc, .eacc = acc + n, .ctl = &ctl,
	};
	ASSERT(S.ring && S.pairs && S.hrec && S.hpb && S.hbase && S.part);
	memset(S.ring, 0xff, (size_t)(wmax + 1) * n * 8);
	uint64_t pairs = 0;
	for (unsigned i = 0; i < nsrc; i++)
		pairs += out[i].reached;
	for (int dir = DB_FWD; dir <= DB_BWD && !ret; dir++)
	{
		memset(&ctl, 0, sizeof ctl);
		ctl.level = dir == DB_FWD ? 0 : DB_NONE - 1;
		ctl.next = dir == DB_FWD ? DB_NONE : 0;
		for (uint32_t r = 0; r < W; r++)
			cur[r] = dir == DB_FWD ? 0 : count[r];
		while (!ctl.done)
			replica_level(&S, dir);
		if (ctl.bad || ctl.pairs_done != pairs)
			FAIL("replica, %s sweep: %u failed checks, %llu of %llu pairs", dir == DB_FWD ? "forward" : "backward",
			     ctl.bad, ctl.pairs_done, (unsigned long long)pairs);
	}
	free(ws);
	free(log.v);
	free(log.d);
	free(log.mask);
	free(head);
	free(mask);
	free(count);
	free(npair);
	free(cur);
	free(S.ring);
	free(S.pairs);
	free(S.hrec);
	free(S.hpb);
	free(S.hbase);
	free(S.part);
	return ret;
}

static void check_replica(const char *what, struct graph *g)
{
	struct both b;
	both_of(g, &b);
	uint32_t n = g->n;
	uint32_t *all = malloc(((size_t)n + 8) * 4);
	uint64_t k = 0;
	for (uint32_t v = 0; v < n; v++)
		all[k++] = (uint32_t)(((uint64_t)v * 7919) % n); /* every vertex, in another order */
	struct tuccompi_exact *want = malloc(((size_t)n + g->m) * sizeof(*want)),
			      *got = malloc(((size_t)n + g->m) * sizeof(*got));
	ASSERT(want && got);
	bc_reference(g, &b, all, k, 1, want);
	static const struct shape_of_run runs[] = {
		{ 1, DB_LIGHT_WORK, SSSP_DIAL_BRANDES_GPU_VISITS },
		{ 3, DB_LIGHT_WORK, SSSP_DIAL_BRANDES_GPU_VISITS },
		{ 64, 1, SSSP_DIAL_BRANDES_GPU_VISITS },  /* every visit of more than one arc to the grid */
		{ 5, 40, SSSP_DIAL_BRANDES_GPU_VISITS },
		{ 2, DB_LIGHT_WORK, 3 },                  /* a log too small for most batches */
	};
	for (unsigned ri = 0; ri < sizeof runs / sizeof runs[0]; ri++)
	{
		memset(got, 0, ((size_t)n + g->m) * sizeof(*got));
		unsigned split = 0, batches = 0;
		for (uint64_t at = 0; at < k;)
		{
			/* the engine's way: a batch that overflows its log is halved until it fits */
			unsigned c = k - at < 512 ? (unsigned)(k - at) : 512;
			struct tuccompi_exact first = got[0];
			int ret;
			while ((ret = replica(g, &b, all + at, c, &runs[ri], got)) == -ENOSPC)
			{
				ASSERT(!memcmp(&first, &got[0], sizeof(first)));
				ASSERT(c > 1);
				c = (c + 1) / 2, split++;
			}
			ASSERT_OK(ret);
			at += c, batches++;
		}
		char tag[200];
		snprintf(tag, sizeof tag, "%s, GPU replica, %u warps, light work %u, %u visits per vertex", what,
			 runs[ri].warps, runs[ri].light_work, runs[ri].visits);
		if (bc_differ(tag, g, &b, g->m, got, want))
			FAIL("%s: other bits than the brandes engine's", tag);
		printf("%s: %u batches (%u halvings), the brandes engine's bits\n", tag, batches, split);
	}
	free(all);
	free(want);
	free(got);
	both_free(&b);
}

/* ------------------------------------------------------------------ the engine through the runtime */

/* The engine on @p g (weights 1..64, a shallow graph: auto's dial-brandes) against the bits of the
 * brandes engine's CPU code: CPU units (@p levels: their levels' form must run on every source) or
 * with @p gpu GPU units alone, then with CPU cores. */
static void check_engine(const char *what, struct graph *g, int gpu, int levels)
{
	uint32_t n = g->n;
	uint32_t *all = malloc((size_t)n * 4), *some = malloc((size_t)n * 4);
	uint64_t k = 0;
	for (uint32_t v = 0; v < n; v++)
	{
		all[v] = v;
		if (v % 3 == 1)
			some[k++] = v;
	}
	struct both b;
	both_of(g, &b);
	struct tuccompi_exact *want = malloc(((size_t)n + g->m) * sizeof(*want)), *want_some = malloc((size_t)n * sizeof(*want));
	ASSERT(want && want_some);
	bc_reference(g, &b, all, n, 1, want);
	bc_reference(g, &b, some, k, 0, want_some);
	const enum sssp_engine A = SSSP_ENGINE_AUTO, D = SSSP_ENGINE_DIAL, DB = SSSP_ENGINE_DIAL_BRANDES;
	if (!gpu)
	{
		ASSERT_EQ(bc_run_engine(what, g, all, n, "ms", 1, 0, A, 1, want, DB), levels);
		bc_run_engine(what, g, all, n, "ms-tail", 1, 0, D, 0, want, DB);
		bc_run_engine(what, g, some, k, "eq1", 1, 0, D, 0, want_some, DB);
		bc_run_engine(what, g, all, n, "eq2", 1, 0, SSSP_ENGINE_BATCHED, 1, want, SSSP_ENGINE_BRANDES);
	}
	else
	{
		bc_run_engine(what, g, all, n, "ms", 0, 1, A, 1, want, DB);
		bc_run_engine(what, g, some, k, "eq1", 0, 1, D, 0, want_some, DB);
		bc_run_engine(what, g, all, n, "ms", 1, 1, A, 1, want, DB);
	}
	both_free(&b);
	free(all);
	free(some);
	free(want);
	free(want_some);
}

/* auto's choice and reason for betweenness on @p g, and its MK judged ahead. */
static void check_choice(const char *what, struct graph *g, enum sssp_engine engine, enum sssp_engine expect,
			 const char *reason, int mk)
{
	struct sssp_graph view = apsp_graph_view(g);
	struct sssp_options o = { .engine = engine, .cpu = 1, .cuda = sssp_have_cuda(), .nsources = g->n, .betweenness = 1 };
	struct sssp_plan *plan;
	char why[512];
	if (sssp_plan_create(&view, &o, &plan, why, sizeof(why)) < 0)
		FAIL("%s: sssp_plan_create: %s", what, why);
	if (sssp_plan_engine(plan) != expect || !strstr(sssp_plan_reason(plan), reason))
		FAIL("%s: %s (%s), expected %s and a reason with '%s'", what, sssp_engine_name(sssp_plan_engine(plan)),
		     sssp_plan_reason(plan), sssp_engine_name(expect), reason);
	if (sssp_have_cuda())
		ASSERT_EQ(sssp_plan_mk_ahead(&view, &o), mk);
	if (tuccompi_rank() == 0)
		printf("%s: %s (%s)\n", what, sssp_engine_name(expect), sssp_plan_reason(plan));
	sssp_plan_free(plan);
}

/* dial-brandes of which not even one batch fits the GPU gives way to brandes, which keeps the GPU
 * (as auto's distance engines give way to batched): the plan says so. */
static void check_fit(struct graph *g)
{
	struct sssp_graph view = apsp_graph_view(g);
	struct sssp_options o = { .cpu = 1, .cuda = 1, .nsources = g->n, .betweenness = 1, .edge_betweenness = 1 };
	struct sssp_plan *plan, *brandes;
	struct sssp_gpu_fit f;
	char why[512];
	if (sssp_plan_create(&view, &o, &plan, why, sizeof(why)) < 0)
		FAIL("sssp_plan_create(betweenness): %s", why);
	ASSERT_EQ(sssp_plan_engine(plan), SSSP_ENGINE_DIAL_BRANDES);
	ASSERT_OK(sssp_plan_fit_gpu(plan, 1, 0, 0, 0, &f));
	uint64_t need = f.need;
	o.engine = SSSP_ENGINE_BATCHED;
	if (sssp_plan_create(&view, &o, &brandes, why, sizeof(why)) < 0)
		FAIL("sssp_plan_create(batched): %s", why);
	ASSERT_OK(sssp_plan_fit_gpu(brandes, 1, 0, 0, 0, &f));
	uint64_t brandes_need = f.need;
	sssp_plan_free(brandes);
	ASSERT(brandes_need < need); /* the premise: one batch of brandes fits where dial-brandes' does not */
	ASSERT_OK(sssp_plan_fit_gpu(plan, 0, 0, brandes_need, 0, &f));
	ASSERT_EQ(sssp_plan_engine(plan), SSSP_ENGINE_BRANDES);
	ASSERT_EQ(sssp_plan_uses_cuda(plan), 1);
	ASSERT_STR_CONTAINS(sssp_plan_reason(plan), "dial-brandes would need");
	if (tuccompi_rank() == 0)
		printf("dial-brandes too large for the GPU: %s (%s)\n", sssp_engine_name(sssp_plan_engine(plan)),
		       sssp_plan_reason(plan));
	sssp_plan_free(plan);
}

/* Weights of 1..64 from @p g's by a rule that keeps ties: w -> 1 or 64. */
static void two_weights(struct graph *g)
{
	for (uint64_t e = 0; e < g->m; e++)
		g->w[e] = g->w[e] % 2 ? 1 : 64;
	g->max_w = 64;
}

int main(int argc, char **argv)
{
	int gpu = argc > 1 && !strcmp(argv[1], "--gpu");
	if (gpu && !sssp_have_cuda())
	{
		fprintf(stderr, "built without CUDA: skipped\n");
		return TEST_SKIP;
	}
	struct graph g = { 0 };
	struct graph_error err;
	if (!gpu)
	{
		ASSERT_OK(graph_gen_grid(14, 14, 1, 1, 1, &g, &err));
		check_cpu("grid 14x14, unit weights", &g);
		check_replica("grid 14x14, unit weights", &g);
		graph_free(&g);
		ASSERT_OK(graph_gen_grid(3, 60, 1, 1, 1, &g, &err));
		check_cpu("grid 3x60, unit weights", &g);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(240, 1, 3, 1, 10, 3, &g, &err));
		check_cpu("random 240, out-degrees 1-3, weights 1-10", &g);
		check_replica("random 240, out-degrees 1-3, weights 1-10", &g);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(700, 1, 6, 1, 2, 5, &g, &err));
		two_weights(&g);
		check_cpu("random 700, weights 1 and 64", &g);
		check_replica("random 700, weights 1 and 64", &g);
		graph_free(&g);
		bc_two_parts_graph(&g);
		check_cpu("two grids, one-way arcs between them", &g);
		check_replica("two grids, one-way arcs between them", &g);
		graph_free(&g);
		bc_hub_graph(&g, 600);
		check_cpu("a hub of 600 arcs each way", &g);
		check_replica("a hub of 600 arcs each way", &g);
		graph_free(&g);
		ASSERT_OK(graph_gen_rmat(9, 8, 0.57, 0.19, 0.19, 1, 4, 2, &g, &err));
		check_cpu("R-MAT 9, weights 1-4", &g);
		check_replica("R-MAT 9, weights 1-4", &g);
		graph_free(&g);
	}
	struct tuccompi_conf conf;
	tuccompi_conf_init(&conf);
	conf.quiet = 1;
	conf.ncpus = gpu ? 1 : 2;
	conf.mk = 2;
	int ret = tuccompi_init(&argc, &argv, &conf);
	if (ret == -ENODEV)
		return TEST_SKIP;
	ASSERT_OK(ret);
	if (gpu && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) == 0)
	{
		fprintf(stderr, "no GPU: skipped\n");
		tuccompi_finalize();
		return TEST_SKIP;
	}
	ASSERT_OK(graph_gen_grid(14, 14, 1, 1, 1, &g, &err));
	check_engine("grid 14x14, unit weights", &g, gpu, 0);
	graph_free(&g);
	ASSERT_OK(graph_gen_grid(3, 60, 1, 1, 1, &g, &err));
	check_engine("grid 3x60, unit weights", &g, gpu, 0); /* batches overflow their log: narrower ones */
	graph_free(&g);
	ASSERT_OK(graph_gen_random(700, 1, 6, 1, 2, 5, &g, &err));
	two_weights(&g);
	check_engine("random 700, weights 1 and 64", &g, gpu, 0);
	graph_free(&g);
	bc_two_parts_graph(&g);
	check_engine("two grids, one-way arcs between them", &g, gpu, 0);
	graph_free(&g);
	bc_hub_graph(&g, 600);
	check_engine("a hub of 600 arcs each way", &g, gpu, 0);
	graph_free(&g);
	ASSERT_OK(graph_gen_rmat(9, 16, 0.57, 0.19, 0.19, 1, 4, 2, &g, &err));
	check_engine("R-MAT 9, edge factor 16, weights 1-4 (the CPU units by levels)", &g, gpu, !gpu);
	check_choice("R-MAT 9, auto", &g, SSSP_ENGINE_AUTO, SSSP_ENGINE_DIAL_BRANDES, "auto: dial-brandes (shallow graph", 2);
	if (sssp_have_cuda())
		check_fit(&g);
	graph_free(&g);
	if (!gpu)
	{
		ASSERT_OK(graph_gen_grid(1, 300, 1, 3, 2, &g, &err));
		check_choice("a path of 300, auto", &g, SSSP_ENGINE_AUTO, SSSP_ENGINE_BRANDES, "auto: brandes (a deep graph", 4);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(300, 1, 4, 1, 200, 2, &g, &err));
		check_choice("weights up to 200, auto", &g, SSSP_ENGINE_AUTO, SSSP_ENGINE_BRANDES, "arcs up to weight", 1);
		check_choice("weights up to 200, --engine dial", &g, SSSP_ENGINE_DIAL, SSSP_ENGINE_BRANDES,
			     "betweenness on the brandes engine: the dial engine does not take this graph", 2);
		graph_free(&g);
		ASSERT_OK(graph_gen_random(300, 1, 4, 0, 5, 2, &g, &err));
		check_choice("weights 0-5, auto", &g, SSSP_ENGINE_AUTO, SSSP_ENGINE_BRANDES, "arcs of weight 0", 1);
		graph_free(&g);
	}
	ASSERT_OK(tuccompi_finalize());
	return 0;
}
