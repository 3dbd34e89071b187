/* COMM / ENDCOMM / SETMK: starting StarPU (and StarPU-MPI) and describing this node's units. */
#include "link.h"
#include "node_split.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#ifdef TUCCOMPI_HAVE_MPI
#include <starpu_mpi.h>
#endif

struct _tuccompi_state _tuccompi = {
	.rank = 0,
	.nranks = 1,
	.lock = PTHREAD_MUTEX_INITIALIZER,
};

void tuccompi_conf_init(struct tuccompi_conf *conf)
{
	memset(conf, 0, sizeof(*conf));
	conf->mk = 0;
	conf->mk_max = 0;
	conf->ncpus = -1;
	conf->ncuda = -1;
	conf->use_mpi = -1;
	conf->trace_dir = NULL;
	conf->quiet = 0;
}

/* Launched by a process manager with a world of several processes? */
static int launched_by_mpirun(int *size)
{
	static const char *vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "MPI_LOCALNRANKS" };
	for (unsigned i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
	{
		const char *s = getenv(vars[i]);
		if (s && *s)
		{
			*size = atoi(s);
			return 1;
		}
	}
	*size = 1;
	return 0;
}

int tuccompi_launched_ranks(void)
{
	int size = 1;
	launched_by_mpirun(&size);
	return size > 0 ? size : 1;
}

static void set_env_default(const char *name, const char *value)
{
	setenv(name, value, 0);
}

void tuccompi_print_units(FILE *f)
{
	char name[128];
	fprintf(f, "rank %d: %d CPU unit(s), %d GPU unit(s), MK %d (up to %d)\n", _tuccompi.rank,
		tuccompi_unit_count(TUCCOMPI_UNIT_CPU), tuccompi_unit_count(TUCCOMPI_UNIT_CUDA), _tuccompi.mk,
		_tuccompi.mk_max);
	if (_tuccompi.placement[0])
		fprintf(f, "  %s\n", _tuccompi.placement);
	for (int k = 0; k < _tuccompi.nunits; k++)
	{
		const struct tuccompi_unit *u = &_tuccompi.units[k];
		starpu_worker_get_name(u->workers[0], name, sizeof(name));
		fprintf(f, "  unit %2d: %-4s %2d  workers %d  (%s)\n", k, u->kind == TUCCOMPI_UNIT_CPU ? "CPU" : "CUDA",
			u->index, u->nworkers, name);
	}
}

int tuccompi_set_mk(int mk)
{
	TUCCOMPI_REQUIRE_INIT();
	if (mk < 1 || mk > _tuccompi.mk_max)
		return _tuccompi_error(-EINVAL,
				       "tuccompi_set_mk(%d): MK must be in [1, %d], the stream workers started per GPU; "
				       "raise tuccompi_conf.mk_max (or TUCCOMPI_MK_MAX) before tuccompi_init()",
				       mk, _tuccompi.mk_max);
	_tuccompi.mk = mk;
	return 0;
}

int tuccompi_get_mk(void)
{
	return _tuccompi.mk;
}

const char *tuccompi_version(void)
{
	return PACKAGE_VERSION;
}

int tuccompi_have_cuda(void)
{
#ifdef TUCCOMPI_HAVE_CUDA
	return 1;
#else
	return 0;
#endif
}

int tuccompi_have_mpi(void)
{
#ifdef TUCCOMPI_HAVE_MPI
	return 1;
#else
	return 0;
#endif
}

int tuccompi_have_fxt(void)
{
#ifdef TUCCOMPI_HAVE_FXT
	return 1;
#else
	return 0;
#endif
}

int tuccompi_rank(void)
{
	return _tuccompi.rank;
}

int tuccompi_nranks(void)
{
	return _tuccompi.nranks;
}

int tuccompi_mpi_active(void)
{
	return _tuccompi.mpi_active;
}

static int start_mpi(int *argc, char ***argv, int use_mpi)
{
	_tuccompi.rank = 0; /* until MPI says otherwise */
	_tuccompi.nranks = 1;
	int world = 1;
	int launched = launched_by_mpirun(&world);
#ifdef TUCCOMPI_SIMGRID
	launched = 1; /* by smpirun, always (StarPU-MPI with SimGrid) */
#endif
	if (use_mpi < 0)
		use_mpi = launched;
#ifndef TUCCOMPI_HAVE_MPI
	(void)argc;
	(void)argv;
	if (use_mpi && world > 1)
		return _tuccompi_error(-ENOSYS, "started by mpirun with %d processes, but libtuccompi-starpu was built "
						"without MPI; each process would run the whole task set. Rebuild with "
						"StarPU-MPI and Open MPI (./configure --enable-mpi)",
				       world);
	if (use_mpi == 1 && !launched)
		return _tuccompi_error(-ENOSYS, "use_mpi=1 but libtuccompi-starpu was built without MPI "
						"(./configure --enable-mpi)");
	return 0;
#else
	if (!use_mpi)
		return 0;
#ifdef TUCCOMPI_SIMGRID
	/* SMPI: StarPU-MPI initialised MPI in the rank's own actor before main() (which runs in
	 * another one, where MPI calls are not allowed); it knows the rank and the job's size */
	_tuccompi.rank = starpu_mpi_world_rank();
	_tuccompi.nranks = starpu_mpi_world_size();
	_tuccompi.mpi_active = 1;
	return 0;
#endif
	/* Every message of the library goes through StarPU-MPI, whose progression thread alone calls
	 * MPI once it runs: the thread level StarPU-MPI asks for is enough. */
	int inited = 0;
	MPI_Initialized(&inited);
	int provided = 0;
	if (!inited)
	{
		if (MPI_Init_thread(argc, argv, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
			return _tuccompi_error(-EIO, "MPI_Init_thread failed; is this process started by mpirun?");
		_tuccompi.we_init_mpi = 1;
	}
	else
		MPI_Query_thread(&provided);
	if (provided < MPI_THREAD_SERIALIZED)
		return _tuccompi_error(-ENOTSUP, "MPI provides thread level %d, but StarPU-MPI calls MPI from its own "
						 "thread and needs MPI_THREAD_SERIALIZED (initialise MPI with "
						 "MPI_Init_thread(..., MPI_THREAD_SERIALIZED, ...) or let tuccompi_init() do it)",
				       provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &_tuccompi.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &_tuccompi.nranks);
	_tuccompi.mpi_active = 1;
	return 0;
#endif
}

static void stop_mpi(void)
{
#ifdef TUCCOMPI_HAVE_MPI
	_tuccompi.mpi_active = 0;
	if (_tuccompi.we_init_mpi)
	{
		MPI_Finalize();
		_tuccompi.we_init_mpi = 0;
	}
#endif
	/* the process keeps its rank and the job's size after ENDCOMM (tuccompi_rank()) */
}

/* ------------------------------------------------------------------ node-aware ranks
 *
 * Ranks of one node (MPI_COMM_TYPE_SHARED) split it instead of each starting workers on every
 * core and driving every GPU: local rank r of L gets the r-th contiguous block of the node's
 * cores (whole cores, hwloc's logical order, so a block stays within a socket when it can) and
 * GPUs round-robin (device d goes to local rank d mod L; with fewer GPUs than ranks, the first
 * ranks get one each and the others none). Blocks are equal, except that a rank with GPUs gets
 * at least what it needs, a core per stream worker (each has a host thread of its own) and one
 * for StarPU-MPI's progression thread, the ranks without GPUs sharing the rest (split_cores).
 * A rank's CPU workers are its cores minus one per GPU stream worker, minus one for StarPU-MPI's
 * progression thread where that leaves at least two (one on a rank with GPUs). StarPU's own variables
 * (STARPU_NCPU, STARPU_NCUDA, STARPU_WORKERS_CPUID/COREID/CUDAID) and tuccompi_conf::ncpus /
 * ncuda win; TUCCOMPI_NODE_SPLIT=0 turns the split off. GPU-to-core affinity is not read (it
 * would need hwloc's CUDA/NVML plug-ins at run time): GPU r goes with core block r. */
/* With CUDA workers, StarPU pins (cudaHostAlloc) every buffer it allocates in main memory by
 * default. The only such buffers here are the CPU workers' scratch workspaces (a task set's
 * workspaces, one per worker, never copied to a GPU: the data the GPUs read are registered from
 * the caller's memory), and pinning them serialises with the GPU workers in the driver, holding
 * every unit at the start of a run. */
static void unpin_ram_allocations(void)
{
	for (unsigned node = 0; node < starpu_memory_nodes_get_count(); node++)
		if (starpu_node_get_kind(node) == STARPU_CPU_RAM)
			starpu_malloc_on_node_set_default_flags(node, STARPU_MALLOC_COUNT);
}

#ifdef TUCCOMPI_HAVE_MPI
/* This rank's place among the ranks of its node: what the launcher says (Open MPI, MPICH, Slurm),
 * else MPI_COMM_TYPE_SHARED (a collective outside StarPU-MPI, which is not running yet). */
static int local_ranks(int *rank, int *size)
{
	static const char *pairs[][2] = { { "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE" },
					  { "MPI_LOCALRANKID", "MPI_LOCALNRANKS" },
					  { "SLURM_LOCALID", "SLURM_NTASKS_PER_NODE" } };
	for (unsigned i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
	{
		const char *r = getenv(pairs[i][0]), *n = getenv(pairs[i][1]);
		char *e1 = NULL, *e2 = NULL;
		long lr = r ? strtol(r, &e1, 10) : -1, ls = n ? strtol(n, &e2, 10) : -1;
		if (r && n && !*e1 && !*e2 && lr >= 0 && ls > lr)
		{
			*rank = (int)lr;
			*size = (int)ls;
			return 0;
		}
	}
#ifdef TUCCOMPI_SIMGRID
	*rank = 0; /* a simulated node per rank */
	*size = 1;
	return 0;
#endif
	MPI_Comm local;
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, _tuccompi.rank, MPI_INFO_NULL, &local) !=
	    MPI_SUCCESS)
		return -1;
	MPI_Comm_rank(local, rank);
	MPI_Comm_size(local, size);
	MPI_Comm_free(&local);
	return 0;
}
#endif

static void place_on_node(const struct tuccompi_conf *conf, struct starpu_conf *sconf, int mk_max)
{
	_tuccompi.local_rank = 0;
	_tuccompi.local_size = 1;
	_tuccompi.placement[0] = '\0';
#ifdef TUCCOMPI_HAVE_MPI
	if (!_tuccompi.mpi_active || local_ranks(&_tuccompi.local_rank, &_tuccompi.local_size) < 0)
		return;
	int lr = _tuccompi.local_rank, ls = _tuccompi.local_size;
	if (ls < 2 || !_tuccompi_env_flag("TUCCOMPI_NODE_SPLIT", 1))
		return;
	char gpus[96] = "", cores[96] = "";
	int ngpu = 0, need[TUCCOMPI_SPLIT_MAX_RANKS] = { 0 };
	/* GPUs */
	if (!getenv("STARPU_NCUDA") && !getenv("STARPU_WORKERS_CUDAID") && conf->ncuda != 0)
	{
		int g = _tuccompi_cuda_device_count();
		ngpu = _tuccompi_split_gpus(g, ls, lr, conf->ncuda, sconf->workers_cuda_gpuid);
		for (int i = 0; i < ngpu; i++)
			snprintf(gpus + strlen(gpus), sizeof(gpus) - strlen(gpus), "%s%u", i ? "," : "",
				 sconf->workers_cuda_gpuid[i]);
		if (ls <= TUCCOMPI_SPLIT_MAX_RANKS)
			for (int j = 0; j < ls; j++)
			{
				int n = _tuccompi_split_gpus(g, ls, j, conf->ncuda, NULL);
				need[j] = n ? n * mk_max + 1 : 0;
			}
		sconf->use_explicit_workers_cuda_gpuid = ngpu > 0;
		sconf->ncuda = ngpu;
		if (!ngpu)
			snprintf(gpus, sizeof(gpus), "none (%d GPU(s) for %d ranks on this node)", g, ls);
	}
	/* cores */
	hwloc_topology_t topo;
	if (!getenv("STARPU_NCPU") && !getenv("STARPU_WORKERS_CPUID") && !getenv("STARPU_WORKERS_COREID") &&
	    hwloc_topology_init(&topo) == 0)
	{
		if (hwloc_topology_load(topo) == 0)
		{
			int ncores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
			int first, last;
			_tuccompi_split_cores(ncores, ls, lr, need, &first, &last);
			if (ncores >= ls && last > first)
			{
				int n = 0;
				for (int c = first; c < last; c++)
				{
					hwloc_obj_t core = hwloc_get_obj_by_type(topo, HWLOC_OBJ_CORE, (unsigned)c);
					hwloc_obj_t pu = core ? hwloc_get_obj_inside_cpuset_by_type(topo, core->cpuset, HWLOC_OBJ_PU, 0)
							      : NULL;
					if (pu)
						sconf->workers_bindid[n++] = pu->logical_index;
				}
				for (int i = n; n && i < STARPU_NMAXWORKERS; i++)
					sconf->workers_bindid[i] = sconf->workers_bindid[i % n];
				sconf->use_explicit_workers_bindid = n > 0;
				int ncpu = n - (getenv("STARPU_NCUDA") ? 0 : ngpu * mk_max);
				/* StarPU-MPI's progression thread polls while a receive is posted, and the
				 * 1st layer always has one: StarPU gives it a core of its own when it
				 * chooses the CPU workers itself, not when we do. Sharing a worker's
				 * core, every message (an MS round trip above all) waits for the
				 * scheduler's time slice, so a rank with 3 or more cores for CPU workers
				 * leaves one to it. A rank with GPUs leaves it a core whenever it has one
				 * over its stream workers (split_cores gives it one). */
				if ((ngpu > 0 ? ncpu >= 1 : ncpu >= 3) && !getenv("STARPU_RESERVE_NCPU"))
					ncpu--;
				if (conf->ncpus < 0)
					sconf->ncpus = ncpu > 0 ? ncpu : 0;
				snprintf(cores, sizeof(cores), "cores %d-%d of %d", first, last - 1, ncores);
			}
		}
		hwloc_topology_destroy(topo);
	}
	snprintf(_tuccompi.placement, sizeof(_tuccompi.placement), "local rank %d of %d on this node: %s; GPU %s", lr, ls,
		 cores[0] ? cores : "cores as StarPU's variables say", gpus[0] ? gpus : "as StarPU's variables say");
#else
	(void)conf;
	(void)sconf;
	(void)mk_max;
#endif
}

/* A rank alone on its node, StarPU choosing its CPU workers, on a node with GPUs: one core is
 * left free of workers (StarPU's reserve_ncpus) for the threads that must not wait for a time
 * slice when they wake, the stream workers' above all: CPU workers on every core the stream
 * workers do not hold make each wake-up wait, and every unit runs slower. Under StarPU-MPI the progression thread already has that core (starpu_mpi_init_conf reserves it), and
 * a node shared by ranks is placed by place_on_node. STARPU_NCPU, STARPU_RESERVE_NCPU,
 * STARPU_WORKERS_CPUID/COREID, STARPU_NCUDA and tuccompi_conf.ncpus / ncuda win. */
static void leave_a_core(const struct tuccompi_conf *conf, struct starpu_conf *sconf)
{
	/* starpu_conf_init put STARPU_NCPU(S), STARPU_RESERVE_NCPU and STARPU_NCUDA in sconf (-1: unset) */
	if (_tuccompi.mpi_active || _tuccompi.local_size > 1 || conf->ncpus >= 0 || conf->ncuda == 0 ||
	    sconf->ncpus >= 0 || sconf->reserve_ncpus != -1 || sconf->ncuda >= 0 || getenv("STARPU_WORKERS_CPUID") ||
	    getenv("STARPU_WORKERS_COREID"))
		return;
	if (_tuccompi_cuda_device_count() > 0)
		sconf->reserve_ncpus = 1;
}

/* Every rank's node description (the first collective: it also waits for every rank's start). */
static int exchange_nodes(void)
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
	struct _tuccompi_coll c = { .op = TUCCOMPI_COLL_INIT, .root = 0 };
	return _tuccompi_coll_allgather(&c, &mine, sizeof(mine), _tuccompi.nodes);
}

/* Before StarPU starts, the ranks agree that each will find a worker. A rank whose StarPU cannot start
 * (GPUs only, and the node split gave it none of the node's GPUs) would leave the others waiting in
 * StarPU-MPI's start-up, where no timeout reaches them: so every rank learns which rank would have
 * no unit and returns that error. Only what the configuration says is foreseen here; a StarPU that
 * fails for another cause on one rank of several ends the job (see tuccompi_init). */
static int agree_on_workers(const struct starpu_conf *sconf)
{
#if defined(TUCCOMPI_HAVE_MPI) && !defined(TUCCOMPI_SIMGRID)
	if (!_tuccompi.mpi_active || _tuccompi.nranks < 2)
		return 0;
	int none = sconf->ncpus == 0 && (sconf->ncuda == 0 || (sconf->ncuda < 0 && _tuccompi_cuda_device_count() <= 0));
	int mine = none ? _tuccompi.rank : _tuccompi.nranks, first = mine;
	if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS)
		return _tuccompi_error(-EIO, "MPI_Allreduce failed while the ranks checked their workers");
	if (first < _tuccompi.nranks)
		return _tuccompi_error(-ENODEV,
				       "rank %d would have no unit to run tasks on: no CPU worker (tuccompi_conf.ncpus = 0 "
				       "or STARPU_NCPU=0) and none of its node's GPUs (with several ranks on a node, each "
				       "GPU goes to one rank); run at most one rank per GPU, or let that rank use CPU cores",
				       first);
#else
	(void)sconf;
#endif
	return 0;
}

int tuccompi_init(int *argc, char ***argv, const struct tuccompi_conf *user_conf)
{
	struct tuccompi_conf conf;
	int ret;

	if (_tuccompi.initialized)
		return _tuccompi_error(-EALREADY, "tuccompi_init: already started; call tuccompi_finalize() first");
	_tuccompi_clear_error();
	if (user_conf)
		conf = *user_conf;
	else
		tuccompi_conf_init(&conf);
	_tuccompi.quiet = conf.quiet;
	/* every TUCCOMPI_* variable of the library, before anything starts (lib/env.c) */
	if ((ret = _tuccompi_env_check()) < 0)
		return ret;

	/* MK: how many tasks run at once on a GPU, and how many stream workers to start. */
	int mk = conf.mk, mk_max = conf.mk_max;
	if (mk < 0 || mk > TUCCOMPI_MAX_MK || mk_max < 0 || mk_max > TUCCOMPI_MAX_MK)
		return _tuccompi_error(-EINVAL, "tuccompi_conf: mk=%d / mk_max=%d out of range [0, %d]", mk, mk_max,
				       TUCCOMPI_MAX_MK);
	if (mk == 0 && (ret = _tuccompi_env_int("TUCCOMPI_MK", 1, TUCCOMPI_MAX_MK, &mk)) < 0)
		return ret;
	if (mk == 0)
		mk = 1;
	if (mk_max == 0 && (ret = _tuccompi_env_int("TUCCOMPI_MK_MAX", 1, TUCCOMPI_MAX_MK, &mk_max)) < 0)
		return ret;
	if (mk_max == 0)
	{
		/* STARPU_NWORKER_PER_CUDA set by the user wins. */
		if ((ret = _tuccompi_env_int("STARPU_NWORKER_PER_CUDA", 1, TUCCOMPI_MAX_MK, &mk_max)) < 0)
			return ret;
		if (mk_max == 0)
			mk_max = mk > 4 ? mk : 4;
	}
	if (mk > mk_max)
		return _tuccompi_error(-EINVAL, "MK=%d is larger than mk_max=%d stream workers per GPU; raise mk_max "
						"(TUCCOMPI_MK_MAX)",
				       mk, mk_max);

	const char *trace = conf.trace_dir ? conf.trace_dir : getenv("TUCCOMPI_TRACE");
	if (trace && !*trace)
		trace = NULL;

#ifdef TUCCOMPI_HAVE_CUDA
	/* Every kernel loaded when CUDA starts, not at its first launch: under CUDA's lazy loading (its
	 * default in recent releases) the first launch of a kernel may stop the whole GPU while the module
	 * loads, and with MK tasks on a GPU that waits for the other streams' running kernels (a
	 * plug-in's second kernel, first launched mid-run, is held that way). Set before MPI and
	 * StarPU, which may start CUDA; the user's CUDA_MODULE_LOADING wins. */
	set_env_default("CUDA_MODULE_LOADING", "EAGER");
#endif
	if ((ret = start_mpi(argc, argv, conf.use_mpi)) < 0)
		return ret;

	/* One host thread per stream worker, so that a plug-in may synchronise its
	 * stream (GPUSYN) without holding back the other MK-1 tasks of its GPU. */
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", mk_max);
	setenv("STARPU_NWORKER_PER_CUDA", buf, 1);
	set_env_default("STARPU_CUDA_THREAD_PER_WORKER", "1");
	if (conf.quiet)
		set_env_default("STARPU_SILENT", "1");
	if ((ret = _tuccompi_trace_setup(trace)) < 0)
	{
		stop_mpi();
		return ret;
	}

	struct starpu_conf sconf;
	starpu_conf_init(&sconf);
	place_on_node(&conf, &sconf, mk_max);
	leave_a_core(&conf, &sconf);
	if (conf.ncpus >= 0)
		sconf.ncpus = conf.ncpus;
	if (conf.ncuda >= 0 && !sconf.use_explicit_workers_cuda_gpuid)
		sconf.ncuda = conf.ncuda;
	if ((ret = agree_on_workers(&sconf)) < 0)
	{
		stop_mpi();
		return ret;
	}
#ifdef TUCCOMPI_SIMGRID
	/* a heterogeneous simulated cluster (simulation/run.sh HETERO=1): the odd ranks' nodes have no
	 * GPU (the ranks share one process, and so its environment) */
	if (_tuccompi_env_flag("TUCCOMPI_SIM_NOGPU_ODD", 0) && _tuccompi.rank % 2)
		sconf.ncuda = 0;
#endif
	/* Our task sets run in scheduling contexts of their own; the global one only
	 * sees StarPU's internal tasks. */
	if (!getenv("STARPU_SCHED"))
		sconf.sched_policy_name = "eager";

#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active)
		ret = starpu_mpi_init_conf(argc, argv, 0, MPI_COMM_WORLD, &sconf);
	else
#endif
		ret = starpu_init(&sconf);
	if (ret < 0)
	{
#if defined(TUCCOMPI_HAVE_MPI) && !defined(TUCCOMPI_SIMGRID)
		/* the other ranks wait in StarPU-MPI's start-up for this one, where nothing times out: a
		 * failure agree_on_workers could not foresee ends the job, saying why */
		if (_tuccompi.mpi_active && _tuccompi.nranks > 1)
		{
			fprintf(stderr, "[tuccompi %d/%d] StarPU could not start on this rank (%s): ending the job\n",
				_tuccompi.rank, _tuccompi.nranks,
				ret == -ENODEV ? "no worker to run tasks on: check STARPU_NCPU / STARPU_NCUDA and "
						 "tuccompi_conf.ncpus / ncuda" : strerror(-ret));
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
#endif
		stop_mpi();
		if (ret == -ENODEV)
			return _tuccompi_error(ret, "StarPU found no worker to run tasks on (check STARPU_NCPU / "
						    "STARPU_NCUDA and tuccompi_conf.ncpus / ncuda)");
		return _tuccompi_error(ret, "starpu_init failed: %s", strerror(-ret));
	}

	unpin_ram_allocations();
	/* Task and bus profiling feed the run summary (transfers per task set). */
	starpu_profiling_status_set(STARPU_PROFILING_ENABLE);
	_tuccompi_units_build();
	_tuccompi.mk = mk;
	_tuccompi.mk_max = mk_max;
	for (int k = 0; k < _tuccompi.nunits; k++)
		if (_tuccompi.units[k].kind == TUCCOMPI_UNIT_CUDA && _tuccompi.units[k].nworkers < _tuccompi.mk_max)
			_tuccompi.mk_max = _tuccompi.units[k].nworkers;
	if (_tuccompi.mk > _tuccompi.mk_max && tuccompi_unit_count(TUCCOMPI_UNIT_CUDA) > 0)
		_tuccompi.mk = _tuccompi.mk_max;
	_tuccompi.initialized = 1;

	if ((ret = _tuccompi_link_start()) < 0 || (ret = exchange_nodes()) < 0)
	{
		tuccompi_finalize();
		return ret;
	}
	return 0;
}

void tuccompi_host_work_begin(void)
{
	if (!_tuccompi.initialized)
		return;
	starpu_pause(); /* StarPU counts them: the workers sleep until as many starpu_resume() */
	_tuccompi.host_work++;
}

void tuccompi_host_work_end(void)
{
	if (!_tuccompi.initialized || _tuccompi.host_work == 0)
		return;
	_tuccompi.host_work--;
	starpu_resume();
}

int tuccompi_finalize(void)
{
	TUCCOMPI_REQUIRE_INIT();
	while (_tuccompi.host_work > 0) /* paused workers would never finish the tasks waited for below */
		tuccompi_host_work_end();
	int ret = 0;
	/* every rank is here (and its task sets done): the layer may close */
	if (_tuccompi_link_on())
		ret = _tuccompi_coll_agree(TUCCOMPI_COLL_FINALIZE, 0, 0, NULL);
	if (_tuccompi_link_finish() < 0)
	{
		/* The 1st layer stopped (a lost peer, ranks that parted): StarPU-MPI holds receives that
		 * will never complete and MPI_Finalize would wait for the lost ranks. Nothing local is
		 * left to save (outputs are written, journals synced), so the process just has to end;
		 * mpirun ends the others. */
		char why[1024];
		_tuccompi_link_broken(); /* the reason the layer stopped, else the goodbyes' (link.c) */
		snprintf(why, sizeof(why), "%s", tuccompi_last_error());
		_tuccompi.initialized = 0;
		return _tuccompi_error(-ECONNABORTED,
				       "tuccompi_finalize: the job's 1st layer had stopped (%s); StarPU and MPI are left as they "
				       "are: end the process now with a non-zero status",
				       why);
	}
	_tuccompi_release_wait(); /* task sets' workspaces still being released (syn.c) */
	starpu_task_wait_for_all();
	_tuccompi_sched_ctx_free_all();
#ifdef TUCCOMPI_HAVE_MPI
	if (_tuccompi.mpi_active)
		starpu_mpi_shutdown();
	else
#endif
		starpu_shutdown();
	_tuccompi_models_free();
	/* This rank's FxT file is complete once StarPU is down: rank 0 waits for every rank's. */
	_tuccompi_trace_flushed(_tuccompi.rank);
	int rank = _tuccompi.rank;
	free(_tuccompi.nodes);
	_tuccompi.nodes = NULL;
	stop_mpi();
	/* After MPI_Finalize, so that forking the converter is safe. */
	int r2 = _tuccompi_trace_convert(rank);
	_tuccompi.initialized = 0;
	return ret < 0 ? ret : r2;
}
