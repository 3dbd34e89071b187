/* The 1st layer's collectives, on the StarPU-MPI messages of link.c: a gather to a root and a
 * broadcast from it, each message of a collective first a fixed-size header (which call it is
 * part of, the sender's status and error line, the payload's size) and then the payload. So every
 * collective is also an agreement: a rank's local error travels with its part, every rank ends the
 * call with the first failing rank's message, and the ranks' sequences of calls stay in step. A
 * rank that took part in a different call (rank 1 in tuccompi_finalize() while rank 0 is in
 * tuccompi_parallel()) is named, with both calls, and the layer stops: its sequence is broken.
 *
 * Collectives are numbered in the order a rank calls them (one thread at a time, the same order
 * on every rank, as MPI's); the number is in the tags of their messages. They run over binomial
 * trees (below): log2(n) steps from every rank to the root and back. */
#include "link.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The library's collective calls, for headers and messages. */
static const char *const coll_names[] = {
	[TUCCOMPI_COLL_INIT] = "tuccompi_init()",
	[TUCCOMPI_COLL_PARALLEL] = "tuccompi_parallel()",
	[TUCCOMPI_COLL_JOURNAL] = "tuccompi_parallel() (reading the journal)",
	[TUCCOMPI_COLL_START] = "tuccompi_parallel() (starting the set)",
	[TUCCOMPI_COLL_SYN] = "tuccompi_wait()",
	[TUCCOMPI_COLL_BARRIER] = "tuccompi_barrier()",
	[TUCCOMPI_COLL_BCAST] = "tuccompi_bcast()",
	[TUCCOMPI_COLL_ALLREDUCE] = "tuccompi_allreduce_i64()",
	[TUCCOMPI_COLL_FINALIZE] = "tuccompi_finalize()",
};

static const char *coll_name(uint32_t op)
{
	return op < sizeof(coll_names) / sizeof(coll_names[0]) && coll_names[op] ? coll_names[op] : "an unknown call";
}

/* A collective's message: what it belongs to, then a payload of up to COLL_INLINE bytes in the same
 * message. A larger payload follows in a message of its own. Every message through StarPU-MPI costs
 * a few turns of each side's progression thread (and, where it arrives before its receive is
 * posted, a copy through an early-data handle): one message a step, not two, is what a small
 * collective costs (docs/architecture.md, "The 1st layer"). */
#define COLL_MSG_BYTES 3840
struct coll_fixed
{
	uint32_t op;
	uint32_t serial; /* the task set's, or 0 */
	uint64_t len;    /* payload bytes: inline when at most COLL_INLINE, else in the next message */
	int64_t status;  /* the sender's: 0 or a negative errno */
	char msg[TUCCOMPI_LINK_MSG];
};
#define COLL_INLINE (COLL_MSG_BYTES - sizeof(struct coll_fixed))
struct coll_hdr
{
	struct coll_fixed f;
	unsigned char inl[COLL_INLINE];
};
_Static_assert(sizeof(struct coll_hdr) == COLL_MSG_BYTES, "a collective's message is COLL_MSG_BYTES");

/* Where this rank's last collective spent its time waiting: for the first messages (the headers) and
 * for the payloads that followed them (TUCCOMPI_END_LOG: syn.c). */
static double wait_first_s, wait_rest_s;

void _tuccompi_coll_waits(double *first_s, double *rest_s)
{
	*first_s = wait_first_s;
	*rest_s = wait_rest_s;
}

static uint64_t coll_seq;

static int64_t coll_tag(uint64_t seq, unsigned step)
{
	/* lo: the step (gather 0, broadcast 1) in the high bits, header 0 and payload slices 1.. below */
	return _tuccompi_tag(TUCCOMPI_TAG_COLL, seq, (uint64_t)step << 24);
}

/* A header that is not the call this rank is in: the ranks' sequences have parted. */
static int mismatch(int peer, const struct coll_fixed *h, uint32_t op, uint32_t serial)
{
	if (h->op == op && h->serial == serial)
		return 0;
	if (h->op == op)
		_tuccompi_link_stop_all(-EPROTO, 1,
					"rank %d waits for task set #%u in %s where rank %d is at task set #%u: every rank must "
					"start and wait for its task sets in the same order",
					_tuccompi.rank, serial, coll_name(op), peer, h->serial);
	else
		_tuccompi_link_stop_all(-EPROTO, 1,
					"rank %d called %s where rank %d called %s: every rank must make the library's collective "
					"calls (init, parallel, wait, barrier, bcast, allreduce, finalize) in the same order",
					peer, coll_name(h->op), _tuccompi.rank, coll_name(op));
	return _tuccompi_link_broken();
}

/* The message that opens a collective's step, with @payload inline when it fits. */
static void fill_hdr(struct coll_hdr *h, uint32_t op, uint32_t serial, int status, const char *msg, const void *payload,
		     size_t len)
{
	memset(&h->f, 0, sizeof(h->f));
	h->f.op = op;
	h->f.serial = serial;
	h->f.len = len;
	h->f.status = status;
	if (status < 0)
		snprintf(h->f.msg, sizeof(h->f.msg), "%s", msg && *msg ? msg : tuccompi_strerror(status));
	if (len && len <= COLL_INLINE)
		memcpy(h->inl, payload, len);
}

/* Send a step's message and, when the payload did not fit in it, the payload after it. */
static int send_step(int dest, int64_t tag, const struct coll_hdr *h, const void *payload)
{
	int ret = _tuccompi_link_send(dest, tag, h, sizeof(*h));
	if (ret == 0 && h->f.len > COLL_INLINE)
		ret = _tuccompi_link_send(dest, tag + 1, payload, h->f.len);
	return ret;
}

/* The payload announced by @h from @src: a copy of the inline bytes, or the message that follows
 * (waited for). Returns 0 with *data malloc'd (NULL when empty), or an error. */
static int recv_payload(int src, int64_t tag, const struct coll_hdr *h, const char *what, void **data)
{
	*data = NULL;
	if (!h->f.len)
		return 0;
	if (h->f.len <= COLL_INLINE)
	{
		if (!(*data = malloc(h->f.len)))
			return _tuccompi_error(-ENOMEM, "out of memory for %llu bytes from rank %d", (unsigned long long)h->f.len,
					       src);
		memcpy(*data, h->inl, h->f.len);
		return 0;
	}
	/* the receive's own buffer becomes the caller's: no copy */
	double t0 = _tuccompi_now();
	struct _tuccompi_recv *p = _tuccompi_link_recv_post(src, tag + 1, h->f.len, NULL, NULL);
	if (!p)
		return _tuccompi_link_broken() ? _tuccompi_link_broken() : -ENOMEM;
	int ret = _tuccompi_link_recv_wait(p, 0, what);
	wait_rest_s += _tuccompi_now() - t0;
	if (ret < 0)
		return ret;
	*data = _tuccompi_recv_take(p);
	return 0;
}

/* ------------------------------------------------------------------ binomial trees
 *
 * Every collective runs over a binomial tree, so that no rank sends or receives more than about
 * log2(n) messages per call and a rank's part reaches the root in at most log2(n) steps: with one
 * message per rank to the root, the root's receives (and its StarPU-MPI thread's work per message)
 * grew with the ranks, and a gather of 255 parts waited for them one after another. In the tree of a
 * root, rank r has the relative number v = (r - root) mod n; v's parent is v less its lowest set
 * bit, its children are v + 2^k for every 2^k below that bit (the root: below n) with v + 2^k < n.
 * A gather goes up it, a broadcast down, a reduction up the tree of rank 0 (rank order, below). */

static int tree_rank(int v, int root, int n)
{
	return (v + root) % n;
}

/* The bit above v's children: v's lowest set bit, or for the root the first power of two >= n. */
static int tree_span(int v, int n)
{
	if (v)
		return v & -v;
	int m = 1;
	while (m < n)
		m <<= 1;
	return m;
}

/* A gather's parts travel up as bundles: each part an entry, then its error line and its payload,
 * each padded to 8 bytes (so that a payload read in place is aligned for the caller's structures). */
struct coll_entry
{
	int32_t rank;
	int32_t status;
	uint64_t msglen; /* the error line's bytes (0 when the rank's status is 0) */
	uint64_t len;    /* the payload's */
};
#define PAD8(x) (((size_t)(x) + 7) & ~(size_t)7)

static size_t entry_bytes(size_t msglen, size_t len)
{
	return sizeof(struct coll_entry) + PAD8(msglen) + PAD8(len);
}

/* Append this rank's entry to *bundle (of *blen bytes, grown). */
static int bundle_own(unsigned char **bundle, size_t *blen, int status, const char *msg, const void *mine, size_t len)
{
	size_t ml = status < 0 ? strlen(msg && *msg ? msg : tuccompi_strerror(status)) : 0;
	if (ml >= TUCCOMPI_LINK_MSG)
		ml = TUCCOMPI_LINK_MSG - 1;
	size_t add = entry_bytes(ml, len);
	unsigned char *b = realloc(*bundle, *blen + add);
	if (!b)
		return _tuccompi_error(-ENOMEM, "out of memory for a collective's %zu bytes", *blen + add);
	unsigned char *p = b + *blen;
	memset(p, 0, add);
	struct coll_entry e = { .rank = _tuccompi.rank, .status = status, .msglen = ml, .len = len };
	memcpy(p, &e, sizeof(e));
	if (ml)
		memcpy(p + sizeof(e), msg && *msg ? msg : tuccompi_strerror(status), ml);
	if (len)
		memcpy(p + sizeof(e) + PAD8(ml), mine, len);
	*bundle = b;
	*blen += add;
	return 0;
}

/* The root: place the entries of a child's bundle (which the first of them keeps) in parts[]. A
 * bundle that does not parse is the library's own error: the layer stops. */
static int bundle_parts(unsigned char *b, size_t blen, int from, struct _tuccompi_part *parts, int *seen)
{
	size_t off = 0;
	int first = 1;
	while (off < blen)
	{
		struct coll_entry e;
		if (blen - off < sizeof(e))
			break;
		memcpy(&e, b + off, sizeof(e));
		if (e.rank < 0 || e.rank >= _tuccompi.nranks || seen[e.rank] || e.msglen >= TUCCOMPI_LINK_MSG ||
		    e.len > blen - off || entry_bytes(e.msglen, e.len) > blen - off)
			break;
		struct _tuccompi_part *p = &parts[e.rank];
		seen[e.rank] = 1;
		p->status = e.status;
		memcpy(p->msg, b + off + sizeof(e), e.msglen);
		p->msg[e.msglen] = 0;
		p->len = e.len;
		p->data = e.len ? b + off + sizeof(e) + PAD8(e.msglen) : NULL;
		p->owned = first ? b : NULL;
		first = 0;
		off += entry_bytes(e.msglen, e.len);
	}
	if (off == blen && !first)
		return 0;
	if (first)
		free(b);
	_tuccompi_link_stop_all(-EPROTO, 1, "rank %d: the parts rank %d forwarded in a collective do not parse (%zu bytes)",
				_tuccompi.rank, from, blen);
	return _tuccompi_link_broken();
}

/* A child's message of a step up the tree (its receive posted as *rx, freed here): checked
 * against the call, with the payload it announces. Returns 0 with the child's fixed fields in *f
 * and the payload in *data (malloc'd, NULL when empty), or an error (the layer stopped). */
static int child_part(struct _tuccompi_recv **rx, int child, int64_t tag, const struct _tuccompi_coll *c,
		      const char *what, struct coll_fixed *f, void **data)
{
	*data = NULL;
	if (!*rx)
		return _tuccompi_link_broken() ? _tuccompi_link_broken() : -ENOMEM;
	double t0 = _tuccompi_now();
	int ret = _tuccompi_link_recv_wait(*rx, 0, what);
	wait_first_s += _tuccompi_now() - t0;
	if (ret < 0)
		return ret;
	const struct coll_hdr *h = _tuccompi_recv_data(*rx);
	if ((ret = mismatch(child, &h->f, c->op, c->serial)) < 0)
		return ret;
	*f = h->f;
	ret = recv_payload(child, tag, h, what, data);
	_tuccompi_recv_free(*rx);
	*rx = NULL;
	return ret;
}

int _tuccompi_coll_gather(const struct _tuccompi_coll *c, const void *mine, size_t len, struct _tuccompi_part *parts)
{
	int n = _tuccompi.nranks, me = _tuccompi.rank;
	uint64_t seq = coll_seq++;
	wait_first_s = wait_rest_s = 0;
	if (me == c->root)
	{
		parts[me].status = c->status;
		snprintf(parts[me].msg, sizeof(parts[me].msg), "%s", c->status < 0 && c->msg ? c->msg : "");
		parts[me].data = (void *)mine;
		parts[me].len = len;
		parts[me].owned = NULL;
	}
	if (n == 1 || !_tuccompi_link_on())
		return 0;
	if (_tuccompi_link_broken())
		return _tuccompi_link_broken();
	int v = (me - c->root + n) % n, span = tree_span(v, n), nchild = 0;
	int child[32];
	for (int m = 1; m < span; m <<= 1)
		if (v + m < n)
			child[nchild++] = tree_rank(v + m, c->root, n);
	/* every child's first message is posted at once: they come in any order */
	char what[96];
	snprintf(what, sizeof(what), "its part of %s", coll_name(c->op));
	struct _tuccompi_recv *rx[32] = { 0 };
	for (int i = 0; i < nchild; i++)
		rx[i] = _tuccompi_link_recv_post(child[i], coll_tag(seq, 0), sizeof(struct coll_hdr), NULL, NULL);
	unsigned char *bundle = NULL;
	size_t blen = 0;
	int *seen = me == c->root ? calloc((size_t)n, sizeof(int)) : NULL;
	int ret = me == c->root ? (seen ? 0 : _tuccompi_error(-ENOMEM, "out of memory"))
				: bundle_own(&bundle, &blen, c->status, c->msg, mine, len);
	if (seen)
		seen[me] = 1;
	/* the children in the order their subtrees complete: the smallest first */
	for (int i = 0; i < nchild && ret == 0; i++)
	{
		struct coll_fixed f;
		void *got;
		if ((ret = child_part(&rx[i], child[i], coll_tag(seq, 0), c, what, &f, &got)) < 0)
			break;
		size_t glen = f.len;
		if (me == c->root)
			ret = bundle_parts(got, glen, child[i], parts, seen);
		else if (glen)
		{
			/* a forwarder: its children's parts after its own, in one message up */
			unsigned char *b = realloc(bundle, blen + glen);
			if (!b)
				ret = _tuccompi_error(-ENOMEM, "out of memory for a collective's %zu bytes", blen + glen);
			else
			{
				memcpy(b + blen, got, glen);
				bundle = b;
				blen += glen;
			}
			free(got);
		}
	}
	for (int i = 0; i < nchild; i++)
		if (rx[i])
			_tuccompi_recv_free(rx[i]); /* a receive not completed stays posted (the layer stopped) */
	if (ret == 0 && me != c->root)
	{
		struct coll_hdr *h = malloc(sizeof(*h));
		if (!h)
			ret = _tuccompi_error(-ENOMEM, "out of memory");
		else
		{
			fill_hdr(h, c->op, c->serial, 0, NULL, bundle, blen);
			ret = send_step(tree_rank(v - span, c->root, n), coll_tag(seq, 0), h, bundle);
			free(h);
		}
	}
	else if (ret == 0)
		for (int r = 0; r < n && ret == 0; r++)
			if (!seen[r])
			{
				_tuccompi_link_stop_all(-EPROTO, 1, "rank %d: no part of rank %d in %s", me, r, coll_name(c->op));
				ret = _tuccompi_link_broken();
			}
	free(bundle);
	free(seen);
	return ret;
}

void _tuccompi_parts_free(struct _tuccompi_part *parts)
{
	for (int r = 0; r < _tuccompi.nranks; r++)
	{
		free(parts[r].owned);
		parts[r].owned = NULL;
		parts[r].data = NULL;
	}
}

int _tuccompi_coll_bcast(const struct _tuccompi_coll *c, const void *payload, size_t len, void **out, size_t *out_len)
{
	int n = _tuccompi.nranks, me = _tuccompi.rank;
	uint64_t seq = coll_seq++;
	*out = NULL;
	*out_len = 0;
	wait_first_s = wait_rest_s = 0;
	int root_status = me == c->root && c->status < 0
				  ? _tuccompi_error(c->status, "%s", c->msg ? c->msg : tuccompi_strerror(c->status))
				  : 0;
	if (n == 1 || !_tuccompi_link_on())
		return root_status;
	if (_tuccompi_link_broken())
		return _tuccompi_link_broken();
	struct coll_hdr *h = malloc(sizeof(*h));
	if (!h)
		return _tuccompi_error(-ENOMEM, "out of memory");
	int v = (me - c->root + n) % n, span = tree_span(v, n), ret = 0;
	const void *data = payload;
	void *got = NULL;
	if (me == c->root)
		fill_hdr(h, c->op, c->serial, c->status, c->msg, payload, len);
	else
	{
		/* from the parent, then on to the children unchanged: the verdict reaches every rank */
		char what[96];
		snprintf(what, sizeof(what), "its part of %s", coll_name(c->op));
		int parent = tree_rank(v - span, c->root, n);
		double t0 = _tuccompi_now();
		ret = _tuccompi_link_recv(parent, coll_tag(seq, 1), h, sizeof(*h), what);
		wait_first_s = _tuccompi_now() - t0;
		if (ret == 0)
			ret = mismatch(parent, &h->f, c->op, c->serial);
		if (ret == 0)
			ret = recv_payload(parent, coll_tag(seq, 1), h, what, &got);
		data = got;
	}
	/* the largest subtree first: it has the most steps left */
	for (int m = span >> 1; m >= 1 && ret == 0; m >>= 1)
		if (v + m < n)
			ret = send_step(tree_rank(v + m, c->root, n), coll_tag(seq, 1), h, data);
	if (me == c->root)
	{
		free(h);
		return ret < 0 ? ret : root_status;
	}
	if (ret == 0)
	{
		*out = got;
		*out_len = h->f.len;
		got = NULL;
		if (h->f.status < 0)
			ret = _tuccompi_error((int)h->f.status, "%s", h->f.msg);
	}
	free(got);
	free(h);
	return ret;
}

int _tuccompi_coll_reduce(const struct _tuccompi_coll *c, void *buf, size_t len, tuccompi_reduce_func combine, void *arg,
			  int *verdict, char *msg, size_t msglen)
{
	int n = _tuccompi.nranks, me = _tuccompi.rank;
	uint64_t seq = coll_seq++;
	wait_first_s = wait_rest_s = 0;
	/* this subtree's first failure: the lowest failing rank's status and line ("rank R: ...") */
	int status = c->status;
	char line[TUCCOMPI_LINK_MSG];
	line[0] = 0;
	if (status < 0)
		snprintf(line, sizeof(line), "rank %d: %s", me, c->msg && *c->msg ? c->msg : tuccompi_strerror(status));
	*verdict = 0;
	if (msglen)
		msg[0] = 0;
	if (n == 1 || !_tuccompi_link_on())
	{
		*verdict = status;
		if (status < 0 && msglen)
			snprintf(msg, msglen, "%s", c->msg && *c->msg ? c->msg : tuccompi_strerror(status));
		return 0;
	}
	if (_tuccompi_link_broken())
		return _tuccompi_link_broken();
	char what[96];
	snprintf(what, sizeof(what), "its part of %s", coll_name(c->op));
	int span = tree_span(me, n), nchild = 0, ret = 0;
	int child[32];
	struct _tuccompi_recv *rx[32] = { 0 };
	for (int m = 1; m < span; m <<= 1)
		if (me + m < n)
			child[nchild++] = me + m;
	for (int i = 0; i < nchild; i++)
		rx[i] = _tuccompi_link_recv_post(child[i], coll_tag(seq, 0), sizeof(struct coll_hdr), NULL, NULL);
	/* children in rank order: after step i this rank holds ranks [me, child[i] + 2^i) combined, so the
	 * combination keeps the ranks' order (buf = buf (+) the next ranks'), grouped as a tree */
	for (int i = 0; i < nchild && ret == 0; i++)
	{
		struct coll_fixed f;
		void *got;
		ret = child_part(&rx[i], child[i], coll_tag(seq, 0), c, what, &f, &got);
		if (ret == 0 && status == 0)
		{
			if (f.status < 0)
			{
				status = (int)f.status;
				snprintf(line, sizeof(line), "%s", f.msg);
			}
			else if (f.len != len)
			{
				status = -EPROTO;
				snprintf(line, sizeof(line), "rank %d sent %llu bytes to %s where rank %d passes %zu", child[i],
					 (unsigned long long)f.len, coll_name(c->op), me, len);
			}
			else if (len)
				combine(buf, got, len, arg);
		}
		free(got);
	}
	for (int i = 0; i < nchild; i++)
		if (rx[i])
			_tuccompi_recv_free(rx[i]);
	if (ret < 0)
		return ret;
	struct coll_hdr *h = malloc(sizeof(*h));
	if (!h)
		return _tuccompi_error(-ENOMEM, "out of memory");
	/* up the tree of rank 0, then from rank 0 to the root where that is another rank */
	int to = me ? me - span : c->root != 0 ? c->root : -1;
	if (to >= 0)
	{
		fill_hdr(h, c->op, c->serial, status, line, status == 0 ? buf : NULL, status == 0 ? len : 0);
		ret = send_step(to, coll_tag(seq, me ? 0 : 1), h, buf);
	}
	if (ret == 0 && me == c->root && me != 0)
	{
		double t0 = _tuccompi_now();
		ret = _tuccompi_link_recv(0, coll_tag(seq, 1), h, sizeof(*h), what);
		wait_first_s += _tuccompi_now() - t0;
		if (ret == 0)
			ret = mismatch(0, &h->f, c->op, c->serial);
		void *got = NULL;
		if (ret == 0)
			ret = recv_payload(0, coll_tag(seq, 1), h, what, &got);
		if (ret == 0)
		{
			status = (int)h->f.status;
			snprintf(line, sizeof(line), "%s", status < 0 ? h->f.msg : "");
			if (status == 0 && h->f.len == len && len)
				memcpy(buf, got, len);
		}
		free(got);
	}
	free(h);
	if (ret == 0 && me == c->root)
	{
		*verdict = status;
		if (msglen)
			snprintf(msg, msglen, "%s", line);
	}
	return ret;
}

/* The first failing part's error, as every rank will say it. */
static int first_error(const struct _tuccompi_part *parts, char *msg, size_t msglen)
{
	for (int r = 0; r < _tuccompi.nranks; r++)
		if (parts[r].status < 0)
		{
			if (_tuccompi.nranks > 1)
				{
				char tmp[TUCCOMPI_LINK_MSG + 64];
				snprintf(tmp, sizeof(tmp), "rank %d: %s", r, parts[r].msg[0] ? parts[r].msg : tuccompi_strerror(parts[r].status));
				snprintf(msg, msglen, "%s", tmp);
			}
			else
				snprintf(msg, msglen, "%s", parts[r].msg[0] ? parts[r].msg : tuccompi_strerror(parts[r].status));
			return parts[r].status;
		}
	return 0;
}

int _tuccompi_coll_allgather(const struct _tuccompi_coll *c, const void *mine, size_t len, void *all)
{
	int n = _tuccompi.nranks, root = c->root;
	struct _tuccompi_part *parts = calloc((size_t)n, sizeof(*parts));
	if (!parts)
		return _tuccompi_error(-ENOMEM, "out of memory");
	int ret = _tuccompi_coll_gather(c, mine, len, parts);
	if (ret < 0)
	{
		_tuccompi_parts_free(parts);
		free(parts);
		return ret;
	}
	struct _tuccompi_coll v = *c;
	char msg[TUCCOMPI_LINK_MSG + 64] = "";
	void *out = NULL;
	size_t out_len = 0;
	if (_tuccompi.rank == root)
	{
		/* the verdict: the first error, or every part (each of the same size) */
		v.status = first_error(parts, msg, sizeof(msg));
		for (int r = 0; r < n && v.status == 0; r++)
			if (parts[r].len != len)
			{
				snprintf(msg, sizeof(msg), "rank %d passes %llu bytes to %s where rank %d passes %zu", r,
					 (unsigned long long)parts[r].len, coll_name(c->op), root, len);
				v.status = -EINVAL;
			}
		v.msg = msg;
		if (v.status == 0 && all)
			for (int r = 0; r < n; r++)
				memcpy((char *)all + (size_t)r * len, parts[r].data, len);
	}
	ret = _tuccompi_coll_bcast(&v, v.status == 0 && _tuccompi.rank == root ? all : NULL,
				   v.status == 0 && _tuccompi.rank == root && all ? (size_t)n * len : 0, &out, &out_len);
	if (ret == 0 && _tuccompi.rank != root && all)
	{
		if (out_len != (size_t)n * len)
			ret = _tuccompi_error(-EPROTO, "%s: rank %d sent %zu bytes, %zu expected", coll_name(c->op), root, out_len,
					      (size_t)n * len);
		else
			memcpy(all, out, out_len);
	}
	free(out);
	_tuccompi_parts_free(parts);
	free(parts);
	return ret;
}

int _tuccompi_coll_agree(uint32_t op, uint32_t serial, int status, const char *msg)
{
	struct _tuccompi_coll c = { .op = op, .serial = serial, .root = 0, .status = status, .msg = msg };
	return _tuccompi_coll_allgather(&c, NULL, 0, NULL);
}

/* ------------------------------------------------------------------ collectives of the public API */

int tuccompi_barrier(void)
{
	TUCCOMPI_REQUIRE_INIT();
	return _tuccompi_coll_agree(TUCCOMPI_COLL_BARRIER, 0, 0, NULL);
}

int tuccompi_bcast(void *buf, size_t bytes, int root)
{
	TUCCOMPI_REQUIRE_INIT();
	/* a bad argument on one rank still takes part, so that the others learn of it */
	int status = 0;
	const char *why = NULL;
	if (root < 0 || root >= _tuccompi.nranks)
		status = -EINVAL, why = "tuccompi_bcast: root out of range";
	else if (bytes && !buf)
		status = -EINVAL, why = "tuccompi_bcast: NULL buffer";
	struct _tuccompi_coll c = { .op = TUCCOMPI_COLL_BCAST, .root = root, .status = status, .msg = why };
	/* every rank says whether it can take part, then the root sends */
	int ret = _tuccompi_coll_agree(TUCCOMPI_COLL_BCAST, 0, status, why);
	if (ret < 0)
		return ret;
	void *out = NULL;
	size_t out_len = 0;
	ret = _tuccompi_coll_bcast(&c, buf, bytes, &out, &out_len);
	if (ret == 0 && _tuccompi.rank != root)
	{
		if (out_len != bytes)
			ret = _tuccompi_link_broken() ? _tuccompi_link_broken()
						      : _tuccompi_error(-EINVAL,
									"tuccompi_bcast: rank %d sends %zu bytes where rank %d expects %zu "
									"(every rank must pass the same size)",
									root, out_len, _tuccompi.rank, bytes);
		else if (bytes)
			memcpy(buf, out, bytes);
	}
	free(out);
	return ret;
}

int tuccompi_allreduce_i64(int64_t *values, unsigned count, enum tuccompi_op op)
{
	TUCCOMPI_REQUIRE_INIT();
	int status = 0;
	const char *why = NULL;
	if (count && !values)
		status = -EINVAL, why = "tuccompi_allreduce_i64: NULL values";
	else if (op > TUCCOMPI_OP_AND)
		status = -EINVAL, why = "tuccompi_allreduce_i64: unknown operator";
	int n = _tuccompi.nranks;
	/* count and operator travel with the values, so that ranks that disagree are told */
	size_t len = 16 + (size_t)count * sizeof(int64_t);
	unsigned char *mine = calloc(1, len), *all = calloc((size_t)n, len);
	if (!mine || !all)
	{
		free(mine);
		free(all);
		return _tuccompi_error(-ENOMEM, "out of memory");
	}
	uint64_t head[2] = { count, (uint64_t)op };
	memcpy(mine, head, 16);
	if (status == 0)
		for (unsigned i = 0; i < count; i++)
		{
			int64_t v = op == TUCCOMPI_OP_AND ? values[i] != 0 : values[i];
			memcpy(mine + 16 + (size_t)i * 8, &v, 8);
		}
	struct _tuccompi_coll c = { .op = TUCCOMPI_COLL_ALLREDUCE, .root = 0, .status = status, .msg = why };
	int ret = _tuccompi_coll_allgather(&c, mine, len, all);
	for (int r = 0; r < n && ret == 0; r++)
	{
		uint64_t h[2];
		memcpy(h, all + (size_t)r * len, 16);
		if (h[0] != count || h[1] != (uint64_t)op)
			ret = _tuccompi_error(-EINVAL,
					      "tuccompi_allreduce_i64: rank %d reduces %llu values with operator %llu where rank %d "
					      "reduces %u with %d (every rank must pass the same count and operator)",
					      r, (unsigned long long)h[0], (unsigned long long)h[1], _tuccompi.rank, count, (int)op);
	}
	for (unsigned i = 0; i < count && ret == 0; i++)
	{
		int64_t acc = 0;
		for (int r = 0; r < n; r++)
		{
			int64_t v;
			memcpy(&v, all + (size_t)r * len + 16 + (size_t)i * 8, 8);
			if (r == 0)
				acc = v;
			else if (op == TUCCOMPI_OP_MAX)
				acc = v > acc ? v : acc;
			else if (op == TUCCOMPI_OP_SUM)
				acc += v;
			else
				acc = v < acc ? v : acc; /* MIN, and AND over 0/1 */
		}
		values[i] = acc;
	}
	free(mine);
	free(all);
	return ret;
}

void tuccompi_abort(int code)
{
	fflush(stdout);
	fflush(stderr);
#ifdef TUCCOMPI_HAVE_MPI
	int inited = 0, fin = 0;
	MPI_Initialized(&inited);
	MPI_Finalized(&fin);
	/* MPI_Abort cannot cross a lost link (it hangs): a rank whose layer stopped just ends, and
	 * mpirun ends the others */
	if (inited && !fin && _tuccompi.nranks > 1 && !_tuccompi_link_broken())
		MPI_Abort(MPI_COMM_WORLD, code);
#endif
	exit(code);
}

/* ------------------------------------------------------------------ the launcher after a lost peer */

/* Open MPI's mpirun gives up on a daemon (orted) it cannot reach only when TCP gives up on their
 * connection (net.ipv4.tcp_retries2; tcp(7): about 15 minutes by default), and a daemon on a host
 * cut off waits as long for mpirun; neither listens to the ranks' heartbeats. So a rank whose layer
 * stopped for a lost or stuck peer leaves a watchdog behind: a shell that waits for the rank to
 * end, gives the launcher's process of this host (the orted, or mpirun for the ranks it started
 * itself) WATCH_GRACE_S seconds to end by itself, and ends it only once it is seen waiting for a
 * host: a TCP connection of its with data unacknowledged and retransmitted. A launcher that
 * reaches every host ends the job first (or ends later by itself), and the watchdog just ends. An
 * orted gets SIGTERM (it cleans its session folder); mpirun, SIGKILL (asked twice to end while it
 * aborts, it may crash on the way), then its session folder is removed and its children (its ssh
 * sessions to the hosts, which wait as long as it would) get SIGTERM. The watchdog writes to no
 * pipe of the launcher's (a daemon waits for their ends before it counts a rank as ended): its line
 * goes into the rank's account (@log) and onto mpirun's own stderr.
 * Positional parameters: rank pid and start time, launcher pid and start time, its kind, the
 * grace in centiseconds, its session folder ("" : none to remove), the account, the line. */
#define WATCH_GRACE_S 2
static const char watch_sh[] =
	"r=$1 rs=$2 d=$3 ds=$4 kind=$5 cs=$6 sd=$7 log=$8 msg=$9\n"
	/* builtins in the loops (a loaded host starts processes slowly). up PID START: that process,
	 * not a zombie; now: the time since boot in centiseconds; stuck: $d has a TCP connection with
	 * its retransmission timer on and a segment retransmitted (/proc/net/tcp: tr 01, retrnsmt) */
	"up() { [ -r /proc/$1/stat ] && read -r s </proc/$1/stat || return 1; s=${s##*\") \"}; w=$2; set -- $s; "
	"[ \"$1\" != Z ] && [ \"${20}\" = \"$w\" ]; }\n"
	"now() { read -r t x </proc/uptime; t=${t%.*}${t#*.}; }\n"
	"stuck() { i=' '; for w in $(ls -l /proc/$d/fd 2>/dev/null); do case $w in socket:\\[*\\]) w=${w#socket:?}; i=\"$i${w%?} \";; "
	"esac; done; for f in /proc/$d/net/tcp /proc/$d/net/tcp6; do [ -r $f ] || continue; "
	"while read -r x x x x x tr rt x x n x; do case $tr in 01:*) [ $rt != 00000000 ] && case $i in *\" $n \"*) "
	"return 0;; esac;; esac; done <$f; done; return 1; }\n"
	"while up $r $rs; do sleep 0.2; done\n"
	"now; end=$((t + cs)); while now && [ $t -lt $end ]; do up $d $ds || exit 0; sleep 0.2; done\n"
	"until stuck; do up $d $ds || exit 0; sleep 0.5; done\n"
	"[ -n \"$log\" ] && printf '%s\\n' \"$msg\" >>\"$log\"\n"
	"if [ $kind = orted ]; then kill -TERM $d; now; end=$((t + 500)); while up $d $ds && now && [ $t -lt $end ]; do sleep 0.2; done\n"
	/* on mpirun's stderr unless a file (a write there lands under the next through mpirun's offset) */
	"elif [ ! -f /proc/$d/fd/2 ]; then printf '%s\\n' \"$msg\" >>/proc/$d/fd/2; fi\n"
	"up $d $ds || exit 0\n"
	"k=; for f in /proc/[0-9]*/stat; do [ -r $f ] && read -r s <$f || continue; s=${s##*\") \"}; set -- $s; "
	"[ \"$2\" = $d ] && f=${f#/proc/} && k=\"$k ${f%/stat}\"; done\n"
	"kill -KILL $d; kill -TERM $k; sleep 0.2; [ -n \"$sd\" ] && rm -rf \"$sd\" && rmdir \"${sd%/*}\"\n";

/* /proc/PID/stat: the command's name, the parent, the start time (clock ticks since boot). */
static int proc_stat(pid_t pid, char *comm, size_t comm_len, pid_t *ppid, unsigned long long *start)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *l = strchr(buf, '('), *r = strrchr(buf, ')');
	int pp;
	if (!l || !r || r < l ||
	    sscanf(r + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &pp, start) != 2)
		return -1;
	snprintf(comm, comm_len, "%.*s", (int)(r - l - 1), l + 1);
	*ppid = pp;
	return 0;
}

void _tuccompi_launcher_watch(const char *log)
{
	const double grace = WATCH_GRACE_S;
	static int watched;
	if (watched++ || !getenv("OMPI_COMM_WORLD_RANK"))
		return; /* once; under Open MPI's launcher only */
	char comm[64], kind[8] = "";
	pid_t me = getpid(), d = getppid(), pp;
	unsigned long long my_start, d_start = 0;
	if (proc_stat(me, comm, sizeof(comm), &pp, &my_start) < 0)
		return;
	/* the nearest ancestor that is Open MPI's (a script may stand between) */
	for (int depth = 0; depth < 4 && d > 1 && !kind[0]; depth++)
	{
		if (proc_stat(d, comm, sizeof(comm), &pp, &d_start) < 0)
			return;
		if (!strcmp(comm, "orted"))
			snprintf(kind, sizeof(kind), "orted");
		else if (!strcmp(comm, "mpirun") || !strcmp(comm, "mpiexec") || !strcmp(comm, "orterun"))
			snprintf(kind, sizeof(kind), "mpirun");
		else
			d = pp;
	}
	if (!kind[0])
		return;
	/* its session folder: TOP/ompi.HOST.UID/{pid.PID,jf.N} (removed only after a SIGKILL) */
	const char *sd = getenv("OMPI_MCA_orte_jobfam_session_dir"), *top = getenv("OMPI_MCA_orte_top_session_dir");
	const char *base = sd ? strrchr(sd, '/') : NULL;
	if (!sd || !top || !base || strncmp(sd, top, strlen(top)) != 0 || sd[strlen(top)] != '/' ||
	    (strncmp(base, "/pid.", 5) != 0 && strncmp(base, "/jf.", 4) != 0))
		sd = "";
	char a_r[24], a_rs[24], a_d[24], a_ds[24], a_cs[16], msg[512];
	snprintf(a_r, sizeof(a_r), "%d", (int)me);
	snprintf(a_rs, sizeof(a_rs), "%llu", my_start);
	snprintf(a_d, sizeof(a_d), "%d", (int)d);
	snprintf(a_ds, sizeof(a_ds), "%llu", d_start);
	snprintf(a_cs, sizeof(a_cs), "%d", (int)(grace * 100));
	if (!strcmp(kind, "orted"))
		snprintf(msg, sizeof(msg),
			 "[tuccompi %d/%d] Open MPI's daemon on this host (orted, pid %d) had not ended %.0f s after rank %d "
			 "(pid %d) and waits for a host it cannot reach as long as TCP retransmits; ended it",
			 _tuccompi.rank, _tuccompi.nranks, (int)d, grace, _tuccompi.rank, (int)me);
	else
		snprintf(msg, sizeof(msg),
			 "[tuccompi %d/%d] %s (pid %d) had not ended %.0f s after rank %d (pid %d) and waits for a host it "
			 "cannot reach as long as TCP retransmits (net.ipv4.tcp_retries2, about 15 minutes by default); ended it",
			 _tuccompi.rank, _tuccompi.nranks, comm, (int)d, grace, _tuccompi.rank, (int)me);
	char *argv[] = { "/bin/sh", "-c", (char *)watch_sh, "tuccompi-watch", a_r, a_rs, a_d, a_ds, kind, a_cs,
			 (char *)sd, (char *)(log ? log : ""), msg, NULL };
	long maxfd = sysconf(_SC_OPEN_MAX);
	if (maxfd < 0 || maxfd > 65536)
		maxfd = 65536;
	pid_t c = fork();
	if (c == 0)
	{
		/* only async-signal-safe calls here: the other threads are gone */
		int fd = open("/dev/null", O_RDWR);
		if (fd >= 0)
		{
			dup2(fd, 0);
			dup2(fd, 1);
			dup2(fd, 2);
		}
#ifdef SYS_close_range
		if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0)
#endif
			for (long k = 3; k < maxfd; k++)
				close((int)k);
		execv("/bin/sh", argv);
		_exit(127);
	}
}
