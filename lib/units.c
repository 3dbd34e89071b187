/* Computational units as TuCCompi counts them: every CPU worker is a unit; the stream workers
 * of one CUDA device together are one unit (the GPU), which runs MK tasks at once. The one
 * grouping of the library: the core groups all workers at start-up, each scheduler groups the
 * workers of its context, both with tuccompi_units_group(). */
#include "internal.h"

#ifdef TUCCOMPI_HAVE_CUDA
#include <tuccompi_cuda.h>
#endif

int tuccompi_units_group(const int *workers, int nworkers, struct tuccompi_unit *units, int max_units,
			 int *worker_unit)
{
	int nunits = 0;
	if (worker_unit)
		for (int w = 0; w < STARPU_NMAXWORKERS; w++)
			worker_unit[w] = -1;
	for (int i = 0; i < nworkers; i++)
	{
		int w = workers[i];
		enum starpu_worker_archtype type = starpu_worker_get_type(w);
		enum tuccompi_unit_kind kind;
		if (type == STARPU_CPU_WORKER)
			kind = TUCCOMPI_UNIT_CPU;
		else if (type == STARPU_CUDA_WORKER)
			kind = TUCCOMPI_UNIT_CUDA;
		else
			continue;
		int index = kind == TUCCOMPI_UNIT_CPU ? starpu_worker_get_bindid(w) : starpu_worker_get_devid(w);
		int k = nunits;
		if (kind == TUCCOMPI_UNIT_CUDA)
			for (k = 0; k < nunits; k++)
				if (units[k].kind == kind && units[k].index == index)
					break;
		if (k == nunits)
		{
			if (nunits == max_units)
				continue;
			units[k].kind = kind;
			units[k].index = index;
			units[k].nworkers = 0;
			nunits++;
		}
		if (units[k].nworkers < TUCCOMPI_MAX_MK)
		{
			units[k].workers[units[k].nworkers++] = w;
			if (worker_unit)
				worker_unit[w] = k;
		}
	}
	return nunits;
}

void _tuccompi_units_build(void)
{
	int ids[STARPU_NMAXWORKERS];
	int n = (int)starpu_worker_get_count();
	for (int w = 0; w < n; w++)
		ids[w] = w;
	_tuccompi.nunits = tuccompi_units_group(ids, n, _tuccompi.units, STARPU_NMAXWORKERS, _tuccompi.worker_unit);
	for (int k = 0; k < STARPU_NMAXWORKERS; k++)
		_tuccompi.unit_failed[k] = 0;
}

int _tuccompi_units_healthy(enum tuccompi_unit_kind kind)
{
	int n = 0;
	for (int k = 0; k < _tuccompi.nunits; k++)
		n += _tuccompi.units[k].kind == kind && !_tuccompi.unit_failed[k];
	return n;
}

int tuccompi_unit_count(enum tuccompi_unit_kind kind)
{
	return _tuccompi_units_healthy(kind);
}

int tuccompi_unit_memory(enum tuccompi_unit_kind kind, uint64_t *total, uint64_t *available)
{
	TUCCOMPI_REQUIRE_INIT();
	int found = 0;
	uint64_t t = 0, a = 0;
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		const struct tuccompi_unit *u = &_tuccompi.units[k];
		if (u->kind != kind || _tuccompi.unit_failed[k])
			continue;
		unsigned node = starpu_worker_get_memory_node(u->workers[0]);
		starpu_ssize_t tt = starpu_memory_get_total(node), aa = starpu_memory_get_available(node);
		if (tt < 0)
			return _tuccompi_error(-ENOSYS, "StarPU does not know the memory of %s unit %d",
					       kind == TUCCOMPI_UNIT_CUDA ? "GPU" : "CPU", u->index);
		if (!found || (uint64_t)tt < t)
		{
			t = (uint64_t)tt;
			a = aa < 0 ? (uint64_t)tt : (uint64_t)aa;
		}
		found = 1;
	}
	if (!found)
		return _tuccompi_error(-ENODEV, "no %s unit on this node", kind == TUCCOMPI_UNIT_CUDA ? "GPU" : "CPU");
	if (total)
		*total = t;
	if (available)
		*available = a;
	return 0;
}

#ifndef TUCCOMPI_HAVE_CUDA
int _tuccompi_cuda_device_count(void)
{
	return 0; /* built without CUDA: no GPU is driven */
}

int _tuccompi_cuda_host_registered(const void *p)
{
	(void)p;
	return 0;
}

void _tuccompi_cuda_clear_error(void)
{
}

const char *_tuccompi_cuda_unit_broken(void)
{
	return NULL;
}
#endif

/* Database key of this node's units of @kind: the first GPU's name and compute capability, or
 * "cpu" (CPU cores of one build behave alike enough for a batch size). "" when none. */
int _tuccompi_units_key(enum tuccompi_unit_kind kind, char *key, size_t len)
{
	key[0] = '\0';
	for (int k = 0; k < _tuccompi.nunits; k++)
		if (_tuccompi.units[k].kind == kind)
		{
			if (kind == TUCCOMPI_UNIT_CPU)
			{
				snprintf(key, len, "cpu");
				return 0;
			}
#ifdef TUCCOMPI_HAVE_CUDA
			return tuccompi_gpu_device_props(_tuccompi.units[k].index, NULL, key, len);
#endif
		}
	return 0;
}
