/* The batched GPU SSSP engine's algorithm (codelets/sssp/batched/batch_gpu.cu), run as a sequential C
 * model of the same state machine, against the reference Dijkstra (tests/apsp/sssp_ref.h).
 *
 * The model keeps the kernel's data (dist[v][32 or 64 lanes], frontier masks and lists F/L[2], far
 * pile FM with lists FL[2], chunk queue Q, in-chunks HP, the counters) and its steps (PROLOGUE, PUSH,
 * PUSHB, PULL, CLEAR, RAISE), and takes every decision between steps with the kernel's own
 * control code (batch_gpu_logic.h). A warp's item (a frontier vertex, a chunk, a far vertex) is
 * done in one go; the items of a step run in a shuffled order, one of the interleavings the GPU
 * may take. Between steps it checks the invariants the kernel relies on (the next frontier is
 * empty, lists are duplicate-free and match their masks, near pairs lie below the threshold,
 * the far lists match the far masks, capacities; a PULL's light vertex, whose row and mask the kernel
 * stores without atomics, has a clear next-frontier mask when its item runs), and at the end that no
 * mask is left and that the distances are a fixpoint and equal the reference's, lane by lane.
 *
 * Graphs: random, R-MAT (hubs), grid, zero-weight cycles with unreachable and isolated vertices,
 * a chain of 1,000,000-weight arcs (distances past SSSP_DIST_LIMIT: overflow), zero-heavy weights,
 * n < 32 and n = 1. Lanes 32 (sources: 32 with repeats, 7, 1) and 64 (64 with repeats, 33, 1).
 * Deltas 0, 1, 7, the rule's, 10^6; pull never,
 * at n/10, always; arc chunks of 64 and of 2 (every vertex of degree > 2 is cut into chunks); the
 * dense/sparse split of PUSH at its default, all dense and all sparse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batched/batch_gpu.h"
#include "common/depth.h"
#include "batched/batch_gpu_logic.h"
#include "graph.h"
#include "sssp_ref.h"
#include "testutil.h"

#define LMAX SSSP_BATCH_LANES /* the widest traversal */

struct model
{
	const struct graph *g;
	const uint64_t *in_rowptr;
	const uint32_t *in_col, *in_w;
	uint32_t n, chunk, sparse_popc;
	uint32_t lanes; /* sources per traversal: 32 or 64; dist rows have this many slots */
	struct sssp_batch_cfg cfg;
	uint32_t *dist, *L[2], *FL[2], *Qv, *Qc, *HPv, *HPc;
	uint64_t *F[2], *FM, *Qm; /* masks: bit l = lane (source) l */
	uint32_t cnt[SSSP_BATCH_CNT(SSSP_BATCH_NCOUNTERS)];
	struct sssp_batch_ctl ctl;
	uint32_t *perm; /* item order of a step */
	uint64_t rng;
};

#define CNT(m, i) ((m)->cnt[SSSP_BATCH_CNT(i)])

/* A shuffled order of k items (k <= 2n + n). */
static const uint32_t *order(struct model *m, uint64_t k)
{
	for (uint64_t i = 0; i < k; i++)
		m->perm[i] = (uint32_t)i;
	for (uint64_t i = k; i > 1; i--)
	{
		uint64_t j = test_splitmix(&m->rng) % i;
		uint32_t t = m->perm[i - 1];
		m->perm[i - 1] = m->perm[j];
		m->perm[j] = t;
	}
	return m->perm;
}

static void append(struct model *m, uint32_t *list, int counter, uint32_t v)
{
	uint32_t at = CNT(m, counter)++;
	if (at >= m->n)
		FAIL("list of counter %d overflows (%u entries, n = %u)", counter, at + 1, m->n);
	list[at] = v;
}

/* What update_warp / update_thread do for one (target, lane) with candidate nd; far_fr is the
 * far list being filled. */
static void update(struct model *m, uint64_t *Fn, int near_counter, uint32_t *near_list, uint32_t far_fr, uint32_t t,
		   uint32_t l, uint32_t nd)
{
	uint32_t *d = &m->dist[(size_t)t * m->lanes + l];
	if (nd == SSSP_BATCH_INF || nd >= *d)
		return;
	*d = nd;
	if (nd < m->ctl.T)
	{
		CNT(m, SSSP_BATCH_C_NP)++;
		uint64_t old = Fn[t];
		Fn[t] |= 1ull << l;
		if (!old)
			append(m, near_list, near_counter, t);
	}
	else
	{
		uint64_t old = m->FM[t];
		m->FM[t] |= 1ull << l;
		if (!old)
			append(m, m->FL[far_fr], SSSP_BATCH_C_FL0 + far_fr, t);
		if (nd < CNT(m, SSSP_BATCH_C_FMIN0 + far_fr))
			CNT(m, SSSP_BATCH_C_FMIN0 + far_fr) = nd;
	}
}

/* relax_warp / relax_thread: the lanes of mask mk of v over arcs [b, e), each lane's distance
 * read once before its arcs. */
static void relax(struct model *m, uint32_t v, uint64_t mk, uint64_t b, uint64_t e)
{
	uint32_t p = m->ctl.p;
	uint64_t *Fn = m->F[p ^ 1];
	for (uint32_t l = 0; l < m->lanes; l++)
	{
		if (!((mk >> l) & 1))
			continue;
		uint32_t d = m->dist[(size_t)v * m->lanes + l];
		if (d == SSSP_BATCH_INF)
			continue;
		for (uint64_t a = b; a < e; a++)
			update(m, Fn, SSSP_BATCH_C_L0 + (p ^ 1), m->L[p ^ 1], m->ctl.fr, m->g->col[a],
			       l, sssp_batch_sat(d, m->g->w[a]));
	}
}

/* PUSH: the kernel's warps take the frontier list 32 entries at a time. Sparse vertices
 * (<= sparse_popc lanes) are relaxed at once; dense ones too when the group has at most
 * SSSP_BATCH_INLINE_DENSE of them or the frontier is sparse on average (ctl.defer = 0), else they
 * become one chunk record each; heavy ones (degree > C)
 * one record per chunk; records are expanded by PUSHB. */
static void step_push(struct model *m)
{
	uint32_t p = m->ctl.p, ngroups = (m->ctl.n_cur + 31) / 32;
	const uint32_t *ord = order(m, ngroups);
	uint32_t *grp = malloc(ngroups * sizeof(uint32_t));
	ASSERT(grp);
	memcpy(grp, ord, ngroups * sizeof(uint32_t)); /* relax() does not shuffle, but keep it safe */
	for (uint32_t gi = 0; gi < ngroups; gi++)
	{
		uint32_t g0 = grp[gi] * 32, g1 = g0 + 32 < m->ctl.n_cur ? g0 + 32 : m->ctl.n_cur;
		uint32_t vs[32], ndense = 0;
		uint64_t ms[32];
		for (uint32_t i = g0; i < g1; i++)
		{
			uint32_t v = m->L[p][i];
			vs[i - g0] = v;
			ms[i - g0] = m->F[p][v];
			m->F[p][v] = 0;
			uint64_t deg = m->g->rowptr[v + 1] - m->g->rowptr[v];
			if (deg && ms[i - g0] && deg <= m->chunk && (uint32_t)__builtin_popcountll(ms[i - g0]) > m->sparse_popc)
				ndense++;
		}
		int defer = m->ctl.defer && ndense > SSSP_BATCH_INLINE_DENSE;
		for (uint32_t k = 0; k < g1 - g0; k++)
		{
			uint32_t v = vs[k];
			uint64_t mk = ms[k];
			uint64_t b = m->g->rowptr[v], deg = m->g->rowptr[v + 1] - b;
			if (!deg || !mk)
				continue;
			int heavy = deg > m->chunk, dense = !heavy && (uint32_t)__builtin_popcountll(mk) > m->sparse_popc;
			if (heavy || (dense && defer))
			{
				uint32_t nc = heavy ? sssp_batch_nchunks(deg, m->chunk) : 1;
				uint32_t at = CNT(m, SSSP_BATCH_C_Q);
				if ((uint64_t)at + nc > 2ull * m->n)
					FAIL("chunk queue overflows: %u + %u records, capacity %u", at, nc, 2 * m->n);
				for (uint32_t c = 0; c < nc; c++)
				{
					m->Qv[at + c] = v;
					m->Qm[at + c] = mk;
					m->Qc[at + c] = c;
				}
				CNT(m, SSSP_BATCH_C_Q) = at + nc;
				continue;
			}
			relax(m, v, mk, b, b + deg);
		}
	}
	free(grp);
}

static void step_pushb(struct model *m)
{
	const uint32_t *ord = order(m, m->ctl.n_q);
	for (uint32_t k = 0; k < m->ctl.n_q; k++)
	{
		uint32_t r = ord[k], v = m->Qv[r];
		uint64_t b = m->g->rowptr[v] + (uint64_t)m->Qc[r] * m->chunk, e = m->g->rowptr[v + 1];
		if (b + m->chunk < e)
			e = b + m->chunk;
		relax(m, v, m->Qm[r], b, e);
	}
}

/* The candidates d(u) + w over in-arcs [ib, ie) of a vertex from the tails' frontier lanes. */
static void pull_gather(struct model *m, uint64_t ib, uint64_t ie, uint32_t *cand)
{
	const uint64_t *Fc = m->F[m->ctl.p];
	for (uint32_t l = 0; l < m->lanes; l++)
		cand[l] = SSSP_BATCH_INF;
	for (uint64_t a = ib; a < ie; a++)
	{
		uint32_t u = m->in_col[a];
		uint64_t mk = Fc[u];
		for (uint32_t l = 0; l < m->lanes; l++)
			if ((mk >> l) & 1)
			{
				uint32_t c = sssp_batch_sat(m->dist[(size_t)u * m->lanes + l], m->in_w[a]);
				if (c < cand[l])
					cand[l] = c;
			}
	}
}

/* A light vertex of a PULL group without heavy vertices: the kernel's warp is the only writer of
 * v's row and next-frontier mask in the step and stores them (no atomicMin, no atomicOr, no
 * read-back), which is right only while F[p^1][v] is still clear when the item runs. */
static void pull_store(struct model *m, uint32_t v, const uint32_t *cand)
{
	uint32_t p = m->ctl.p, fr = m->ctl.fr;
	uint64_t nb = 0, fb = 0;
	if (m->F[p ^ 1][v])
		FAIL("PULL: light vertex %u has next-frontier mask %#llx before its item stores it", v,
		     (unsigned long long)m->F[p ^ 1][v]);
	for (uint32_t l = 0; l < m->lanes; l++)
	{
		uint32_t *d = &m->dist[(size_t)v * m->lanes + l];
		if (cand[l] >= *d)
			continue;
		*d = cand[l];
		if (cand[l] < m->ctl.T)
		{
			nb |= 1ull << l;
			CNT(m, SSSP_BATCH_C_NP)++;
		}
		else
		{
			fb |= 1ull << l;
			if (cand[l] < CNT(m, SSSP_BATCH_C_FMIN0 + fr))
				CNT(m, SSSP_BATCH_C_FMIN0 + fr) = cand[l];
		}
	}
	if (nb)
	{
		m->F[p ^ 1][v] = nb;
		append(m, m->L[p ^ 1], SSSP_BATCH_C_L0 + (p ^ 1), v);
	}
	if (fb)
	{
		uint64_t old = m->FM[v];
		m->FM[v] |= fb;
		if (!old)
			append(m, m->FL[fr], SSSP_BATCH_C_FL0 + fr, v);
	}
}

/* PULL: items are groups of SSSP_BATCH_PULL_GROUP consecutive vertices, then the in-chunks of the
 * heavy vertices (in-degree > C), in a shuffled order. A group without heavy vertices stores its
 * vertices' rows (pull_store); in a group with one, the light vertices lower their rows with
 * atomics like the in-chunks (update()). */
static void step_pull(struct model *m)
{
	uint32_t p = m->ctl.p, cand[LMAX];
	uint64_t ngroups = ((uint64_t)m->n + SSSP_BATCH_PULL_GROUP - 1) / SSSP_BATCH_PULL_GROUP;
	uint64_t total = ngroups + m->ctl.n_hp;
	const uint32_t *ord = order(m, total);
	for (uint64_t k = 0; k < total; k++)
	{
		uint64_t it = ord[k];
		if (it < ngroups)
		{
			uint32_t v0 = (uint32_t)(it * SSSP_BATCH_PULL_GROUP);
			uint32_t cnt = m->n - v0 < SSSP_BATCH_PULL_GROUP ? m->n - v0 : SSSP_BATCH_PULL_GROUP;
			int heavy = 0;
			for (uint32_t i = 0; i < cnt; i++)
				heavy |= m->in_rowptr[v0 + i + 1] - m->in_rowptr[v0 + i] > m->chunk;
			for (uint32_t i = 0; i < cnt; i++)
			{
				uint32_t v = v0 + i;
				uint64_t ib = m->in_rowptr[v], ie = m->in_rowptr[v + 1];
				if (ie - ib > m->chunk)
					continue; /* its in-chunks do it */
				pull_gather(m, ib, ie, cand);
				if (!heavy)
					pull_store(m, v, cand);
				else
					for (uint32_t l = 0; l < m->lanes; l++)
						update(m, m->F[p ^ 1], SSSP_BATCH_C_L0 + (p ^ 1), m->L[p ^ 1], m->ctl.fr, v, l,
						       cand[l]);
			}
			continue;
		}
		uint32_t r = (uint32_t)(it - ngroups), v = m->HPv[r];
		uint64_t ib = m->in_rowptr[v] + (uint64_t)m->HPc[r] * m->chunk, ie = m->in_rowptr[v + 1];
		if (ib + m->chunk < ie)
			ie = ib + m->chunk;
		pull_gather(m, ib, ie, cand);
		for (uint32_t l = 0; l < m->lanes; l++)
			update(m, m->F[p ^ 1], SSSP_BATCH_C_L0 + (p ^ 1), m->L[p ^ 1], m->ctl.fr, v, l, cand[l]);
	}
}

static void step_clear(struct model *m)
{
	for (uint32_t i = 0; i < m->ctl.n_cur; i++)
		m->F[m->ctl.p][m->L[m->ctl.p][i]] = 0;
}

static void step_raise(struct model *m)
{
	uint32_t p = m->ctl.p, fr = m->ctl.fr, out = fr ^ 1;
	const uint32_t *ord = order(m, m->ctl.n_far);
	for (uint32_t k = 0; k < m->ctl.n_far; k++)
	{
		uint32_t v = m->FL[fr][ord[k]];
		uint64_t bits = m->FM[v], kb = 0, mb = 0;
		for (uint32_t l = 0; l < m->lanes; l++)
		{
			if (!((bits >> l) & 1))
				continue;
			uint32_t d = m->dist[(size_t)v * m->lanes + l];
			int cls = sssp_batch_raise_class(d, m->ctl.T_old, m->ctl.T);
			if (cls == SSSP_BATCH_KEEP)
			{
				kb |= 1ull << l;
				if (d < CNT(m, SSSP_BATCH_C_FMIN0 + out))
					CNT(m, SSSP_BATCH_C_FMIN0 + out) = d;
			}
			else if (cls == SSSP_BATCH_MOVE)
				mb |= 1ull << l;
		}
		m->FM[v] = kb;
		if (kb)
			append(m, m->FL[out], SSSP_BATCH_C_FL0 + out, v);
		if (mb)
		{
			CNT(m, SSSP_BATCH_C_NP) += (uint32_t)__builtin_popcountll(mb);
			if (m->F[p ^ 1][v])
				FAIL("RAISE: vertex %u already in the next frontier", v);
			m->F[p ^ 1][v] = mb;
			append(m, m->L[p ^ 1], SSSP_BATCH_C_L0 + (p ^ 1), v);
		}
	}
}

static void prologue(struct model *m, const uint32_t *src, unsigned nsrc)
{
	uint32_t c = 0;
	for (unsigned i = 0; i < nsrc; i++)
	{
		uint32_t s = src[i];
		uint64_t old = m->F[0][s];
		m->dist[(size_t)s * m->lanes + i] = 0;
		m->F[0][s] = old | (1ull << i);
		if (!old)
			m->L[0][c++] = s;
	}
	CNT(m, SSSP_BATCH_C_L0) = c;
	if (!m->cfg.pull_div)
		return;
	for (uint32_t v = 0; v < m->n; v++)
	{
		uint64_t deg = m->in_rowptr[v + 1] - m->in_rowptr[v];
		if (deg > m->chunk)
		{
			uint32_t k = sssp_batch_nchunks(deg, m->chunk), at = CNT(m, SSSP_BATCH_C_HP);
			if ((uint64_t)at + k > 2ull * m->n)
				FAIL("in-chunk list overflows: %u + %u records, capacity %u", at, k, 2 * m->n);
			for (uint32_t j = 0; j < k; j++)
			{
				m->HPv[at + j] = v;
				m->HPc[at + j] = j;
			}
			CNT(m, SSSP_BATCH_C_HP) = at + k;
		}
	}
}

/* Invariants before a step. */
static void check_state(struct model *m)
{
	const struct sssp_batch_ctl *c = &m->ctl;
	uint32_t p = c->p, n = m->n;
	if (c->mode == SSSP_BATCH_PUSH || c->mode == SSSP_BATCH_PULL || c->mode == SSSP_BATCH_RAISE)
	{
		ASSERT_EQ(CNT(m, SSSP_BATCH_C_L0 + (p ^ 1)), 0);
		for (uint32_t v = 0; v < n; v++)
			if (m->F[p ^ 1][v])
				FAIL("step %u: next frontier mask of %u is %#llx, not 0", c->steps, v,
				     (unsigned long long)m->F[p ^ 1][v]);
	}
	if (c->mode == SSSP_BATCH_PUSH || c->mode == SSSP_BATCH_PULL)
	{
		ASSERT_EQ(c->n_cur, CNT(m, SSSP_BATCH_C_L0 + p));
		uint32_t listed = 0;
		char *seen = calloc(n, 1);
		ASSERT(seen);
		for (uint32_t i = 0; i < c->n_cur; i++)
		{
			uint32_t v = m->L[p][i];
			ASSERT(v < n);
			if (seen[v]++)
				FAIL("step %u: vertex %u twice in the frontier list", c->steps, v);
			if (!m->F[p][v])
				FAIL("step %u: listed vertex %u has an empty mask", c->steps, v);
			for (uint32_t l = 0; l < m->lanes; l++)
				if ((m->F[p][v] >> l) & 1 && m->dist[(size_t)v * m->lanes + l] >= c->T)
					FAIL("step %u: near pair (%u, %u) at %u is not below T = %u", c->steps, v, l,
					     m->dist[(size_t)v * m->lanes + l], c->T);
		}
		for (uint32_t v = 0; v < n; v++)
			listed += m->F[p][v] != 0;
		if (listed != c->n_cur)
			FAIL("step %u: %u non-zero masks, %u listed", c->steps, listed, c->n_cur);
		free(seen);
	}
	if (c->mode == SSSP_BATCH_RAISE || c->mode == SSSP_BATCH_DONE)
	{
		/* FM[v] != 0 exactly for the vertices of the far list being filled */
		uint32_t fr = c->fr, nf = CNT(m, SSSP_BATCH_C_FL0 + fr), nz = 0;
		for (uint32_t v = 0; v < n; v++)
			nz += m->FM[v] != 0;
		for (uint32_t i = 0; i < nf; i++)
			if (!m->FM[m->FL[fr][i]])
				FAIL("step %u: far-listed vertex %u has no far lanes", c->steps, m->FL[fr][i]);
		if (nz != nf)
			FAIL("step %u: %u vertices with far lanes, %u far-listed", c->steps, nz, nf);
		ASSERT_EQ(CNT(m, SSSP_BATCH_C_FL0 + (fr ^ 1)), 0);
		ASSERT_EQ(CNT(m, SSSP_BATCH_C_FMIN0 + (fr ^ 1)), SSSP_BATCH_INF);
		if (c->mode == SSSP_BATCH_RAISE && c->T <= c->T_old)
			FAIL("step %u: threshold does not grow (%u -> %u)", c->steps, c->T_old, c->T);
	}
}

struct run_opts
{
	uint32_t delta, pull_div, chunk_min, sparse_popc;
	uint64_t seed;
	uint32_t lanes; /* 32 or 64 */
};

/* Runs the model; fills dist_out (n x o->lanes, lane-major per vertex) and the control block. */
static void model_run(const struct graph *g, const uint64_t *irp, const uint32_t *icol, const uint32_t *iw,
		      const uint32_t *src, unsigned nsrc, const struct run_opts *o, uint32_t *dist_out,
		      struct sssp_batch_ctl *ctl_out)
{
	struct model m;
	memset(&m, 0, sizeof(m));
	uint32_t n = g->n;
	m.g = g;
	m.in_rowptr = irp;
	m.in_col = icol;
	m.in_w = iw;
	m.n = n;
	m.chunk = sssp_batch_chunk(n, g->m, o->chunk_min);
	m.sparse_popc = o->sparse_popc;
	m.lanes = o->lanes;
	ASSERT(m.lanes == 32 || m.lanes == 64);
	ASSERT(nsrc >= 1 && nsrc <= m.lanes);
	m.cfg.n = n;
	m.cfg.delta = o->delta;
	m.cfg.pull_div = o->pull_div;
	m.cfg.pull_density = o->pull_div == 0xffffffffu ? 0 : SSSP_BATCH_PULL_DENSITY; /* "always" means always */
	m.rng = o->seed;
	m.dist = dist_out;
	for (size_t i = 0; i < (size_t)n * m.lanes; i++)
		m.dist[i] = SSSP_BATCH_INF;
	uint32_t **arrays[] = { &m.L[0], &m.L[1], &m.FL[0], &m.FL[1] };
	for (unsigned i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
		ASSERT((*arrays[i] = calloc(n, sizeof(uint32_t))) != NULL);
	uint32_t **arrays2[] = { &m.Qv, &m.Qc, &m.HPv, &m.HPc };
	for (unsigned i = 0; i < sizeof(arrays2) / sizeof(arrays2[0]); i++)
		ASSERT((*arrays2[i] = calloc(2 * (size_t)n, sizeof(uint32_t))) != NULL);
	uint64_t **masks[] = { &m.F[0], &m.F[1], &m.FM };
	for (unsigned i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
		ASSERT((*masks[i] = calloc(n, sizeof(uint64_t))) != NULL);
	ASSERT((m.Qm = calloc(2 * (size_t)n, sizeof(uint64_t))) != NULL);
	ASSERT((m.perm = malloc(3 * (size_t)n * sizeof(uint32_t))) != NULL);
	/* what batch_init does */
	CNT(&m, SSSP_BATCH_C_FMIN0) = CNT(&m, SSSP_BATCH_C_FMIN1) = SSSP_BATCH_INF;
	m.ctl.mode = SSSP_BATCH_PROLOGUE;
	m.ctl.T = m.ctl.T_old = o->delta ? o->delta : SSSP_BATCH_INF;

	prologue(&m, src, nsrc);
	for (;;)
	{
		/* the kernel's last block to reach the barrier: load, decide, store */
		uint32_t c[SSSP_BATCH_NCTL];
		for (int i = 0; i < SSSP_BATCH_NCTL; i++)
			c[i] = CNT(&m, i);
		sssp_batch_control(&m.ctl, c, &m.cfg);
		for (int i = 0; i < SSSP_BATCH_NCTL; i++)
			CNT(&m, i) = c[i];
		check_state(&m);
		if (m.ctl.mode == SSSP_BATCH_DONE)
			break;
		if (m.ctl.steps > 50u * n + 1000)
			FAIL("no end after %u steps", m.ctl.steps);
		switch (m.ctl.mode)
		{
		case SSSP_BATCH_PUSH:
			step_push(&m);
			break;
		case SSSP_BATCH_PUSHB:
			step_pushb(&m);
			break;
		case SSSP_BATCH_PULL:
			step_pull(&m);
			break;
		case SSSP_BATCH_CLEAR:
			step_clear(&m);
			break;
		case SSSP_BATCH_RAISE:
			step_raise(&m);
			break;
		default:
			FAIL("unknown step %u", m.ctl.mode);
		}
	}
	for (uint32_t v = 0; v < n; v++)
		if (m.F[0][v] || m.F[1][v] || m.FM[v])
			FAIL("at the end vertex %u still has masks %#llx %#llx far %#llx", v, (unsigned long long)m.F[0][v],
			     (unsigned long long)m.F[1][v], (unsigned long long)m.FM[v]);
	/* fixpoint: no arc can lower a distance */
	for (uint32_t u = 0; u < n; u++)
		for (uint64_t a = g->rowptr[u]; a < g->rowptr[u + 1]; a++)
			for (uint32_t l = 0; l < m.lanes; l++)
				if (sssp_batch_sat(m.dist[(size_t)u * m.lanes + l], g->w[a]) <
				    m.dist[(size_t)g->col[a] * m.lanes + l])
					FAIL("arc %u->%u still relaxes lane %u", u, g->col[a], l);
	*ctl_out = m.ctl;
	for (unsigned i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++)
		free(*arrays[i]);
	for (unsigned i = 0; i < sizeof(arrays2) / sizeof(arrays2[0]); i++)
		free(*arrays2[i]);
	for (unsigned i = 0; i < sizeof(masks) / sizeof(masks[0]); i++)
		free(*masks[i]);
	free(m.Qm);
	free(m.perm);
}

/* ------------------------------------------------------------------ cases */

struct gcase
{
	const char *name;
	struct graph g;
	uint64_t *irp;
	uint32_t *icol, *iw;
	uint32_t rule;
	uint32_t **ref; /* per vertex: reference row, computed on demand */
};

static void gcase_prepare(struct gcase *c)
{
	struct sssp_graph v = { c->g.n, c->g.m, c->g.rowptr, c->g.col, c->g.w, c->g.min_out, c->g.max_w };
	c->irp = malloc(((size_t)c->g.n + 1) * sizeof(uint64_t));
	c->icol = malloc((c->g.m ? c->g.m : 1) * sizeof(uint32_t));
	c->iw = malloc((c->g.m ? c->g.m : 1) * sizeof(uint32_t));
	c->ref = calloc(c->g.n, sizeof(uint32_t *));
	ASSERT(c->irp && c->icol && c->iw && c->ref);
	sssp_transpose(&v, c->irp, c->icol, c->iw);
	/* the transpose holds every arc once, reversed */
	ASSERT_EQ(c->irp[c->g.n], c->g.m);
	for (uint32_t t = 0; t < c->g.n; t++)
		for (uint64_t a = c->irp[t]; a < c->irp[t + 1]; a++)
		{
			uint32_t u = c->icol[a];
			int found = 0;
			for (uint64_t b = c->g.rowptr[u]; b < c->g.rowptr[u + 1] && !found; b++)
				found = c->g.col[b] == t && c->g.w[b] == c->iw[a];
			if (!found)
				FAIL("%s: in-arc %u->%u (w %u) is not an out-arc", c->name, u, t, c->iw[a]);
		}
	c->rule = sssp_depth_rule(&v);
}

static const uint32_t *ref_row(struct gcase *c, uint32_t s)
{
	if (!c->ref[s])
	{
		ASSERT((c->ref[s] = malloc((size_t)c->g.n * sizeof(uint32_t))) != NULL);
		sssp_ref(&c->g, s, c->ref[s]);
	}
	return c->ref[s];
}

static void gcase_free(struct gcase *c)
{
	for (uint32_t v = 0; v < c->g.n; v++)
		free(c->ref[v]);
	free(c->ref);
	free(c->irp);
	free(c->icol);
	free(c->iw);
	graph_free(&c->g);
}

static struct graph from_arcs(uint32_t n, uint64_t m, const uint32_t *s, const uint32_t *d, const uint32_t *w)
{
	struct graph g;
	struct graph_error err;
	memset(&g, 0, sizeof(g));
	if (graph_from_arcs(n, m, s, d, w, &g, &err) < 0)
		FAIL("graph_from_arcs: %s", err.msg);
	return g;
}

static uint64_t total_runs, total_pairs;
static uint32_t seen_modes[SSSP_BATCH_DONE + 1];

static void check_run(struct gcase *c, const uint32_t *src, unsigned nsrc, const struct run_opts *o)
{
	uint32_t n = c->g.n, L = o->lanes;
	uint32_t *dist = malloc((size_t)n * L * sizeof(uint32_t));
	ASSERT(dist);
	struct sssp_batch_ctl ctl;
	model_run(&c->g, c->irp, c->icol, c->iw, src, nsrc, o, dist, &ctl);
	for (unsigned l = 0; l < L; l++)
	{
		if (l >= nsrc)
		{
			for (uint32_t v = 0; v < n; v++)
				if (dist[(size_t)v * L + l] != SSSP_INF)
					FAIL("%s, %u lanes: unused lane %u reached vertex %u", c->name, L, l, v);
			continue;
		}
		const uint32_t *ref = ref_row(c, src[l]);
		for (uint32_t v = 0; v < n; v++)
			if (dist[(size_t)v * L + l] != ref[v])
				FAIL("%s, %u lanes, delta %u, pull_div %u, chunk_min %u, %u sources: lane %u (source %u) vertex "
				     "%u: %u, reference %u",
				     c->name, L, o->delta, o->pull_div, o->chunk_min, nsrc, l, src[l], v,
				     dist[(size_t)v * L + l], ref[v]);
		total_pairs += n;
	}
	if (!o->delta)
		ASSERT_EQ(ctl.raise, 0);
	if (!o->pull_div)
		ASSERT_EQ(ctl.pull, 0);
	ASSERT_EQ(ctl.steps, ctl.push + ctl.pushb + ctl.pull + ctl.clear + ctl.raise);
	ASSERT_EQ(ctl.clear, ctl.pull);
	seen_modes[SSSP_BATCH_PUSH] += ctl.push;
	seen_modes[SSSP_BATCH_PUSHB] += ctl.pushb;
	seen_modes[SSSP_BATCH_PULL] += ctl.pull;
	seen_modes[SSSP_BATCH_RAISE] += ctl.raise;
	total_runs++;
	free(dist);
}

static void sources(uint32_t n, unsigned k, uint64_t seed, uint32_t *src)
{
	for (unsigned i = 0; i < k; i++)
		src[i] = (uint32_t)(test_splitmix(&seed) % n);
	if (k > 5)
		src[5] = src[2]; /* a repeated source */
	if (k >= 32)
		src[31] = src[0];
	if (k > 40)
		src[40] = src[31], src[k - 1] = src[7]; /* repeats across the two halves of a 64-lane row */
}

static void run_case(struct gcase *c, int full)
{
	gcase_prepare(c);
	uint32_t deltas[] = { 0, 1, 7, c->rule, 1000000 };
	uint32_t pulls[] = { 0, SSSP_BATCH_PULL_DIV, 0xffffffffu };
	uint32_t chunks[] = { SSSP_BATCH_CHUNK_MIN, 2 };
	uint32_t s32[32], s7[7], s1[1], s64[64], s33[33];
	sources(c->g.n, 32, 11, s32);
	sources(c->g.n, 7, 12, s7);
	sources(c->g.n, 1, 13, s1);
	sources(c->g.n, 64, 14, s64);
	sources(c->g.n, 33, 15, s33);
	uint64_t seed = 1;
	for (unsigned d = 0; d < 5; d++)
		for (unsigned p = 0; p < 3; p++)
			for (unsigned k = 0; k < 2; k++)
			{
				/* dense/sparse split: the default, all dense, all sparse */
				uint32_t sparse = seed % 3 == 0 ? SSSP_BATCH_SPARSE_POPC : seed % 3 == 1 ? 0 : LMAX;
				struct run_opts o = { deltas[d], pulls[p], chunks[k], sparse, seed++, 32 };
				check_run(c, s32, 32, &o);
				int more = full || (d == 0 && k == 0) || (d == 3 && p == 1);
				if (more)
				{
					check_run(c, s7, 7, &o);
					check_run(c, s1, 1, &o);
				}
				o.lanes = 64;
				check_run(c, s64, 64, &o);
				if (more)
				{
					check_run(c, s33, 33, &o);
					check_run(c, s1, 1, &o);
				}
			}
	printf("%-12s n %6u m %7llu rule delta %u: ok\n", c->name, c->g.n, (unsigned long long)c->g.m, c->rule);
}

int main(void)
{
	struct graph_error err;
	struct gcase c;

	memset(&c, 0, sizeof(c));
	c.name = "random";
	if (graph_gen_random(3000, 1, 9, 1, 10, 1, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, 0);
	ASSERT_EQ(c.rule, 0); /* low diameter */
	gcase_free(&c);

	memset(&c, 0, sizeof(c));
	c.name = "rmat";
	if (graph_gen_rmat(10, 16, 0.57, 0.19, 0.19, 1, 10, 2, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, 0);
	gcase_free(&c);

	memset(&c, 0, sizeof(c));
	c.name = "grid";
	if (graph_gen_grid(40, 50, 1, 10, 3, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, 0);
	ASSERT(c.rule > 0); /* 88 levels: buckets */
	gcase_free(&c);

	memset(&c, 0, sizeof(c));
	c.name = "zero-weight";
	if (graph_gen_random(500, 1, 5, 0, 3, 4, &c.g, &err) < 0)
		FAIL("%s", err.msg);
	run_case(&c, 0);
	gcase_free(&c);

	{
		/* zero-weight cycles, a vertex only reachable through them, an unreachable tail
		 * (7 -> 0), an isolated vertex (8) */
		uint32_t s[] = { 0, 1, 2, 2, 3, 4, 4, 5, 7 };
		uint32_t d[] = { 1, 2, 0, 3, 4, 3, 5, 6, 0 };
		uint32_t w[] = { 0, 0, 0, 5, 0, 0, 1000000, 0, 1 };
		memset(&c, 0, sizeof(c));
		c.name = "hand-made";
		c.g = from_arcs(9, 9, s, d, w);
		run_case(&c, 1);
		gcase_free(&c);
	}
	{
		/* a chain of heavy arcs: distances up to 2.4e9 >= SSSP_DIST_LIMIT (still < 2^32) */
		uint32_t n = 2400;
		uint32_t *s = malloc(2 * n * sizeof(uint32_t)), *d = malloc(2 * n * sizeof(uint32_t)),
			 *w = malloc(2 * n * sizeof(uint32_t));
		ASSERT(s && d && w);
		uint64_t m = 0;
		for (uint32_t v = 0; v + 1 < n; v++)
		{
			s[m] = v, d[m] = v + 1, w[m++] = 1000000;
			s[m] = v + 1, d[m] = v, w[m++] = 999999;
		}
		memset(&c, 0, sizeof(c));
		c.name = "heavy-chain";
		c.g = from_arcs(n, m, s, d, w);
		free(s);
		free(d);
		free(w);
		gcase_prepare(&c);
		/* 64 lanes, the chain's ends in both halves of the rows */
		uint32_t src[35] = { 0, n - 1, n / 2 };
		for (unsigned i = 3; i < 35; i++)
			src[i] = i == 33 ? n - 1 : i == 34 ? 0 : n / 2 + i;
		uint32_t *dist = malloc((size_t)n * LMAX * sizeof(uint32_t));
		ASSERT(dist);
		struct sssp_batch_ctl ctl;
		struct run_opts o = { c.rule, SSSP_BATCH_PULL_DIV, SSSP_BATCH_CHUNK_MIN, SSSP_BATCH_SPARSE_POPC, 5, 64 };
		model_run(&c.g, c.irp, c.icol, c.iw, src, 35, &o, dist, &ctl);
		for (unsigned l = 0; l < 35; l++)
		{
			const uint32_t *ref = ref_row(&c, src[l]);
			struct sssp_summary got, want;
			uint32_t *row = malloc(n * sizeof(uint32_t));
			ASSERT(row);
			for (uint32_t v = 0; v < n; v++)
			{
				row[v] = dist[(size_t)v * LMAX + l];
				ASSERT_EQ(row[v], ref[v]);
			}
			sssp_summarize(row, n, src[l], &got);
			sssp_summarize(ref, n, src[l], &want);
			ASSERT_EQ(got.overflow, want.overflow);
			if (l < 3 || l >= 33)
				ASSERT_EQ(got.overflow, l != 2); /* the ends reach 2.4e9, the middle 1.2e9 */
			free(row);
		}
		free(dist);
		struct run_opts o0 = { 0, 0, 2, 0, 6, 32 };
		check_run(&c, src, 3, &o0);
		o0.lanes = 64;
		check_run(&c, src, 35, &o0);
		printf("%-12s n %6u m %7llu rule delta %u: ok (overflow flagged)\n", c.name, c.g.n,
		       (unsigned long long)c.g.m, c.rule);
		gcase_free(&c);
	}
	{
		/* n < 32: every vertex a source, several times over */
		uint32_t s[] = { 0, 1, 2, 3, 4, 2 }, d[] = { 1, 2, 3, 4, 0, 0 }, w[] = { 3, 1, 4, 1, 5, 9 };
		memset(&c, 0, sizeof(c));
		c.name = "n=5";
		c.g = from_arcs(5, 6, s, d, w);
		gcase_prepare(&c);
		uint32_t src[64];
		for (unsigned i = 0; i < 64; i++)
			src[i] = i % 5;
		for (uint32_t delta = 0; delta < 4; delta++)
			for (unsigned p = 0; p < 2; p++)
			{
				struct run_opts o = { delta, p ? 0xffffffffu : 0, 1, delta, delta * 2 + p, 32 };
				check_run(&c, src, 32, &o);
				o.lanes = 64;
				check_run(&c, src, 64, &o);
			}
		printf("%-12s ok\n", c.name);
		gcase_free(&c);
	}
	{
		memset(&c, 0, sizeof(c));
		c.name = "n=1";
		c.g = from_arcs(1, 0, NULL, NULL, NULL);
		gcase_prepare(&c);
		uint32_t src[64] = { 0 };
		struct run_opts o = { 0, SSSP_BATCH_PULL_DIV, SSSP_BATCH_CHUNK_MIN, SSSP_BATCH_SPARSE_POPC, 1, 32 };
		check_run(&c, src, 2, &o);
		o.lanes = 64;
		check_run(&c, src, 64, &o);
		printf("%-12s ok\n", c.name);
		gcase_free(&c);
	}
	/* every kind of step ran somewhere */
	ASSERT(seen_modes[SSSP_BATCH_PUSH] > 0);
	ASSERT(seen_modes[SSSP_BATCH_PUSHB] > 0);
	ASSERT(seen_modes[SSSP_BATCH_PULL] > 0);
	ASSERT(seen_modes[SSSP_BATCH_RAISE] > 0);
	printf("%llu runs, %llu (vertex, source) pairs equal to the reference\n", (unsigned long long)total_runs,
	       (unsigned long long)total_pairs);
	return 0;
}
