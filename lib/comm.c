/* The 1st layer: what ranks tell each other. Plain MPI on a private duplicate of the
 * world communicator (so nothing here can match a StarPU-MPI message), which needs
 * MPI_THREAD_MULTIPLE since the MS master answers from a thread of its own. Without
 * MPI (or with one rank) everything degenerates to local copies. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int _tuccompi_comm_exchange_nodes(void)
{
	struct tuccompi_node_info mine = {
		.ncpu_units = tuccompi_unit_count(TUCCOMPI_UNIT_CPU),
		.ncuda_units = tuccompi_unit_count(TUCCOMPI_UNIT_CUDA),
		.mk = _tuccompi.mk,
	};
	free(_tuccompi.nodes);
	_tuccompi.nodes = calloc((size_t)_tuccompi.nranks, sizeof(*_tuccompi.nodes));
	if (!_tuccompi.nodes)
		return _tuccompi_error(-ENOMEM, "out of memory for %d node descriptions", _tuccompi.nranks);
#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active)
	{
		if (MPI_Allgather(&mine, sizeof(mine), MPI_BYTE, _tuccompi.nodes, sizeof(mine), MPI_BYTE,
				  _tuccompi.comm) != MPI_SUCCESS)
			return _tuccompi_error(-EIO, "MPI_Allgather of node descriptions failed");
		return 0;
	}
#endif
	_tuccompi.nodes[0] = mine;
	return 0;
}

int _tuccompi_comm_allgather_u64(uint64_t mine, uint64_t *all)
{
#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active)
		return MPI_Allgather(&mine, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, _tuccompi.comm) == MPI_SUCCESS
			       ? 0
			       : _tuccompi_error(-EIO, "MPI_Allgather failed");
#endif
	all[0] = mine;
	return 0;
}

int _tuccompi_comm_gatherv(const void *send, uint64_t nbytes, void *recv, const uint64_t *counts, int root)
{
#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active)
	{
		int n = _tuccompi.nranks;
		int *cnt = NULL, *displ = NULL;
		if (nbytes > INT_MAX)
			return _tuccompi_error(-EOVERFLOW, "gather of %llu bytes from one rank exceeds MPI's int counts",
					       (unsigned long long)nbytes);
		if (_tuccompi.rank == root)
		{
			cnt = malloc(sizeof(int) * (size_t)n);
			displ = malloc(sizeof(int) * (size_t)n);
			uint64_t off = 0;
			for (int r = 0; r < n; r++)
			{
				if (off > INT_MAX || counts[r] > INT_MAX)
				{
					free(cnt);
					free(displ);
					return _tuccompi_error(-EOVERFLOW, "gather of more than 2 GiB on the root");
				}
				cnt[r] = (int)counts[r];
				displ[r] = (int)off;
				off += counts[r];
			}
		}
		int ret = MPI_Gatherv(send, (int)nbytes, MPI_BYTE, recv, cnt, displ, MPI_BYTE, root, _tuccompi.comm);
		free(cnt);
		free(displ);
		return ret == MPI_SUCCESS ? 0 : _tuccompi_error(-EIO, "MPI_Gatherv failed");
	}
#endif
	(void)counts;
	(void)root;
	if (nbytes)
		memcpy(recv, send, nbytes);
	return 0;
}

int _tuccompi_comm_barrier(void)
{
#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active)
		return MPI_Barrier(_tuccompi.comm) == MPI_SUCCESS ? 0 : _tuccompi_error(-EIO, "MPI_Barrier failed");
#endif
	return 0;
}

/* ------------------------------------------------------------------ collectives of the public API */

int tuccompi_barrier(void)
{
	TUCCOMPI_REQUIRE_INIT();
	return _tuccompi_comm_barrier();
}

int tuccompi_bcast(void *buf, size_t bytes, int root)
{
	TUCCOMPI_REQUIRE_INIT();
	if (root < 0 || root >= _tuccompi.nranks)
		return _tuccompi_error(-EINVAL, "tuccompi_bcast: root %d out of [0, %d)", root, _tuccompi.nranks);
	if (bytes && !buf)
		return _tuccompi_error(-EINVAL, "tuccompi_bcast: NULL buffer");
#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active && _tuccompi.nranks > 1)
	{
		/* MPI counts are ints: send large buffers in slices. */
		for (size_t off = 0; off < bytes;)
		{
			size_t len = bytes - off < (size_t)INT_MAX ? bytes - off : (size_t)INT_MAX;
			if (MPI_Bcast((char *)buf + off, (int)len, MPI_BYTE, root, _tuccompi.comm) != MPI_SUCCESS)
				return _tuccompi_error(-EIO, "MPI_Bcast of %zu bytes from rank %d failed", bytes, root);
			off += len;
		}
	}
#endif
	return 0;
}

int tuccompi_allreduce_i64(int64_t *values, unsigned count, enum tuccompi_op op)
{
	TUCCOMPI_REQUIRE_INIT();
	if (count && !values)
		return _tuccompi_error(-EINVAL, "tuccompi_allreduce_i64: NULL values");
	if (op > TUCCOMPI_OP_AND)
		return _tuccompi_error(-EINVAL, "tuccompi_allreduce_i64: unknown operator %d", (int)op);
	if (op == TUCCOMPI_OP_AND)
		for (unsigned i = 0; i < count; i++)
			values[i] = values[i] != 0;
#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active && _tuccompi.nranks > 1 && count)
	{
		static const MPI_Op ops[] = { MPI_MIN, MPI_MAX, MPI_SUM, MPI_MIN };
		if (MPI_Allreduce(MPI_IN_PLACE, values, (int)count, MPI_INT64_T, ops[op], _tuccompi.comm) != MPI_SUCCESS)
			return _tuccompi_error(-EIO, "MPI_Allreduce failed");
	}
#endif
	return 0;
}

void tuccompi_abort(int code)
{
	fflush(stdout);
	fflush(stderr);
#ifdef TUCCOMPI_HAVE_MPI
	int inited = 0, fin = 0;
	MPI_Initialized(&inited);
	MPI_Finalized(&fin);
	if (inited && !fin && _tuccompi.nranks > 1)
		MPI_Abort(MPI_COMM_WORLD, code);
#endif
	exit(code);
}
