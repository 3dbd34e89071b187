/* tuccompi-apsp's outputs (apsp.h), written once the run is over: the overflow check first, then
 * the rows and trees (collective), and on rank 0 the report, --stats, --betweenness, --summary,
 * --matrix, the -o table and --verify. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <tuccompi.h>

#include "apsp.h"
#include "betweenness.h"
#include "matrix.h"
#include "numtext.h"
#include "outfile.h"

/* Collective. With @p keep, the rows become the file (or the run fails with a message);
 * without, the temporary file is removed. */
static void rows_close(struct rows_file *rf, int ok, int keep)
{
	struct graph_error err;
	if (rows_file_close(rf, ok, keep, &err) < 0)
		apsp_die(1, "%s", err.msg);
}

/* The -o table: a line per source. */
struct table
{
	const struct run *r;
	char sep;
};

/* "%u,%u,%u,%" PRIu64 ",%.4f,%.12g\n" of source i (numtext.h: printf's bytes) */
static char *table_line(char *p, uint64_t i, const void *ctx)
{
	const struct table *t = ctx;
	const struct sssp_summary *s = apsp_summary(t->r, i);
	double mean = s->reached > 1 ? (double)s->sum / (double)(s->reached - 1) : 0;
	p = numtext_u64(p, t->r->src[i]);
	*p++ = t->sep;
	p = numtext_u64(p, s->reached);
	*p++ = t->sep;
	p = numtext_u64(p, s->ecc);
	*p++ = t->sep;
	p = numtext_u64(p, s->sum);
	*p++ = t->sep;
	p = numtext_fixed(p, mean, 4);
	*p++ = t->sep;
	p = numtext_g(p, s->harmonic, 12);
	*p++ = '\n';
	return p;
}

static void write_table(const char *path, const struct run *r)
{
	size_t len = strlen(path);
	struct table t = { r, len > 4 && !strcmp(path + len - 4, ".tsv") ? '\t' : ',' };
	struct outfile out;
	struct graph_error err;
	int to_stdout = !strcmp(path, "-");
	char head[64];
	snprintf(head, sizeof head, "source%creached%ceccentricity%csum%cmean%charmonic\n", t.sep, t.sep, t.sep, t.sep, t.sep);
	if (!to_stdout && outfile_open(&out, path, &err) < 0)
		apsp_die(1, "-o %s", err.msg);
	int rc = numtext_write(to_stdout ? NULL : &out, head, r->k, 4 * 21 + 2 * NUMTEXT_MAX + 6, table_line, &t, 0, &err);
	if (rc == 0 && (to_stdout ? fflush(stdout) != 0 || ferror(stdout) : outfile_commit(&out, &err) < 0))
		rc = -EIO;
	if (rc < 0)
		apsp_die(1, "writing %s failed: %s (nothing was left behind)", path, to_stdout ? strerror(errno) : err.msg);
}

/* The library writes the CSV atomically; it goes to a registered temporary name first so
 * that a signal cannot leave it half-way, then takes the final name. */
static void write_stats(const char *path, tuccompi_taskset_t ts)
{
	struct outfile out;
	struct graph_error err;
	if (outfile_open(&out, path, &err) < 0 || outfile_close(&out, &err) < 0)
		apsp_die(1, "--stats %s", err.msg);
	if (tuccompi_taskset_write_csv(ts, out.tmp) < 0)
	{
		outfile_abort(&out);
		apsp_die(1, "--stats: %s", tuccompi_last_error());
	}
	if (outfile_rename(&out, &err) < 0)
		apsp_die(1, "--stats %s", err.msg);
}

static void report(const struct run *r)
{
	struct tuccompi_taskset_stats st;
	tuccompi_taskset_get_stats(r->ts, &st);
	uint64_t cpu_tasks = 0, gpu_tasks = 0;
	double cpu_busy = 0, gpu_busy = 0;
	int ncpu = 0, ngpu = 0;
	char mk[32] = "";
	for (int u = 0; u < st.nunits; u++)
		if (st.units[u].kind == TUCCOMPI_UNIT_CUDA)
			gpu_tasks += st.units[u].ntasks, gpu_busy += st.units[u].busy_s, ngpu++;
		else
			cpu_tasks += st.units[u].ntasks, cpu_busy += st.units[u].busy_s, ncpu++;
	if (ngpu) /* MK means nothing to a CPU-only run */
		snprintf(mk, sizeof mk, "MK %d, ", tuccompi_get_mk());
	fprintf(stderr, "%" PRIu64 " SSSP in %.3f s: %.1f SSSP/s (policy %s, %s%d rank(s), %d CPU + %d GPU units)\n", r->k,
		r->wall_s, (double)r->k / r->wall_s, r->policy->name, mk, tuccompi_nranks(), ncpu, ngpu);
	fprintf(stderr, "  engine:    %s (%s)\n", sssp_engine_name(sssp_plan_engine(r->plan)), sssp_plan_reason(r->plan));
	if (gpu_tasks)
		fprintf(stderr, "  GPUs:      %" PRIu64 " SSSP, %.3f ms per SSSP per stream\n", gpu_tasks,
			1e3 * gpu_busy / (double)gpu_tasks);
	if (cpu_tasks)
		fprintf(stderr, "  CPU cores: %" PRIu64 " SSSP, %.1f ms per SSSP per core\n", cpu_tasks,
			1e3 * cpu_busy / (double)cpu_tasks);
	for (int k = 0; k < tuccompi_nranks(); k++)
		fprintf(stderr, "  rank %d: %" PRIu64 " SSSP\n", k, st.tasks_per_rank[k]);
	if (tuccompi_nranks() > 1)
		fprintf(stderr, "  cross-rank communication: %.4f s on rank 0 (%.3f%% of the run)\n", st.comm_s,
			100.0 * st.comm_s / r->wall_s);
}

/* Without -o: a taste of the table, on stderr. */
static void first_sources(const struct run *r)
{
	uint64_t n = r->k < 5 ? r->k : 5;
	fprintf(stderr, "first sources (ids from 0; use -o FILE for the whole table):\n");
	fprintf(stderr, "  source  reached  eccentricity  mean distance\n");
	for (uint64_t i = 0; i < n; i++)
	{
		const struct sssp_summary *s = apsp_summary(r, i);
		fprintf(stderr, "  %6u  %7u  %12u  %13.3f\n", r->src[i], s->reached, s->ecc,
			s->reached > 1 ? (double)s->sum / (s->reached - 1) : 0.0);
	}
}

/* How to avoid distances of 2^31 and more, for the input at hand. */
static const char *overflow_hint(const struct options *o)
{
	size_t len = o->graph ? strlen(o->graph) : 0;
	if (!o->graph)
		return "generate smaller weights: the W1-W2 field of --gen";
	if (o->format == GRAPH_FORMAT_MTX || (!o->format && len > 4 && !strcasecmp(o->graph + len - 4, ".mtx")))
		return "scale them down, e.g. --mtx-real-scale 0.01";
	return "scale the weights of the graph file down";
}

/* --verify: K sources recomputed by the CPU Dijkstra; the number that differ. */
static uint64_t verify(int count, const struct run *r)
{
	uint32_t *dist = malloc((size_t)r->g.n * 4), *heap = malloc((size_t)r->g.n * 4), *pos = malloc((size_t)r->g.n * 4);
	if (!dist || !heap || !pos)
		apsp_die(1, "--verify: out of memory for 3 x %" PRIu32 " distances", r->g.n);
	uint64_t step = r->k / (uint64_t)count ? r->k / (uint64_t)count : 1, bad = 0, checked = 0;
	for (uint64_t i = 0; i < r->k && checked < (uint64_t)count; i += step, checked++)
	{
		struct sssp_summary ref;
		const struct sssp_summary *got = apsp_summary(r, i);
		sssp_dijkstra(&r->view, r->src[i], dist, heap, pos, &ref);
		if (ref.sum != got->sum || ref.ecc != got->ecc || ref.reached != got->reached || ref.harmonic != got->harmonic)
		{
			bad++;
			fprintf(stderr, "verify: source %u differs: reached %u/%u ecc %u/%u sum %" PRIu64 "/%" PRIu64
					" harmonic %.17g/%.17g\n",
				r->src[i], got->reached, ref.reached, got->ecc, ref.ecc, got->sum, ref.sum, got->harmonic, ref.harmonic);
		}
	}
	fprintf(stderr, "verify: %" PRIu64 " source(s) recomputed on the CPU, %" PRIu64 " differ\n", checked, bad);
	free(dist);
	free(heap);
	free(pos);
	return bad;
}

/* Collective. The exit status: 0, 1 when a distance overflowed, 3 when --verify differs. */
int apsp_write_outputs(const struct options *o, struct run *r)
{
	/* The overflow check comes first: a rows file with wrong distances must never take its name. */
	int64_t over = -1;
	for (uint64_t i = 0; apsp_rank0() && i < r->k && over < 0; i++)
		if (apsp_summary(r, i)->overflow)
			over = (int64_t)i;
	tuccompi_bcast(&over, sizeof over, 0);
	if (o->rows)
		rows_close(&r->rows, !r->args.row_error, over < 0);
	if (o->pred)
		rows_close(&r->pred, !r->args.pred_error, over < 0);
	if (over >= 0)
	{
		if (apsp_rank0())
			fprintf(stderr, PROG ": distances from source %u reach 2^31: the weights are too large for 32-bit "
					"distances; %s (no output was written)\n", r->src[over], overflow_hint(o));
		return 1;
	}
	if (!apsp_rank0())
		return 0;
	if (!o->quiet)
		report(r);
	if (o->stats)
		write_stats(o->stats, r->ts);
	struct graph_error berr;
	if (o->betweenness && betweenness_write(o->betweenness, r->bc, r->g.n, o->undirected ? 0.5 : 1.0, &berr) < 0)
		apsp_die(1, "--betweenness %s", berr.msg);
	if (o->summary)
		tuccompi_taskset_print_summary(r->ts, stderr);
	struct graph_error err;
	if (o->matrix && matrix_write(o->matrix, r->src, r->k, r->tgt, (uint32_t)r->nt, r->res, r->rsize, &err) < 0)
		apsp_die(1, "--matrix %s", err.msg);
	if (o->out)
		write_table(o->out, r);
	else if (!o->quiet)
		first_sources(r);
	return o->verify && verify(o->verify, r) ? 3 : 0;
}
