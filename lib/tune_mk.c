/* Automatic MK and batch sizes (the paper's future work, and its extension to task batches):
 * measure the throughput of a plug-in at each candidate value and keep the best, per device,
 * in the tuning database ("mk" and "batch" records). A recorded value is reused without
 * measuring. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <tuccompi_tune.h>

#ifdef TUCCOMPI_HAVE_CUDA
#include <tuccompi_cuda.h>
#endif

/* Probe task sets: every rank with a unit of the kind gets the same number of tasks. */
struct probe_arg
{
	uint64_t each;
	enum tuccompi_unit_kind kind;
};

static int has_kind(const struct tuccompi_node_info *n, enum tuccompi_unit_kind kind)
{
	return kind == TUCCOMPI_UNIT_CUDA ? n->ncuda_units > 0 : n->ncpu_units > 0;
}

static int per_rank(const struct tuccompi_cluster *c, uint64_t ntasks, uint64_t *count, void *arg)
{
	const struct probe_arg *a = arg;
	uint64_t left = ntasks;
	for (int r = 0; r < c->nranks; r++)
	{
		count[r] = has_kind(&c->nodes[r], a->kind) && left >= a->each ? a->each : 0;
		left -= count[r];
	}
	count[0] += left; /* nothing, unless a caller asked for more than the ranks can take */
	return 0;
}

/* Run @each tasks of @desc (only its @kind implementations) on every rank with such units;
 * this rank's tasks per second. */
static int probe(const struct tuccompi_taskset_desc *desc, enum tuccompi_unit_kind kind, uint64_t each, double *rate)
{
	uint64_t nranks_kind = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		nranks_kind += has_kind(&_tuccompi.nodes[r], kind);
	if (nranks_kind && each * nranks_kind > desc->ntasks)
		each = desc->ntasks / nranks_kind; /* probe tasks are real tasks of the set */
	if (nranks_kind && each == 0)
		return _tuccompi_error(-EINVAL, "tuning: %llu tasks are too few to probe %llu rank(s)",
				       (unsigned long long)desc->ntasks, (unsigned long long)nranks_kind);
	struct probe_arg pa = { each, kind };
	/* inside a node, units take work on demand with no end-of-set rule (MS's StarPU policy):
	 * every unit runs as fast as it can */
	struct tuccompi_policy pol = {
		.name = "tune-probe",
		.description = "the same number of tasks on every rank with units of the probed kind",
		.partition = per_rank,
		.sched = _tuccompi_policy_with(1, 0)->sched,
		.arg = &pa,
	};
	struct tuccompi_plugin only = *desc->plugin;
	if (kind == TUCCOMPI_UNIT_CUDA)
		only.cpu = NULL, only.cpu_batch = NULL;
	else
		only.cuda = NULL, only.cuda_batch = NULL;
	struct tuccompi_taskset_desc d = *desc;
	d.plugin = &only;
	d.ntasks = each * nranks_kind;
	d.results = NULL;
	d.reduce.result = NULL;
	d.on_done = NULL;
	d.journal = NULL;
	d.resume = 0;
	tuccompi_taskset_t ts;
	int ret = tuccompi_parallel(&pol, &d, &ts);
	if (ret < 0)
		return ret;
	ret = tuccompi_wait(ts);
	struct tuccompi_taskset_stats st;
	if (ret == 0)
		ret = tuccompi_taskset_get_stats(ts, &st);
	if (ret == 0)
		*rate = st.local_s > 0 ? (double)st.tasks_per_rank[_tuccompi.rank] / st.local_s : 0;
	tuccompi_taskset_destroy(ts);
	return ret;
}

/* Does any rank need to measure? Probing is collective: everybody probes if anybody must. */
static int anybody(int mine, int *any)
{
	int64_t v = mine;
	int ret = tuccompi_allreduce_i64(&v, 1, TUCCOMPI_OP_MAX);
	*any = v != 0;
	return ret;
}

static void record(const char *kind, const char *key, const char *name, int size_class, int value, double rate,
		   unsigned rounds)
{
	struct tuccompi_tune_record rec;
	memset(&rec, 0, sizeof(rec));
	snprintf(rec.kind, sizeof(rec.kind), "%s", kind);
	snprintf(rec.device, sizeof(rec.device), "%s", key);
	snprintf(rec.name, sizeof(rec.name), "%s", name);
	rec.size_class = size_class;
	rec.mk = value;
	rec.value = rate;
	rec.samples = (int)rounds;
	if (tuccompi_tune_db_store(&rec) < 0)
		_tuccompi_log("%s", tuccompi_last_error());
}

int tuccompi_tune_mk(const struct tuccompi_taskset_desc *desc, const int *cand, int ncand, unsigned rounds, int *best)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!desc || !desc->plugin || !cand || ncand < 1 || !best || rounds < 1)
		return _tuccompi_error(-EINVAL, "tuccompi_tune_mk: bad arguments");
#ifndef TUCCOMPI_HAVE_CUDA
	return _tuccompi_error(-ENOSYS, "tuccompi_tune_mk: this build has no CUDA");
#else
	if (!desc->plugin->cuda && !desc->plugin->cuda_batch)
		return _tuccompi_error(-EINVAL, "tuccompi_tune_mk: plug-in '%s' has no CUDA implementation",
				       desc->plugin->name);
	char key[96];
	int ret = _tuccompi_units_key(TUCCOMPI_UNIT_CUDA, key, sizeof(key));
	if (ret < 0)
		return ret;
	int have_gpu = key[0] != '\0';
	struct tuccompi_tune_record rec;
	int known = have_gpu && tuccompi_tune_db_lookup("mk", key, desc->plugin->name, 0, &rec) == 1 && rec.mk >= 1 &&
		    rec.mk <= _tuccompi.mk_max;
	int any;
	if ((ret = anybody(have_gpu && !known, &any)) < 0)
		return ret;
	int mk_before = _tuccompi.mk, chosen = known ? rec.mk : mk_before;
	if (any)
	{
		/* a batch of the plug-in's largest size is one "task" of the probe */
		unsigned per = desc->plugin->cuda_batch ? desc->plugin->batch_max[TUCCOMPI_UNIT_CUDA] : 1;
		double best_rate = -1, rate = 0;
		/* warm-up: CUDA context, shared data copies, tuner decisions */
		tuccompi_set_mk(1);
		if ((ret = probe(desc, TUCCOMPI_UNIT_CUDA, (uint64_t)rounds * per, &rate)) < 0)
			return ret;
		for (int i = 0; i < ncand; i++)
		{
			if (cand[i] < 1 || cand[i] > _tuccompi.mk_max)
				continue;
			tuccompi_set_mk(cand[i]);
			if ((ret = probe(desc, TUCCOMPI_UNIT_CUDA, (uint64_t)rounds * (uint64_t)cand[i] * per, &rate)) < 0)
				return ret;
			_tuccompi_log("MK %d: %.1f tasks/s of '%s'", cand[i], rate, desc->plugin->name);
			if (!known && have_gpu && rate > best_rate)
			{
				best_rate = rate;
				chosen = cand[i];
			}
		}
		if (!known && have_gpu)
			record("mk", key, desc->plugin->name, 0, chosen, best_rate, rounds);
	}
	tuccompi_set_mk(have_gpu ? chosen : mk_before);
	*best = _tuccompi.mk;
	return 0;
#endif
}

int tuccompi_tune_batch(const struct tuccompi_taskset_desc *desc, enum tuccompi_unit_kind kind, const unsigned *cand,
			int ncand, unsigned rounds, unsigned *best)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!desc || !desc->plugin || !cand || ncand < 1 || !best || rounds < 1 || (unsigned)kind > 1)
		return _tuccompi_error(-EINVAL, "tuccompi_tune_batch: bad arguments");
	const struct tuccompi_plugin *p = desc->plugin;
	unsigned max = p->batch_max[kind];
	if (!(kind == TUCCOMPI_UNIT_CPU ? p->cpu_batch : p->cuda_batch))
		return _tuccompi_error(-EINVAL, "tuccompi_tune_batch: plug-in '%s' has no %s batch implementation", p->name,
				       kind == TUCCOMPI_UNIT_CPU ? "CPU" : "CUDA");
	char key[96];
	int ret = _tuccompi_units_key(kind, key, sizeof(key));
	if (ret < 0)
		return ret;
	unsigned known = _tuccompi_tune_batch_recorded(p->name, kind, key);
	if (known > max)
		known = 0;
	int any;
	if ((ret = anybody(key[0] && !known, &any)) < 0)
		return ret;
	unsigned chosen = known ? known : max;
	if (any)
	{
		double best_rate = -1, rate = 0;
		struct tuccompi_taskset_desc d = *desc;
		for (int i = 0; i < ncand; i++)
		{
			if (cand[i] < 1 || cand[i] > max)
				continue;
			d.batch[kind] = cand[i];
			/* rounds batches per worker of the kind, so that every worker is busy */
			uint64_t workers = 0;
			for (int k = 0; k < _tuccompi.nunits; k++)
				if (_tuccompi.units[k].kind == kind)
					workers += kind == TUCCOMPI_UNIT_CUDA ? (uint64_t)_tuccompi.mk : 1;
			if ((ret = probe(&d, kind, (uint64_t)rounds * cand[i] * (workers ? workers : 1), &rate)) < 0)
				return ret;
			_tuccompi_log("batch %u on %s: %.1f tasks/s of '%s'", cand[i], kind == TUCCOMPI_UNIT_CPU ? "CPUs" : "GPUs",
				      rate, p->name);
			if (!known && key[0] && rate > best_rate)
			{
				best_rate = rate;
				chosen = cand[i];
			}
		}
		if (!known && key[0])
			record("batch", key, p->name, (int)kind, (int)chosen, best_rate, rounds);
	}
	*best = chosen;
	return 0;
}
