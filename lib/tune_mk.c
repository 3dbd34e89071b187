/* Automatic MK (the TuCCompi paper's future work): measure the GPU throughput of a plug-in
 * at each candidate MK and keep the best, per device, in the tuning database. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <tuccompi_tune.h>

#ifdef TUCCOMPI_HAVE_CUDA
#include <tuccompi_cuda.h>
#endif

/* Probe task sets: every rank with a GPU gets the same number of tasks. */
static int per_gpu_rank(const struct tuccompi_cluster *c, uint64_t ntasks, uint64_t *count, void *arg)
{
	uint64_t each = *(uint64_t *)arg, left = ntasks;
	for (int r = 0; r < c->nranks; r++)
	{
		count[r] = c->nodes[r].ncuda_units && left >= each ? each : 0;
		left -= count[r];
	}
	count[0] += left; /* nothing, unless a caller asked for more than the ranks can take */
	return 0;
}

static int probe(const struct tuccompi_taskset_desc *desc, const struct tuccompi_plugin *gpu_only, uint64_t each,
		 double *rate)
{
	uint64_t nranks_gpu = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		nranks_gpu += _tuccompi.nodes[r].ncuda_units > 0;
	struct tuccompi_policy pol = {
		.name = "mk-probe",
		.description = "the same number of tasks on every rank with a GPU",
		.partition = per_gpu_rank,
		.sched = tuccompi_sched_policy("tuccompi-ms"),
		.arg = &each,
	};
	if (nranks_gpu && each * nranks_gpu > desc->ntasks)
		each = desc->ntasks / nranks_gpu; /* probe tasks are real tasks of the set */
	if (nranks_gpu && each == 0)
		return _tuccompi_error(-EINVAL, "tuccompi_tune_mk: %llu tasks are too few to probe %llu GPU rank(s)",
				       (unsigned long long)desc->ntasks, (unsigned long long)nranks_gpu);
	struct tuccompi_taskset_desc d = *desc;
	d.plugin = gpu_only;
	d.ntasks = each * nranks_gpu;
	d.results = NULL;
	d.on_done = NULL;
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

int tuccompi_tune_mk(const struct tuccompi_taskset_desc *desc, const int *cand, int ncand, unsigned rounds, int *best)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!desc || !desc->plugin || !cand || ncand < 1 || !best || rounds < 1)
		return _tuccompi_error(-EINVAL, "tuccompi_tune_mk: bad arguments");
#ifndef TUCCOMPI_HAVE_CUDA
	return _tuccompi_error(-ENOSYS, "tuccompi_tune_mk: this build has no CUDA");
#else
	if (!desc->plugin->cuda)
		return _tuccompi_error(-EINVAL, "tuccompi_tune_mk: plug-in '%s' has no CUDA implementation",
				       desc->plugin->name);
	char key[96] = "";
	int have_gpu = 0;
	for (int k = 0; k < _tuccompi.nunits && !have_gpu; k++)
		if (_tuccompi.units[k].kind == TUCCOMPI_UNIT_CUDA)
		{
			have_gpu = 1;
			int ret = tuccompi_gpu_device_props(_tuccompi.units[k].index, NULL, key, sizeof(key));
			if (ret < 0)
				return ret;
		}
	struct tuccompi_tune_record rec;
	int known = have_gpu && tuccompi_tune_db_lookup("mk", key, desc->plugin->name, 0, &rec) == 1 &&
		    rec.mk >= 1 && rec.mk <= _tuccompi.mk_max;
	/* Probing is collective: everybody probes if anybody must. */
	uint64_t *needs = calloc((size_t)_tuccompi.nranks, sizeof(uint64_t));
	int ret = _tuccompi_comm_allgather_u64((uint64_t)(have_gpu && !known), needs);
	int any = 0;
	for (int r = 0; r < _tuccompi.nranks; r++)
		any |= needs[r] != 0;
	free(needs);
	if (ret < 0)
		return ret;
	int mk_before = _tuccompi.mk, chosen = known ? rec.mk : mk_before;
	if (any)
	{
		struct tuccompi_plugin gpu_only = *desc->plugin;
		gpu_only.cpu = NULL;
		double best_rate = -1, rate = 0;
		/* warm-up: CUDA context, graph copy, tuner decisions */
		tuccompi_set_mk(1);
		if ((ret = probe(desc, &gpu_only, rounds, &rate)) < 0)
			return ret;
		for (int i = 0; i < ncand; i++)
		{
			if (cand[i] < 1 || cand[i] > _tuccompi.mk_max)
				continue;
			tuccompi_set_mk(cand[i]);
			if ((ret = probe(desc, &gpu_only, (uint64_t)rounds * (uint64_t)cand[i], &rate)) < 0)
				return ret;
			_tuccompi_log("MK %d: %.1f tasks/s of '%s'", cand[i], rate, desc->plugin->name);
			if (!known && have_gpu && rate > best_rate)
			{
				best_rate = rate;
				chosen = cand[i];
			}
		}
		if (!known && have_gpu)
		{
			memset(&rec, 0, sizeof(rec));
			snprintf(rec.kind, sizeof(rec.kind), "mk");
			snprintf(rec.device, sizeof(rec.device), "%s", key);
			snprintf(rec.name, sizeof(rec.name), "%s", desc->plugin->name);
			rec.mk = chosen;
			rec.value = best_rate;
			rec.samples = (int)rounds;
			if ((ret = tuccompi_tune_db_store(&rec)) < 0)
				_tuccompi_log("%s", tuccompi_last_error());
		}
	}
	tuccompi_set_mk(have_gpu ? chosen : mk_before);
	*best = _tuccompi.mk;
	return 0;
#endif
}
