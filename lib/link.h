/* The 1st layer's transport over StarPU-MPI (link.c) and the collectives built on it (comm.c).
 * Internal. */
#ifndef TUCCOMPI_LINK_H
#define TUCCOMPI_LINK_H

#include "internal.h"

/* Text carried by control messages and collective headers (an error line). */
#define TUCCOMPI_LINK_MSG 896

/* The library's StarPU-MPI tags: bit 62 set (an application's own StarPU-MPI tags should stay
 * below 2^62), the stream's kind in bits 56-59, two 28-bit fields below. Every message of a
 * stream has a tag of its own (link.c says why). */
enum _tuccompi_tag_kind
{
	TUCCOMPI_TAG_CTRL = 1, /* heartbeats, abort notices, goodbyes: hi:lo = message number */
	TUCCOMPI_TAG_COLL,     /* collectives: hi = collective number, lo = step and slice */
	TUCCOMPI_TAG_MS_REQ,   /* MS requests to the master: hi = set serial, lo = request number */
	TUCCOMPI_TAG_MS_GRANT, /* the master's grants: same numbers */
};
TUCCOMPI_INTERNAL int64_t _tuccompi_tag(enum _tuccompi_tag_kind kind, uint64_t hi, uint64_t lo);

/* Start the layer after StarPU-MPI (several ranks: the link thread, heartbeats); 0 alone. */
TUCCOMPI_INTERNAL int _tuccompi_link_start(void);
/* After finalize's barrier: goodbyes, thread joined. 0 when StarPU-MPI may shut down (nothing is
 * pending), -1 when the layer had stopped (then neither StarPU-MPI nor MPI can be shut down). */
TUCCOMPI_INTERNAL int _tuccompi_link_finish(void);
/* Several ranks and the layer up. */
TUCCOMPI_INTERNAL int _tuccompi_link_on(void);
/* TUCCOMPI_PEER_TIMEOUT in seconds (0: none). */
TUCCOMPI_INTERNAL double _tuccompi_link_timeout(void);
/* The host name of a rank (as its messages said; "?" before any). */
TUCCOMPI_INTERNAL const char *_tuccompi_link_host(int rank);

/* Send @len bytes (copied: @buf may be reused at once). Sizes must match the receive's exactly. */
TUCCOMPI_INTERNAL int _tuccompi_link_send(int dest, int64_t tag, const void *buf, size_t len);

/* A posted receive of exactly @len bytes. With @cb, the callback runs once it has arrived (in
 * StarPU-MPI's thread or in the posting one: it must not block, nor take a lock the poster may
 * hold) and the layer frees the receive after it; without, wait for it with
 * _tuccompi_link_recv_wait(), read _tuccompi_recv_data(), then _tuccompi_recv_free(). */
struct _tuccompi_recv;
typedef void (*_tuccompi_recv_cb)(struct _tuccompi_recv *r, void *arg);
TUCCOMPI_INTERNAL struct _tuccompi_recv *_tuccompi_link_recv_post(int src, int64_t tag, size_t len, _tuccompi_recv_cb cb,
								    void *cb_arg);
/* Wait for a posted receive: 0, or an error (on every rank that can be told) when the layer
 * stops, the peer is lost, or @deadline (absolute, _tuccompi_now(); 0: none) passes: a live peer
 * that has not sent @what (a noun phrase: "its part of tuccompi_wait()") in time is stuck. */
TUCCOMPI_INTERNAL int _tuccompi_link_recv_wait(struct _tuccompi_recv *r, double deadline, const char *what);
TUCCOMPI_INTERNAL const void *_tuccompi_recv_data(const struct _tuccompi_recv *r);
TUCCOMPI_INTERNAL size_t _tuccompi_recv_len(const struct _tuccompi_recv *r);
TUCCOMPI_INTERNAL int _tuccompi_recv_src(const struct _tuccompi_recv *r);
TUCCOMPI_INTERNAL void _tuccompi_recv_free(struct _tuccompi_recv *r);
/* A waited receive's buffer, now the caller's to free(); the receive itself is freed. */
TUCCOMPI_INTERNAL void *_tuccompi_recv_take(struct _tuccompi_recv *r);
/* Post, wait, copy into @buf. */
TUCCOMPI_INTERNAL int _tuccompi_link_recv(int src, int64_t tag, void *buf, size_t len, const char *what);

/* Stop the layer on this rank (first reason wins), fail the task sets in flight and, with @tell,
 * have every other rank stop with the same message. */
TUCCOMPI_INTERNAL void _tuccompi_link_stop_all(int err, int tell, const char *fmt, ...) TUCCOMPI_PRINTF(3, 4);
/* After a stop for a lost or stuck peer: have Open MPI's process that launched this rank on its
 * host ended if, after the rank, it stays, waiting for a host it cannot reach (comm.c says why);
 * the watchdog's line goes to the account @log too. */
TUCCOMPI_INTERNAL void _tuccompi_launcher_watch(const char *log);
/* 0 while the layer is up; once stopped, its error (and tuccompi_last_error() says why). */
TUCCOMPI_INTERNAL int _tuccompi_link_broken(void);

/* ---------------------------------------------------------------- collectives (comm.c) */

/* The library's collective calls: every message of a collective says which call it belongs to. */
enum _tuccompi_coll_op
{
	TUCCOMPI_COLL_INIT = 1,
	TUCCOMPI_COLL_PARALLEL,
	TUCCOMPI_COLL_JOURNAL,
	TUCCOMPI_COLL_START,
	TUCCOMPI_COLL_SYN,
	TUCCOMPI_COLL_BARRIER,
	TUCCOMPI_COLL_BCAST,
	TUCCOMPI_COLL_ALLREDUCE,
	TUCCOMPI_COLL_FINALIZE,
};

/* One step of a collective: the call, the task set (or 0), the root, this rank's status (0 or a
 * negative errno) and, when it failed, its error line. */
struct _tuccompi_coll
{
	uint32_t op, serial;
	int root;
	int status;
	const char *msg;
};

/* What a gather's root received from one rank. */
struct _tuccompi_part
{
	int status;
	char msg[TUCCOMPI_LINK_MSG];
	void *data;
	size_t len;
	void *owned; /* malloc'd, holds data (NULL: the root's own) */
};

/* Every rank sends @len bytes (sizes may differ) and its status to the root; the root gets
 * parts[rank] (free with _tuccompi_parts_free). Fails only when the layer does (a rank's status is
 * the caller's to judge). */
TUCCOMPI_INTERNAL int _tuccompi_coll_gather(const struct _tuccompi_coll *c, const void *mine, size_t len,
					    struct _tuccompi_part *parts);
TUCCOMPI_INTERNAL void _tuccompi_parts_free(struct _tuccompi_part *parts);
/* The root sends @len bytes and its status (the verdict) to every rank; the others get a copy in
 * *out (malloc'd, NULL when empty) and return the verdict: 0, or its error with its message. */
TUCCOMPI_INTERNAL int _tuccompi_coll_bcast(const struct _tuccompi_coll *c, const void *payload, size_t len, void **out,
					   size_t *out_len);
/* Every rank's @len bytes combined on the root, in rank order (buf = rank 0's (+) rank 1's (+) ...,
 * grouped as a binary tree: @combine must be associative), in @buf there; every other rank's @buf is
 * its scratch. On the root *verdict is the first failing rank's status (0: @buf holds the result)
 * with its line in @msg ("rank R: ..."); the other ranks learn it from the root (a broadcast after).
 * Fails only when the layer does. */
TUCCOMPI_INTERNAL int _tuccompi_coll_reduce(const struct _tuccompi_coll *c, void *buf, size_t len,
					    tuccompi_reduce_func combine, void *arg, int *verdict, char *msg, size_t msglen);
/* Every rank's @len bytes to every rank (@all: nranks x len, or NULL with len 0); returns the
 * first failing rank's error ("rank R: ...") on every rank, or 0. */
TUCCOMPI_INTERNAL int _tuccompi_coll_allgather(const struct _tuccompi_coll *c, const void *mine, size_t len, void *all);
/* Every rank's status: 0 when all are 0, else the first failing rank's error on every rank. */
TUCCOMPI_INTERNAL int _tuccompi_coll_agree(uint32_t op, uint32_t serial, int status, const char *msg);

/* Where this rank's last gather or broadcast waited: for the first messages of its step (headers,
 * with small payloads inline) and for the larger payloads that followed (TUCCOMPI_END_LOG). */
TUCCOMPI_INTERNAL void _tuccompi_coll_waits(double *first_s, double *rest_s);

/* Fail every task set in flight on this rank (parallel.c keeps them). */
TUCCOMPI_INTERNAL void _tuccompi_sets_fail_all(int err, const char *msg);

#endif
