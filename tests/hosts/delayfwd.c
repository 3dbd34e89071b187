/* delayfwd: a network link with a fixed one-way delay, for hosts emulated by network namespaces on one
 * machine (tests/hosts/netns.sh). This kernel has no netem, so the delay is made here: two TAP
 * devices, every frame read from one written to the other DELAY_US microseconds later, in order.
 *
 *   delayfwd OUTER INNER DELAY_US [PIDFILE]
 *
 * creates the TAP devices OUTER and INNER (not persistent: they go when this process ends, so killing
 * it cuts the link), writes its pid to PIDFILE once both exist, and forwards until killed. The
 * caller attaches OUTER to its bridge and moves INNER into the host's namespace. Frames are queued
 * without limit on their count (a rate limit belongs to tc on the devices); run it with a real-time
 * priority (chrt -f) on a busy machine, or the delay grows with the scheduler's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/if.h>
#include <linux/if_tun.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define FRAME_MAX 65536

struct frame
{
	uint64_t due_ns;
	size_t len;
	struct frame *next;
	unsigned char data[];
};

struct queue
{
	struct frame *head, *tail;
};

static int tap_open(const char *name)
{
	int fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK);
	if (fd < 0)
	{
		fprintf(stderr, "delayfwd: cannot open /dev/net/tun: %s (run as root, with the tun module)\n", strerror(errno));
		exit(1);
	}
	struct ifreq ifr;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0)
	{
		fprintf(stderr, "delayfwd: cannot create TAP device %s: %s\n", name, strerror(errno));
		exit(1);
	}
	return fd;
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Read every frame waiting on @fd into @q, due @delay_ns from now. */
static void take(int fd, struct queue *q, uint64_t delay_ns, unsigned char *buf)
{
	for (;;)
	{
		ssize_t n = read(fd, buf, FRAME_MAX);
		if (n <= 0)
			return;
		struct frame *f = malloc(sizeof(*f) + (size_t)n);
		if (!f)
			return; /* dropped, as a full link would */
		f->due_ns = now_ns() + delay_ns;
		f->len = (size_t)n;
		f->next = NULL;
		memcpy(f->data, buf, (size_t)n);
		if (q->tail)
			q->tail->next = f;
		else
			q->head = f;
		q->tail = f;
	}
}

/* Write the frames of @q that are due to @fd; the time until the next one (ns), or -1. *full is
 * set when the device takes no more for now (the caller waits until it can be written to). */
static int64_t give(int fd, struct queue *q, int *full)
{
	uint64_t t = now_ns();
	*full = 0;
	while (q->head && q->head->due_ns <= t)
	{
		struct frame *f = q->head;
		if (write(fd, f->data, f->len) < 0 && errno == EAGAIN)
		{
			*full = 1; /* never spin on it: this process may run at a real-time priority */
			return -1;
		}
		q->head = f->next;
		if (!q->head)
			q->tail = NULL;
		free(f);
	}
	return q->head ? (int64_t)(q->head->due_ns - t) : -1;
}

int main(int argc, char **argv)
{
	if (argc < 4)
	{
		fprintf(stderr, "usage: %s OUTER INNER DELAY_US [PIDFILE]\n", argv[0]);
		return 2;
	}
	char *end = NULL;
	long us = strtol(argv[3], &end, 10);
	if (!*argv[3] || *end || us < 0 || us > 10000000)
	{
		fprintf(stderr, "delayfwd: DELAY_US '%s' is not a number of microseconds in [0, 10^7]\n", argv[3]);
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	int fd[2] = { tap_open(argv[1]), tap_open(argv[2]) };
	if (argc > 4)
	{
		FILE *p = fopen(argv[4], "w");
		if (!p)
		{
			fprintf(stderr, "delayfwd: cannot write %s: %s\n", argv[4], strerror(errno));
			return 1;
		}
		fprintf(p, "%d\n", (int)getpid());
		fclose(p);
	}
	uint64_t delay = (uint64_t)us * 1000u;
	struct queue q[2] = { { NULL, NULL }, { NULL, NULL } }; /* q[k]: frames read from fd[k] for fd[1-k] */
	unsigned char *buf = malloc(FRAME_MAX);
	if (!buf)
		return 1;
	for (;;)
	{
		int64_t wait = -1;
		int full[2];
		for (int k = 0; k < 2; k++)
		{
			int64_t w = give(fd[1 - k], &q[k], &full[1 - k]);
			if (w >= 0 && (wait < 0 || w < wait))
				wait = w;
		}
		struct pollfd p[2] = { { fd[0], (short)(POLLIN | (full[0] ? POLLOUT : 0)), 0 },
				       { fd[1], (short)(POLLIN | (full[1] ? POLLOUT : 0)), 0 } };
		struct timespec ts = { (time_t)(wait / 1000000000), (long)(wait % 1000000000) };
		if (ppoll(p, 2, wait < 0 ? NULL : &ts, NULL) < 0 && errno != EINTR)
		{
			fprintf(stderr, "delayfwd: poll: %s\n", strerror(errno));
			return 1;
		}
		for (int k = 0; k < 2; k++)
			if (p[k].revents & POLLIN)
				take(fd[k], &q[k], delay, buf);
	}
}
