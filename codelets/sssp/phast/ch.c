/* The contraction hierarchy as an object (ch.h): allocation, access for the engines. Its builder
 * is ch_build.c, its cache file ch_file.c. */
#include <stdio.h>
#include <stdlib.h>

#include "phast/ch_internal.h"

struct sssp_ch *sssp_ch_alloc(uint32_t n, uint32_t levels, uint64_t up, uint64_t down)
{
	struct sssp_ch *ch = calloc(1, sizeof *ch);
	if (!ch)
		return NULL;
	ch->n = n;
	ch->levels = levels;
	ch->up_arcs = up;
	ch->down_arcs = down;
	/* at least one element each, so that every buffer has a valid pointer */
	ch->level_start = malloc(((size_t)levels + 1) * sizeof(uint32_t));
	ch->pos = malloc(((size_t)n + 1) * sizeof(uint32_t));
	ch->orig = malloc(((size_t)n + 1) * sizeof(uint32_t));
	ch->up_start = malloc(((size_t)n + 1) * sizeof(uint64_t));
	ch->upin_start = malloc(((size_t)n + 1) * sizeof(uint64_t));
	ch->down_start = malloc(((size_t)n + 1) * sizeof(uint64_t));
	ch->up = malloc((up + 1) * sizeof(struct sssp_ch_arc));
	ch->upin = malloc((up + 1) * sizeof(struct sssp_ch_arc));
	ch->down = malloc((down + 1) * sizeof(struct sssp_ch_arc));
	ch->up_mid = malloc((up + 1) * sizeof(uint32_t));
	ch->down_mid = malloc((down + 1) * sizeof(uint32_t));
	if (!ch->level_start || !ch->pos || !ch->orig || !ch->up_start || !ch->upin_start || !ch->down_start ||
	    !ch->up || !ch->upin || !ch->down || !ch->up_mid || !ch->down_mid)
	{
		sssp_ch_free(ch);
		return NULL;
	}
	return ch;
}

void sssp_ch_free(struct sssp_ch *ch)
{
	if (!ch)
		return;
	free(ch->level_start);
	free(ch->pos);
	free(ch->orig);
	free(ch->up_start);
	free(ch->upin_start);
	free(ch->down_start);
	free(ch->up);
	free(ch->upin);
	free(ch->down);
	free(ch->up_mid);
	free(ch->down_mid);
	free(ch);
}

void sssp_ch_stats(const struct sssp_ch *ch, struct sssp_ch_stats *st)
{
	*st = ch->st;
}

void sssp_ch_dims(const struct sssp_ch *ch, struct sssp_ch_dims *d)
{
	d->n = ch->n;
	d->levels = ch->levels;
	d->up_arcs = ch->up_arcs;
	d->down_arcs = ch->down_arcs;
}

unsigned sssp_ch_buffers(const struct sssp_ch *ch, const void **ptr, size_t *size, unsigned max)
{
	const void *p[SSSP_CH_NBUF] = { ch->level_start, ch->pos,	 ch->orig, ch->up_start, ch->up,
					ch->upin_start,	 ch->upin,	 ch->down_start, ch->down };
	size_t nn = (size_t)ch->n + 1;
	size_t s[SSSP_CH_NBUF] = { ((size_t)ch->levels + 1) * sizeof(uint32_t),
				   (size_t)ch->n * sizeof(uint32_t),
				   (size_t)ch->n * sizeof(uint32_t),
				   nn * sizeof(uint64_t),
				   ch->up_arcs * sizeof(struct sssp_ch_arc),
				   nn * sizeof(uint64_t),
				   ch->up_arcs * sizeof(struct sssp_ch_arc),
				   nn * sizeof(uint64_t),
				   ch->down_arcs * sizeof(struct sssp_ch_arc) };
	for (unsigned i = 0; i < max && i < SSSP_CH_NBUF; i++)
	{
		ptr[i] = p[i];
		size[i] = s[i];
	}
	return SSSP_CH_NBUF;
}

void sssp_ch_view_from(const struct sssp_ch_dims *d, const void *const *buf, struct sssp_ch_view *v)
{
	v->n = d->n;
	v->levels = d->levels;
	v->level_start = buf[SSSP_CH_BUF_LEVEL];
	v->pos = buf[SSSP_CH_BUF_POS];
	v->orig = buf[SSSP_CH_BUF_ORIG];
	v->up_start = buf[SSSP_CH_BUF_UP_START];
	v->up = buf[SSSP_CH_BUF_UP];
	v->upin_start = buf[SSSP_CH_BUF_UPIN_START];
	v->upin = buf[SSSP_CH_BUF_UPIN];
	v->down_start = buf[SSSP_CH_BUF_DOWN_START];
	v->down = buf[SSSP_CH_BUF_DOWN];
}

void sssp_ch_view(const struct sssp_ch *ch, struct sssp_ch_view *v)
{
	const void *p[SSSP_CH_NBUF];
	size_t s[SSSP_CH_NBUF];
	struct sssp_ch_dims d;
	sssp_ch_buffers(ch, p, s, SSSP_CH_NBUF);
	sssp_ch_dims(ch, &d);
	sssp_ch_view_from(&d, p, v);
}

const uint32_t *sssp_ch_up_middle(const struct sssp_ch *ch)
{
	return ch->up_mid;
}

const uint32_t *sssp_ch_down_middle(const struct sssp_ch *ch)
{
	return ch->down_mid;
}
