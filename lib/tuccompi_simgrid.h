/* The simulated build only (configure --enable-simgrid, ./setup.sh --simgrid; docs/simulation.md):
 * configure forces this header into every file (-include), before anything else. Under SimGrid
 * all of a rank's threads are SimGrid actors run in turn by one OS thread: a plain pthread that
 * waits (a condition, a barrier, a sleep) would stop the whole simulation, and the real clock
 * means nothing. So the project's threads, locks, conditions and barriers become StarPU's
 * starpu_pthread_* (actors and SimGrid's own mutexes/conditions there), and every clock_gettime
 * reads the simulated time (starpu_timing_now). The real build never sees this file: its code
 * keeps plain pthreads and clocks, unchanged. <starpu.h> also renames main() into starpu_main(),
 * as StarPU's simulation needs. */
#ifndef TUCCOMPI_SIMGRID_H
#define TUCCOMPI_SIMGRID_H

/* as config.h says it, for the files that do not include config.h (the apps') */
#ifndef TUCCOMPI_SIMGRID
#define TUCCOMPI_SIMGRID 1
#endif

/* smpicc's smpi_helpers.h defines _GNU_SOURCE, so <pthread.h> wants cpu_set_t from <sched.h>;
 * the library's -I schedulers/ would find its own sched.h there instead: the system's first */
#if defined(__has_include) && __has_include(</usr/include/sched.h>)
#include </usr/include/sched.h>
#endif
#include <pthread.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>
#include <starpu.h>

static inline int tuccompi_sim_clock_gettime(clockid_t clk, struct timespec *ts)
{
	(void)clk;
	double us = starpu_timing_now();
	ts->tv_sec = (time_t)(us / 1e6);
	ts->tv_nsec = (long)((us - (double)ts->tv_sec * 1e6) * 1e3);
	if (ts->tv_nsec >= 1000000000L)
		ts->tv_nsec = 999999999L;
	return 0;
}

static inline int tuccompi_sim_nanosleep(const struct timespec *req, struct timespec *rem)
{
	if (rem)
		rem->tv_sec = rem->tv_nsec = 0;
	starpu_sleep((float)((double)req->tv_sec + (double)req->tv_nsec / 1e9));
	return 0;
}

static inline int tuccompi_sim_usleep(useconds_t us)
{
	starpu_usleep((float)us);
	return 0;
}

/* (SMPI's smpi_helpers.h, which smpicc forces in first, has its own: StarPU's are used, as not
 * every actor here is an MPI process; its malloc family, getopt and getpid are the C library's
 * again: a plug-in's ops->free would not compile, and an atexit handler's getpid crashed once
 * the simulation was over) */
#undef clock_gettime
#undef gettimeofday
#undef malloc
#undef calloc
#undef realloc
#undef free
#undef getopt
#undef getopt_long
#undef getopt_long_only
#undef getpid
#undef nanosleep
#undef usleep
#undef sleep
/* Timed waits. SimGrid 3.32's wait with a timeout, on a mutex that another actor holds when the
 * time is up, returns without the mutex: the next unlock aborts the simulation ("Cannot release
 * that mutex: you're not the owner"; seen with lib/link.c's two 50 ms waits on one mutex). So
 * the wait is on a mutex of its own, which nobody else ever holds, and the caller's mutex is
 * given up before and taken again after. A signal sent between the two is missed: the wait then
 * lasts until its deadline (the callers poll: they are woken at least every 100 ms). A
 * deadline already past: ETIMEDOUT at once, the mutex still held. */
static inline int tuccompi_sim_cond_timedwait(starpu_pthread_cond_t *c, starpu_pthread_mutex_t *m,
					      const struct timespec *abstime)
{
	struct timespec now;
	tuccompi_sim_clock_gettime(CLOCK_REALTIME, &now);
	double delay = (double)(abstime->tv_sec - now.tv_sec) + (double)(abstime->tv_nsec - now.tv_nsec) / 1e9;
	if (delay <= 0)
		return ETIMEDOUT;
	if (!*c)
		*c = sg_cond_init();
	sg_mutex_t own = sg_mutex_init();
	sg_mutex_lock(own);
	starpu_pthread_mutex_unlock(m);
	int timedout = sg_cond_wait_for(*c, own, delay);
	sg_mutex_unlock(own);
	sg_mutex_destroy(own);
	starpu_pthread_mutex_lock(m);
	return timedout ? ETIMEDOUT : 0;
}

/* StarPU-MPI's own work per message. SimGrid counts no computation (smpi/simulate-computation:no),
 * so a message costs only the network's time, while on a node StarPU-MPI's progression threads
 * spend time on each (the envelope, the handle's data, the callback) and a round trip between two
 * ranks lasts several times the wire's latency (docs/simulation.md). TUCCOMPI_SIM_MSG_US gives each
 * message that many microseconds of the receiving rank's progression thread, before the receive's
 * callback, which is where the MS master answers (ms_ranks.c): requests queue there as on a node.
 * (Both ends' work is spent there: a sender's thread may hold a lock while it sends, which a
 * receive's callback then waits for.) Unset: 0. */
#if defined(__has_include) && __has_include(<starpu_mpi.h>)
#include <stdlib.h>
#include <starpu_mpi.h>

static inline float tuccompi_sim_msg_us(void)
{
	static float us = -1;
	if (us < 0)
	{
		const char *v = getenv("TUCCOMPI_SIM_MSG_US");
		us = v && *v ? (float)atof(v) : 0;
		if (!(us >= 0))
			us = 0;
	}
	return us;
}

struct tuccompi_sim_rx
{
	void (*cb)(void *);
	void *arg;
};

static inline void tuccompi_sim_rx_done(void *p)
{
	struct tuccompi_sim_rx x = *(struct tuccompi_sim_rx *)p;
	free(p);
	starpu_usleep(tuccompi_sim_msg_us());
	if (x.cb)
		x.cb(x.arg);
}

static inline int tuccompi_sim_irecv_detached(starpu_data_handle_t h, int src, starpu_mpi_tag_t tag, MPI_Comm comm,
					      void (*cb)(void *), void *arg)
{
	struct tuccompi_sim_rx *x = tuccompi_sim_msg_us() > 0 ? malloc(sizeof(*x)) : NULL;
	if (!x)
		return starpu_mpi_irecv_detached(h, src, tag, comm, cb, arg);
	x->cb = cb;
	x->arg = arg;
	return starpu_mpi_irecv_detached(h, src, tag, comm, tuccompi_sim_rx_done, x);
}

#define starpu_mpi_irecv_detached tuccompi_sim_irecv_detached
#endif

#define clock_gettime tuccompi_sim_clock_gettime
#define nanosleep tuccompi_sim_nanosleep
#define usleep tuccompi_sim_usleep

#define pthread_t starpu_pthread_t
#define pthread_attr_t starpu_pthread_attr_t
#define pthread_create starpu_pthread_create
#define pthread_join starpu_pthread_join
#define pthread_mutex_t starpu_pthread_mutex_t
#define pthread_mutex_init starpu_pthread_mutex_init
#define pthread_mutex_destroy starpu_pthread_mutex_destroy
#define pthread_mutex_lock starpu_pthread_mutex_lock
#define pthread_mutex_unlock starpu_pthread_mutex_unlock
#define pthread_mutex_trylock starpu_pthread_mutex_trylock
#undef PTHREAD_MUTEX_INITIALIZER
#define PTHREAD_MUTEX_INITIALIZER STARPU_PTHREAD_MUTEX_INITIALIZER
#define pthread_cond_t starpu_pthread_cond_t
#define pthread_cond_init starpu_pthread_cond_init
#define pthread_cond_destroy starpu_pthread_cond_destroy
#define pthread_cond_wait starpu_pthread_cond_wait
#define pthread_cond_timedwait tuccompi_sim_cond_timedwait
#undef starpu_pthread_cond_timedwait
#define starpu_pthread_cond_timedwait tuccompi_sim_cond_timedwait
#define pthread_cond_signal starpu_pthread_cond_signal
#define pthread_cond_broadcast starpu_pthread_cond_broadcast
#undef PTHREAD_COND_INITIALIZER
#define PTHREAD_COND_INITIALIZER STARPU_PTHREAD_COND_INITIALIZER
#define pthread_barrier_t starpu_pthread_barrier_t
#define pthread_barrier_init starpu_pthread_barrier_init
#define pthread_barrier_destroy starpu_pthread_barrier_destroy
#define pthread_barrier_wait starpu_pthread_barrier_wait

#endif
