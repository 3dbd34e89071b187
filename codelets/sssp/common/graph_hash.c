/* The graph hash and the byte hash under it (graph_hash.h). */
#include <string.h>

#include "common/graph_hash.h"
#include "sssp.h" /* sssp_graph_hash */

static inline uint64_t hash_word(uint64_t h, uint64_t x)
{
	h ^= x * 0x9e3779b97f4a7c15ull;
	h = (h << 29 | h >> 35) * 0xbf58476d1ce4e5b9ull;
	return h;
}

uint64_t sssp_hash_final(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

/* Four independent lanes, so the multiplications of consecutive words overlap. */
uint64_t sssp_hash_bytes(uint64_t h, const void *p, size_t len)
{
	const unsigned char *c = p;
	uint64_t l[4] = { h, h ^ 1, h ^ 2, h ^ 3 };
	size_t i = 0;
	for (; i + 32 <= len; i += 32)
		for (int k = 0; k < 4; k++)
		{
			uint64_t x;
			memcpy(&x, c + i + 8 * k, 8);
			l[k] = hash_word(l[k], x);
		}
	for (; i < len; i += 8)
	{
		uint64_t x = 0;
		memcpy(&x, c + i, len - i < 8 ? len - i : 8);
		l[0] = hash_word(l[0], x);
	}
	h = hash_word(h, len);
	for (int k = 0; k < 4; k++)
		h = hash_word(h, l[k]);
	return h;
}

uint64_t sssp_graph_hash(const struct sssp_graph *g)
{
	uint64_t h = hash_word(0x7475636363682d67ull, g->n);
	h = hash_word(h, g->m);
	h = sssp_hash_bytes(h, g->rowptr, ((size_t)g->n + 1) * sizeof *g->rowptr);
	h = sssp_hash_bytes(h, g->col, g->m * sizeof *g->col);
	h = sssp_hash_bytes(h, g->w, g->m * sizeof *g->w);
	return sssp_hash_final(h);
}
