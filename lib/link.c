/* The 1st layer's transport: every message one rank of the library sends another goes through
 * StarPU-MPI (starpu_mpi_isend_detached / starpu_mpi_irecv_detached on handles registered for the
 * message), so that FxT records it and starpu_fxt_tool draws it in ViTE; the library makes no MPI
 * call of its own once StarPU-MPI runs, and needs no thread level beyond StarPU-MPI's.
 *
 * Messages. A message has one tag, used once per (source, destination) pair: StarPU-MPI matches
 * a receive by source and tag and may reorder sends of one tag, so every stream of messages numbers
 * them (link.h: _tuccompi_tag). Sender and receiver agree on each message's exact size (StarPU-MPI
 * needs it: a receive of another size aborts the process); messages above LINK_SLICE bytes travel
 * as several. Receives land in buffers of the layer's own, copied out once complete, so a receive
 * given up on (its peer lost) can still complete later without writing into freed memory.
 *
 * Liveness (a thread of its own, the link thread). Every rank but 0 sends rank 0 a heartbeat every
 * LINK_HB_PERIOD_MAX seconds at most, and rank 0 sends every other rank one, so that rank 0 hears of
 * every rank and every rank of rank 0. A peer not heard from (any message counts) for
 * TUCCOMPI_PEER_TIMEOUT seconds (default LINK_TIMEOUT_DEFAULT; 0: never) is lost: its host or the
 * link to it is down, or the process is stuck. Heartbeats start once a peer has been heard from at
 * all, so a slow start-up (StarPU's bus calibration) is not a loss.
 *
 * Abort notices. A rank that must leave the library's sequence of collective calls (a local error
 * where its peers wait for it, a lost peer, ranks that disagree) stops the layer: it records why,
 * fails the task sets in flight, and tells rank 0, which tells every other rank. From then on every
 * call that would communicate fails at once with that message, on every rank that can still be
 * reached: nobody is left waiting. The layer cannot be restarted; the program ends (finalize then
 * only tidies what is local: a StarPU-MPI with receives that will never complete cannot be shut
 * down, and an MPI_Finalize with a lost peer would hang).
 *
 * Shutdown. After finalize's barrier, ranks say goodbye on the control streams (rank 0 to every
 * rank, every rank to rank 0), which completes the receives each has posted; StarPU-MPI then stops
 * with nothing pending. */
#include "link.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifdef TUCCOMPI_HAVE_MPI
#include <starpu_mpi.h>
#endif

#define LINK_TIMEOUT_DEFAULT 10.0
#define LINK_HB_PERIOD_MAX 0.5
#define LINK_SLICE (1u << 30)
#define LINK_BYE_WAIT_S 10.0 /* at least; TUCCOMPI_PEER_TIMEOUT when longer */

enum ctrl_kind
{
	CTRL_HB = 1,
	CTRL_ABORT,
	CTRL_BYE,
};

/* A control message (heartbeat, abort notice, goodbye): fixed size, as every stream's. */
struct ctrl_msg
{
	int32_t kind;
	int32_t origin; /* ABORT: the rank the failure is about */
	int32_t code;   /* ABORT: the error (negative errno) */
	int32_t pad;
	char host[64];  /* the sender's host name */
	char msg[TUCCOMPI_LINK_MSG];
};

struct link_peer
{
	double last_heard;       /* 0: never */
	uint64_t ctrl_sent;      /* control messages sent to it (the next one's number) */
	uint64_t ctrl_recvd;     /* control messages received from it */
	struct _tuccompi_recv *ctrl_rx; /* the posted receive of its next control message */
	int bye, talks;          /* it said goodbye; we exchange control messages with it */
	char host[64];
};

struct pending_abort
{
	int origin, code, except;
	char msg[TUCCOMPI_LINK_MSG];
};

static struct
{
	int on;
	starpu_pthread_mutex_t lock;
	starpu_pthread_cond_t cond; /* any receive completed, the layer stopped, the thread should act */
	struct link_peer *peer;
	double timeout, hb_period;
	int stop, thread_running, closing, bye_sent;
	starpu_pthread_t thread;
	_Atomic long sends_inflight;
	/* the layer stopped: why (first wins) */
	int broken;
	struct _tuccompi_fail broken_fail;
	/* abort notices for the link thread to send */
	struct pending_abort *aborts;
	int naborts, aborts_cap;
	char host[64];
} L;

int _tuccompi_link_on(void)
{
	return L.on;
}

int64_t _tuccompi_tag(enum _tuccompi_tag_kind kind, uint64_t hi, uint64_t lo)
{
	return (int64_t)((1ull << 62) | ((uint64_t)kind << 56) | ((hi & 0xfffffffull) << 28) | (lo & 0xfffffffull));
}

const char *_tuccompi_link_host(int rank)
{
	if (rank == _tuccompi.rank || !L.peer)
		return L.host;
	return L.peer[rank].host[0] ? L.peer[rank].host : "?";
}

/* ------------------------------------------------------------------ sending */

#ifdef TUCCOMPI_HAVE_MPI
struct out
{
	starpu_data_handle_t h;
	void *buf;
};

static void sent_cb(void *arg)
{
	struct out *o = arg;
	/* the request has released the handle; nothing reads the buffer any more */
	starpu_data_unregister_submit(o->h);
	free(o->buf);
	free(o);
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	L.sends_inflight--;
	STARPU_PTHREAD_COND_BROADCAST(&L.cond);
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
}

static int send_one(int dest, int64_t tag, const void *buf, size_t len)
{
	struct out *o = malloc(sizeof(*o));
	void *copy = malloc(len ? len : 1);
	if (!o || !copy)
	{
		free(o);
		free(copy);
		return _tuccompi_error(-ENOMEM, "out of memory for a message of %zu bytes to rank %d", len, dest);
	}
	memcpy(copy, buf, len);
	o->buf = copy;
	starpu_variable_data_register(&o->h, STARPU_MAIN_RAM, (uintptr_t)copy, len ? len : 1);
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	L.sends_inflight++;
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	int ret = starpu_mpi_isend_detached(o->h, dest, tag, MPI_COMM_WORLD, sent_cb, o);
	if (ret != 0)
	{
		STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
		L.sends_inflight--;
		STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
		starpu_data_unregister(o->h);
		free(copy);
		free(o);
		return _tuccompi_error(-EIO, "StarPU-MPI refused to send %zu bytes to rank %d (starpu_mpi_isend_detached: %d)",
				       len, dest, ret);
	}
	return 0;
}
#endif

int _tuccompi_link_send(int dest, int64_t tag, const void *buf, size_t len)
{
#ifdef TUCCOMPI_HAVE_MPI
	if (!L.on)
		return _tuccompi_error(-ENOTCONN, "no 1st layer: this rank runs alone");
	if (L.broken)
		return _tuccompi_link_broken();
	/* slices of LINK_SLICE bytes (MPI counts are ints); the receiver expects the same cut */
	size_t nslices = len ? (len + LINK_SLICE - 1) / LINK_SLICE : 1;
	for (size_t k = 0; k < nslices; k++)
	{
		size_t off = k * (size_t)LINK_SLICE, n = len - off < LINK_SLICE ? len - off : LINK_SLICE;
		int ret = send_one(dest, tag + (int64_t)k, (const char *)buf + off, n);
		if (ret < 0)
			return ret;
	}
	return 0;
#else
	(void)dest;
	(void)tag;
	(void)buf;
	(void)len;
	return _tuccompi_error(-ENOSYS, "no 1st layer: built without MPI");
#endif
}

/* ------------------------------------------------------------------ receiving */

struct _tuccompi_recv
{
	int src;
	int64_t tag;
	size_t len, nslices;
	char *buf;
	_Atomic size_t ndone; /* slices received */
	int waited;           /* wait() returned success: the caller owns buf until recv_free */
	_tuccompi_recv_cb cb;
	void *cb_arg;
#ifdef TUCCOMPI_HAVE_MPI
	starpu_data_handle_t *h;
#endif
};

static void heard(int src)
{
	if (L.peer && src >= 0 && src < _tuccompi.nranks)
		L.peer[src].last_heard = _tuccompi_now();
}

#ifdef TUCCOMPI_HAVE_MPI
struct slice_arg
{
	struct _tuccompi_recv *r;
	size_t k;
};

static void recv_cb(void *arg)
{
	struct slice_arg *sa = arg;
	struct _tuccompi_recv *r = sa->r;
	free(sa);
	/* once the last slice is counted a waiter may free r: read it first */
	int src = r->src;
	size_t nslices = r->nslices;
	_tuccompi_recv_cb cb = r->cb;
	size_t done = atomic_fetch_add(&r->ndone, 1) + 1;
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	heard(src);
	STARPU_PTHREAD_COND_BROADCAST(&L.cond);
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	if (done == nslices && cb)
	{
		/* A callback receive: the layer tidies it once the callback returns (we may be in
		 * StarPU-MPI's progression thread: no synchronous unregistration here). */
		r->cb(r, r->cb_arg);
		for (size_t k = 0; k < r->nslices; k++)
			starpu_data_unregister_submit(r->h[k]);
		free(r->h);
		free(r->buf);
		free(r);
	}
}
#endif

struct _tuccompi_recv *_tuccompi_link_recv_post(int src, int64_t tag, size_t len, _tuccompi_recv_cb cb, void *cb_arg)
{
#ifdef TUCCOMPI_HAVE_MPI
	if (!L.on || L.broken)
	{
		if (L.broken)
			_tuccompi_link_broken();
		else
			_tuccompi_error(-ENOTCONN, "no 1st layer: this rank runs alone");
		return NULL;
	}
	struct _tuccompi_recv *r = calloc(1, sizeof(*r));
	size_t nslices = len ? (len + LINK_SLICE - 1) / LINK_SLICE : 1;
	if (r)
	{
		r->buf = malloc(len ? len : 1);
		r->h = calloc(nslices, sizeof(*r->h));
	}
	if (!r || !r->buf || !r->h)
	{
		if (r)
		{
			free(r->buf);
			free(r->h);
		}
		free(r);
		_tuccompi_error(-ENOMEM, "out of memory for a message of %zu bytes from rank %d", len, src);
		return NULL;
	}
	r->src = src;
	r->tag = tag;
	r->len = len;
	r->nslices = nslices;
	r->cb = cb;
	r->cb_arg = cb_arg;
	for (size_t k = 0; k < nslices; k++)
	{
		size_t off = k * (size_t)LINK_SLICE, n = len - off < LINK_SLICE ? len - off : LINK_SLICE;
		starpu_variable_data_register(&r->h[k], STARPU_MAIN_RAM, (uintptr_t)(r->buf + off), n ? n : 1);
	}
	/* Post every slice; a callback may run before starpu_mpi_irecv_detached returns (the data
	 * was already there), in this thread: no lock is held here that a callback takes. */
	for (size_t k = 0; k < nslices; k++)
	{
		struct slice_arg *sa = malloc(sizeof(*sa));
		STARPU_ASSERT_MSG(sa, "out of memory");
		sa->r = r;
		sa->k = k;
		int ret = starpu_mpi_irecv_detached(r->h[k], src, tag + (int64_t)k, MPI_COMM_WORLD, recv_cb, sa);
		STARPU_ASSERT_MSG(ret == 0, "starpu_mpi_irecv_detached failed: %d", ret);
	}
	return r;
#else
	(void)src;
	(void)tag;
	(void)len;
	(void)cb;
	(void)cb_arg;
	_tuccompi_error(-ENOSYS, "no 1st layer: built without MPI");
	return NULL;
#endif
}

const void *_tuccompi_recv_data(const struct _tuccompi_recv *r)
{
	return r->buf;
}

size_t _tuccompi_recv_len(const struct _tuccompi_recv *r)
{
	return r->len;
}

int _tuccompi_recv_src(const struct _tuccompi_recv *r)
{
	return r->src;
}

static int peer_lost_locked(int src, double now)
{
	if (L.timeout <= 0 || !L.peer || src < 0 || src >= _tuccompi.nranks)
		return 0;
	/* rank 0 hears from every rank; the others hear from rank 0 (and learn of the rest from it) */
	int watch = _tuccompi.rank == 0 ? src : 0;
	const struct link_peer *p = &L.peer[watch];
	return p->last_heard > 0 && !p->bye && now - p->last_heard > L.timeout;
}

/* Nothing heard from the peer watched for @src for three heartbeat periods. */
static int peer_silent_locked(int src, double now)
{
	if (L.timeout <= 0 || !L.peer || src < 0 || src >= _tuccompi.nranks)
		return 0;
	int watch = _tuccompi.rank == 0 ? src : 0;
	const struct link_peer *p = &L.peer[watch];
	return p->last_heard > 0 && !p->bye && now - p->last_heard > 3 * L.hb_period;
}

int _tuccompi_link_recv_wait(struct _tuccompi_recv *r, double deadline, const char *what)
{
	int ret = 0;
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	for (;;)
	{
		if (atomic_load(&r->ndone) == r->nslices)
			break;
		double now = _tuccompi_now();
		if (L.broken)
		{
			ret = -1;
			break;
		}
		if (peer_lost_locked(r->src, now))
		{
			ret = -2;
			break;
		}
		/* Past the deadline the peer is stuck only if it is still heard from: when its heartbeats
		 * have stopped (a link cut after the request left), wait for peer_lost_locked to say
		 * so, or a lost host was reported as a stuck process (tests/hosts/link_down.sh) */
		if (deadline > 0 && now > deadline && !peer_silent_locked(r->src, now))
		{
			ret = -3;
			break;
		}
		/* woken by every completion and by the link thread; poll the clock now and then */
		double until = now + 0.05;
		if (deadline > 0 && deadline < until)
			until = deadline;
		struct timespec ts;
		_tuccompi_abstime(until - now, &ts);
		starpu_pthread_cond_timedwait(&L.cond, &L.lock, &ts);
	}
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	if (ret == 0)
	{
#ifdef TUCCOMPI_HAVE_MPI
		for (size_t k = 0; k < r->nslices; k++)
			starpu_data_unregister(r->h[k]);
		free(r->h);
		r->h = NULL;
#endif
		r->waited = 1;
		return 0;
	}
	/* Given up: the receive stays posted and owns its buffer (leaked: the layer is down). */
	if (ret == -1)
		return _tuccompi_link_broken();
	if (ret == -2)
	{
		int lost = _tuccompi.rank == 0 ? r->src : 0;
		_tuccompi_link_stop_all(-ETIMEDOUT, 1,
					"rank %d (host %s) has not been heard from in %.0f s (rank %d was waiting for %s from rank "
					"%d): its host or the link to it is down, or the process is stuck (TUCCOMPI_PEER_TIMEOUT=%g s)",
					lost, _tuccompi_link_host(lost), L.timeout, _tuccompi.rank, what, r->src, L.timeout);
		return _tuccompi_link_broken();
	}
	_tuccompi_link_stop_all(-ETIMEDOUT, 1,
				"rank %d (host %s) is alive but has not sent %s in %.0f s: it is stuck "
				"(TUCCOMPI_PEER_TIMEOUT=%g s; 0 waits forever)",
				r->src, _tuccompi_link_host(r->src), what, L.timeout, L.timeout);
	return _tuccompi_link_broken();
}

void _tuccompi_recv_free(struct _tuccompi_recv *r)
{
	if (!r || !r->waited)
		return; /* a receive given up on stays posted */
	free(r->buf);
	free(r);
}

void *_tuccompi_recv_take(struct _tuccompi_recv *r)
{
	if (!r || !r->waited)
		return NULL;
	void *buf = r->buf;
	free(r);
	return buf;
}

int _tuccompi_link_recv(int src, int64_t tag, void *buf, size_t len, const char *what)
{
	struct _tuccompi_recv *r = _tuccompi_link_recv_post(src, tag, len, NULL, NULL);
	if (!r)
		return L.broken ? _tuccompi_link_broken() : -ENOMEM;
	int ret = _tuccompi_link_recv_wait(r, 0, what);
	if (ret == 0)
	{
		memcpy(buf, r->buf, len);
		_tuccompi_recv_free(r);
	}
	return ret;
}

double _tuccompi_link_timeout(void)
{
	return L.timeout;
}

/* ------------------------------------------------------------------ stopping the layer */

int _tuccompi_link_broken(void)
{
	if (!L.broken)
		return 0;
	return _tuccompi_fail_raise(&L.broken_fail);
}

/* lock held */
static void queue_abort_locked(int origin, int code, int except, const char *msg)
{
	if (L.naborts == L.aborts_cap)
	{
		int cap = L.aborts_cap ? 2 * L.aborts_cap : 4;
		struct pending_abort *a = realloc(L.aborts, (size_t)cap * sizeof(*a));
		if (!a)
			return;
		L.aborts = a;
		L.aborts_cap = cap;
	}
	struct pending_abort *a = &L.aborts[L.naborts++];
	a->origin = origin;
	a->code = code;
	a->except = except;
	snprintf(a->msg, sizeof(a->msg), "%s", msg);
}

static void stop_locked(int err, const char *msg, int tell, int except)
{
	if (L.broken)
		return;
	L.broken = 1;
	_tuccompi_fail_set(&L.broken_fail, err, "%s", msg);
	if (tell && L.on)
		queue_abort_locked(_tuccompi.rank, L.broken_fail.err, except, msg);
	STARPU_PTHREAD_COND_BROADCAST(&L.cond);
}

static void fail_sets(void)
{
	_tuccompi_sets_fail_all(L.broken_fail.err, L.broken_fail.msg);
}

/* A rank its launcher cannot reach any more (its host cut off) prints through its host's daemon,
 * which cannot pass its lines on: so a rank that stops for a lost or stuck peer, on its own finding
 * (and rank 0 always), also writes why into a file of its own, DIR/tuccompi-JOB-rankN.log, DIR being
 * TUCCOMPI_STOP_LOG (default the working folder, which a cluster's hosts usually share; 0: none),
 * and its line on stderr names them. */
static char account_path[768], account_names[768];

static void account_open(void)
{
	const char *dir = getenv("TUCCOMPI_STOP_LOG"), *job = getenv("PMIX_NAMESPACE");
	char cwd[512], base[600], j[64];
	if (dir && !strcmp(dir, "0"))
		return;
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	if (!dir || !dir[0] || !strcmp(dir, "."))
		snprintf(base, sizeof(base), "%s", cwd);
	else
		snprintf(base, sizeof(base), "%s%s%s", dir[0] == '/' ? "" : cwd, dir[0] == '/' ? "" : "/", dir);
	if (!job)
		job = getenv("OMPI_MCA_ess_base_jobid");
	snprintf(j, sizeof(j), "%s", job ? job : "job");
	for (char *c = j; *c; c++)
		if (*c == '/' || *c == ' ')
			*c = '_';
	snprintf(account_path, sizeof(account_path), "%s/tuccompi-%s-rank%d.log", base, j, _tuccompi.rank);
	snprintf(account_names, sizeof(account_names), "%s/tuccompi-%s-rankN.log", base, j);
}

static void account(const char *fmt, ...) TUCCOMPI_PRINTF(1, 2);
static void account(const char *fmt, ...)
{
	FILE *f = account_path[0] ? fopen(account_path, "a") : NULL;
	if (!f)
	{
		account_path[0] = '\0';
		return;
	}
	char when[32];
	time_t t = time(NULL);
	struct tm tm;
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime_r(&t, &tm));
	fprintf(f, "%s rank %d/%d on host %s, pid %d: ", when, _tuccompi.rank, _tuccompi.nranks, L.host, (int)getpid());
	va_list ap;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	if (fclose(f) != 0)
		account_path[0] = '\0';
}

/* The layer has just stopped on this rank (no lock held; @told: the rank that said so, or -1): its
 * line, its account, the watch on Open MPI's launcher for a lost or stuck peer (comm.c), the sets
 * failed. */
static void stopped(int told)
{
	char how[32] = "", where[900] = "";
	int lost = L.broken_fail.err == -ETIMEDOUT;
	if (told >= 0)
		snprintf(how, sizeof(how), " (told by rank %d)", told);
	if (lost && (told < 0 || _tuccompi.rank == 0))
	{
		account_open();
		account("the job's 1st layer is stopped%s: %s", how, L.broken_fail.msg);
		if (account_path[0])
			snprintf(where, sizeof(where), " [each rank's account: %s, on its host]", account_names);
	}
	_tuccompi_warn("the job's 1st layer is stopped%s: %s%s", how, L.broken_fail.msg, where);
	if (lost && L.timeout > 0)
		_tuccompi_launcher_watch(account_path);
	fail_sets();
}

void _tuccompi_link_stop_all(int err, int tell, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!L.on)
		return;
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	int first = !L.broken;
	stop_locked(err, msg, tell, -1);
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	if (first)
		stopped(-1);
}

/* ------------------------------------------------------------------ the link thread */

#ifdef TUCCOMPI_HAVE_MPI
static void ctrl_send(int peer, int kind, int origin, int code, const char *msg)
{
	struct ctrl_msg m;
	memset(&m, 0, sizeof(m));
	m.kind = kind;
	m.origin = origin;
	m.code = code;
	snprintf(m.host, sizeof(m.host), "%s", L.host);
	if (msg)
		snprintf(m.msg, sizeof(m.msg), "%s", msg);
	uint64_t k = L.peer[peer].ctrl_sent++;
	if (send_one(peer, _tuccompi_tag(TUCCOMPI_TAG_CTRL, k >> 28, k), &m, sizeof(m)) < 0)
		_tuccompi_warn("cannot send a control message to rank %d: %s", peer, tuccompi_last_error());
}

static void ctrl_post(int peer)
{
	uint64_t k = L.peer[peer].ctrl_recvd;
	L.peer[peer].ctrl_rx = _tuccompi_link_recv_post(peer, _tuccompi_tag(TUCCOMPI_TAG_CTRL, k >> 28, k), sizeof(struct ctrl_msg),
							NULL, NULL);
}

/* A control message arrived from @peer (no lock held). */
static void ctrl_handle(int peer, const struct ctrl_msg *m)
{
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	snprintf(L.peer[peer].host, sizeof(L.peer[peer].host), "%s", m->host);
	int first = 0, also = 0;
	if (m->kind == CTRL_BYE)
		L.peer[peer].bye = 1;
	else if (m->kind == CTRL_ABORT && L.broken)
		also = _tuccompi.rank == 0; /* its own reason, which rank 0 still shows */
	else if (m->kind == CTRL_ABORT)
	{
		char msg[TUCCOMPI_LINK_MSG + 64];
		/* the message names the rank it is about already */
		snprintf(msg, sizeof(msg), "%s", m->msg);
		first = 1;
		/* rank 0 passes it on to every rank but the one it came from */
		stop_locked(m->code, msg, _tuccompi.rank == 0, peer);
	}
	STARPU_PTHREAD_COND_BROADCAST(&L.cond);
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	if (first)
		stopped(peer);
	if (also)
	{
		_tuccompi_warn("rank %d stopped too: %s", peer, m->msg);
		if (account_path[0])
			account("rank %d stopped too: %s", peer, m->msg);
	}
}

static void *link_thread(void *arg)
{
	(void)arg;
	int n = _tuccompi.nranks, me = _tuccompi.rank;
	/* the ranks' heartbeats spread over a period: started together, rank 0 received every rank's
	 * at once, and its StarPU-MPI thread answered nothing else meanwhile (docs/simulation.md) */
	double next_hb = _tuccompi_now() + L.hb_period * me / n;
	for (int p = 0; p < n; p++)
		if (L.peer[p].talks)
			ctrl_post(p);
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	while (!L.stop)
	{
		/* control messages that arrived */
		for (int p = 0; p < n; p++)
		{
			struct _tuccompi_recv *r = L.peer[p].ctrl_rx;
			if (!r || atomic_load(&r->ndone) != r->nslices)
				continue;
			STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
			_tuccompi_link_recv_wait(r, 0, "a control message");
			struct ctrl_msg m;
			memcpy(&m, r->buf, sizeof(m));
			_tuccompi_recv_free(r);
			L.peer[p].ctrl_rx = NULL;
			L.peer[p].ctrl_recvd++;
			ctrl_handle(p, &m);
			if (m.kind != CTRL_BYE && !L.broken)
				ctrl_post(p);
			STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
		}
		/* abort notices to send */
		while (L.naborts > 0)
		{
			struct pending_abort a = L.aborts[--L.naborts];
			STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
			for (int p = 0; p < n; p++)
				if (L.peer[p].talks && p != a.except && !L.peer[p].bye)
					ctrl_send(p, CTRL_ABORT, a.origin, a.code, a.msg);
			STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
		}
		if (L.closing && !L.bye_sent && !L.broken)
		{
			L.bye_sent = 1;
			STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
			for (int p = 0; p < n; p++)
				if (L.peer[p].talks)
					ctrl_send(p, CTRL_BYE, me, 0, NULL);
			STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
		}
		double now = _tuccompi_now();
		if (!L.broken && !L.closing && now >= next_hb)
		{
			STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
			for (int p = 0; p < n; p++)
				if (L.peer[p].talks)
					ctrl_send(p, CTRL_HB, me, 0, NULL);
			STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
			next_hb = now + L.hb_period;
		}
		/* silent peers: rank 0 watches every rank, the others rank 0 */
		if (!L.broken && !L.closing && L.timeout > 0)
			for (int p = 0; p < n; p++)
				if (L.peer[p].talks && peer_lost_locked(p, now))
				{
					char msg[1024];
					snprintf(msg, sizeof(msg),
						 "rank %d (host %s) has not been heard from in %.0f s: its host or the link to it is down, "
						 "or the process is stuck (TUCCOMPI_PEER_TIMEOUT=%g s)",
						 p, L.peer[p].host[0] ? L.peer[p].host : "?", now - L.peer[p].last_heard, L.timeout);
					stop_locked(-ETIMEDOUT, msg, me == 0, p);
					STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
					stopped(-1);
					STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
					break;
				}
		if (L.stop || L.naborts || (L.closing && !L.bye_sent && !L.broken))
			continue;
		int ready = 0;
		for (int p = 0; p < n && !ready; p++)
			ready = L.peer[p].ctrl_rx && atomic_load(&L.peer[p].ctrl_rx->ndone) == L.peer[p].ctrl_rx->nslices;
		if (ready)
			continue;
		double wait = next_hb - _tuccompi_now();
		if (wait > 0.1)
			wait = 0.1;
		if (wait < 0.001)
			wait = 0.001;
		struct timespec ts;
		_tuccompi_abstime(wait, &ts);
		starpu_pthread_cond_timedwait(&L.cond, &L.lock, &ts);
	}
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	return NULL;
}
#endif

static double env_timeout(void)
{
	double v;
	if (_tuccompi_env_number("TUCCOMPI_PEER_TIMEOUT", LINK_TIMEOUT_DEFAULT, 0, 1e9, &v) < 0)
		v = LINK_TIMEOUT_DEFAULT; /* changed since tuccompi_init, which refused a bad value */
	return v;
}

int _tuccompi_link_start(void)
{
	memset(&L, 0, sizeof(L));
	STARPU_PTHREAD_MUTEX_INIT(&L.lock, NULL);
	STARPU_PTHREAD_COND_INIT(&L.cond, NULL);
	if (gethostname(L.host, sizeof(L.host) - 1) != 0)
		snprintf(L.host, sizeof(L.host), "?");
#ifdef TUCCOMPI_HAVE_MPI
	if (!_tuccompi.mpi_active || _tuccompi.nranks < 2)
		return 0;
	L.timeout = env_timeout();
	L.hb_period = L.timeout > 0 && L.timeout / 10 < LINK_HB_PERIOD_MAX ? L.timeout / 10 : LINK_HB_PERIOD_MAX;
	L.peer = calloc((size_t)_tuccompi.nranks, sizeof(*L.peer));
	if (!L.peer)
		return _tuccompi_error(-ENOMEM, "out of memory");
	for (int p = 0; p < _tuccompi.nranks; p++)
		L.peer[p].talks = p != _tuccompi.rank && (_tuccompi.rank == 0 || p == 0);
	L.on = 1;
	if (starpu_pthread_create(&L.thread, NULL, link_thread, NULL) != 0)
	{
		L.on = 0;
		free(L.peer);
		L.peer = NULL;
		return _tuccompi_error(-EAGAIN, "cannot start the 1st layer's thread");
	}
	L.thread_running = 1;
#endif
	return 0;
}

int _tuccompi_link_finish(void)
{
	if (!L.on)
		return 0;
	int clean = !L.broken;
#ifdef TUCCOMPI_HAVE_MPI
	if (clean)
	{
		/* goodbye on every control stream, then wait for the peers' */
		STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
		L.closing = 1; /* the link thread says goodbye */
		STARPU_PTHREAD_COND_BROADCAST(&L.cond);
		STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
		/* a peer may be as slow to say goodbye as it may be silent in a run: the peer timeout,
		 * when longer (an overloaded machine running many ranks can be slow to end them) */
		double bye_wait = L.timeout > LINK_BYE_WAIT_S ? L.timeout : LINK_BYE_WAIT_S;
		double until = _tuccompi_now() + bye_wait;
		STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
		for (;;)
		{
			int waiting = 0;
			for (int p = 0; p < _tuccompi.nranks; p++)
				waiting += L.peer[p].talks && !L.peer[p].bye;
			if ((!waiting && L.bye_sent && L.sends_inflight == 0) || L.broken || _tuccompi_now() > until)
				break;
			struct timespec ts;
			_tuccompi_abstime(0.02, &ts);
			starpu_pthread_cond_timedwait(&L.cond, &L.lock, &ts);
		}
		int waiting = 0;
		char silent[256] = "";
		for (int p = 0; p < _tuccompi.nranks; p++)
			if (L.peer[p].talks && !L.peer[p].bye)
			{
				size_t at = strlen(silent);
				if (waiting++ < 8)
					snprintf(silent + at, sizeof(silent) - at, "%s%d", waiting > 1 ? ", " : "", p);
				else if (waiting == 9)
					snprintf(silent + at, sizeof(silent) - at, ", ...");
			}
		long inflight = L.sends_inflight;
		clean = !L.broken && !waiting && inflight == 0;
		if (!clean && !L.broken && waiting)
			_tuccompi_launcher_watch(NULL); /* a host lost at the very end: mpirun would wait for it */
		if (!clean && !L.broken)
			_tuccompi_error(-ETIMEDOUT,
					"after %.0f s, %s%s%s%s%ld of this rank's messages not yet delivered (a rank stuck or its host "
					"unreachable at the end of the job; TUCCOMPI_PEER_TIMEOUT sets how long to wait)",
					bye_wait, waiting ? "no goodbye from rank(s) " : "", silent, waiting ? "; " : "",
					L.bye_sent ? "" : "this rank's goodbye not sent; ", inflight);
		STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	}
	STARPU_PTHREAD_MUTEX_LOCK(&L.lock);
	if (!clean)
	{
		/* the abort notices still to leave go first (the peers must hear why) */
		double until = _tuccompi_now() + LINK_BYE_WAIT_S;
		while ((L.naborts > 0 || L.sends_inflight > 0) && _tuccompi_now() < until)
		{
			struct timespec ts;
			_tuccompi_abstime(0.01, &ts);
			starpu_pthread_cond_timedwait(&L.cond, &L.lock, &ts);
		}
	}
	L.stop = 1;
	STARPU_PTHREAD_COND_BROADCAST(&L.cond);
	STARPU_PTHREAD_MUTEX_UNLOCK(&L.lock);
	if (L.thread_running)
		starpu_pthread_join(L.thread, NULL);
	L.thread_running = 0;
#endif
	/* A layer that stopped keeps its state (and leaks its posted receives): the process ends. */
	if (clean)
	{
		free(L.peer);
		L.peer = NULL;
		free(L.aborts);
		L.aborts = NULL;
		L.on = 0;
	}
	return clean ? 0 : -1;
}
