/* Host memory registered with CUDA: results a GPU writes, for a task set's life by the library
 * (_tuccompi_results_pin/unpin, from PARALLEL and SYN) or by the caller beforehand
 * (tuccompi_memory_pin); shared data a GPU reads, while it is shared (_tuccompi_shared_pin/unpin,
 * from tuccompi_shared_register/unregister). Calls StarPU and the CUDA check only. */
#include "taskset.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* Results a GPU writes: large ones are registered with CUDA for the set's life (StarPU's
 * starpu_memory_pin), so that a GPU plug-in can copy each task's result into place with the
 * device's DMA engines, concurrently with its kernels, instead of through a pinned staging buffer
 * and a host memcpy (a staged copy is several times slower than DMA). Registering and
 * unregistering cost time per byte too, so small results are left alone: below 64 MiB the
 * registration costs more than it saves; TUCCOMPI_PIN_RESULTS=BYTES sets that size (0: never).
 * Best effort: results that cannot be registered stay as they are. */
/* The size from which @var says to register (bytes; 0: never), @def when unset. */
static int pin_min(const char *var, const char *what, size_t def, size_t *min)
{
	const char *v = getenv(var);
	*min = def;
	if (v && *v)
	{
		char *end;
		errno = 0;
		unsigned long long x = strtoull(v, &end, 10);
		if (*end || errno || *v == '-' || x > SIZE_MAX)
			return _tuccompi_error(-EINVAL, "%s='%s': write the smallest %s in bytes to register with CUDA "
							"(default %zu), or 0 for never",
					       var, v, what, def);
		*min = (size_t)x;
	}
	return 0;
}

int tuccompi_pin_results_min(size_t *min)
{
	return pin_min("TUCCOMPI_PIN_RESULTS", "results", (size_t)64 << 20, min);
}

/* Shared data (a graph, PHAST's hierarchy) is copied to each GPU by StarPU before the set's first
 * job there, one buffer after another; from pageable memory those copies run at a fraction of the
 * bus's speed and the GPU's first job waits for them. Registered, the copies run at the bus's speed; the registration is paid when the
 * data is shared, before any set, and undone when it is unshared. Only where this process drives a
 * GPU, from 1 MiB (TUCCOMPI_PIN_SHARED=BYTES; 0: never); memory the caller registered is left
 * alone; best effort (a range CUDA will not register stays as it is). */
int _tuccompi_pin_shared_min(size_t *min)
{
	return pin_min("TUCCOMPI_PIN_SHARED", "shared data", (size_t)1 << 20, min);
}

int _tuccompi_shared_pin(struct tuccompi_shared *s, const void *ptr, size_t size)
{
	size_t min;
	int ret = _tuccompi_pin_shared_min(&min);
	s->ptr = (void *)ptr;
	s->pinned = 0;
	if (ret < 0 || !ptr || !min || size < min || starpu_cuda_worker_get_count() == 0 ||
	    _tuccompi_cuda_host_registered(ptr))
		return ret;
	if (starpu_memory_pin(s->ptr, size) == 0 && _tuccompi_cuda_host_registered(ptr))
		s->pinned = size;
	else
		_tuccompi_cuda_clear_error();
	return 0;
}

void _tuccompi_shared_unpin(struct tuccompi_shared *s)
{
	if (s->pinned)
		starpu_memory_unpin(s->ptr, s->pinned);
	s->pinned = 0;
}

int _tuccompi_results_pin(struct tuccompi_taskset *ts, size_t bytes)
{
	size_t min;
	int ret = tuccompi_pin_results_min(&min);
	if (ret < 0)
		return ret;
	if (!(ts->cl.where & STARPU_CUDA) || starpu_cuda_worker_get_count() == 0)
		return 0;
	if (_tuccompi_cuda_host_registered(ts->local_results))
	{
		ts->results_registered = bytes; /* by the caller (tuccompi_memory_pin): theirs to undo */
		ts->results_by_caller = 1;
		return 0;
	}
	/* Only the caller's results: a rank's own buffer (not the root) is calloc'd for every task of
	 * the set and touched only where its tasks land; registering it would fault in and lock all
	 * of it (ntasks x result_size bytes), on every rank. */
	if (!min || bytes < min || ts->own_local_results || !_tuccompi_units_healthy(TUCCOMPI_UNIT_CUDA))
		return 0;
	/* StarPU says 0 without registering when pinning is off (STARPU_DISABLE_PINNING): ask CUDA */
	if (starpu_memory_pin(ts->local_results, bytes) == 0 && _tuccompi_cuda_host_registered(ts->local_results))
		ts->results_pinned = ts->results_registered = bytes;
	return 0;
}

int tuccompi_memory_pin(void *addr, size_t bytes)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!addr || !bytes)
		return _tuccompi_error(-EINVAL, "tuccompi_memory_pin: %s", !addr ? "NULL address" : "0 bytes");
	if (starpu_cuda_worker_get_count() == 0)
		return 0;
	if (starpu_memory_pin(addr, bytes) != 0)
		return _tuccompi_error(-EIO, "tuccompi_memory_pin: CUDA would not register %zu bytes at %p (cudaHostRegister)",
				       bytes, addr);
	return _tuccompi_cuda_host_registered(addr);
}

int tuccompi_memory_unpin(void *addr, size_t bytes)
{
	TUCCOMPI_REQUIRE_INIT();
	if (!addr || !bytes || !_tuccompi_cuda_host_registered(addr))
		return 0;
	if (starpu_memory_unpin(addr, bytes) != 0)
		return _tuccompi_error(-EIO, "tuccompi_memory_unpin: CUDA would not unregister %zu bytes at %p", bytes, addr);
	return 0;
}

void _tuccompi_results_unpin(struct tuccompi_taskset *ts)
{
	if (ts->results_pinned)
		starpu_memory_unpin(ts->local_results, ts->results_pinned);
	ts->results_pinned = 0;
}
