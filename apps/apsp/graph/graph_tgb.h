/* The binary graph file (.tgb) inside the library (graph_tgb.c): its header, its checksum, and
 * reading and writing it with or without the record of a cache's source. Not part of the
 * library's API; the fuzz target uses the header and the checksum to make valid files. */
#ifndef TUCCOMPI_GRAPH_TGB_H
#define TUCCOMPI_GRAPH_TGB_H

#include "graph_internal.h"

#include <stdint.h>

#define TGB_MAGIC "TUCGRAPH"
#define TGB_VERSION 1u
#define TGB_BYTE_ORDER 0x01020304u
#define TGB_CACHE 1u   /* flags: made from a source file */
#define TGB_ROUNDED 2u /* flags: a cache whose source had real weights rounded (real_round) */
/* flags: written without a checksum (field 0) by a program that cannot compute it cheaply (the
 * Python module, python/tuccompi); every CSR invariant is still checked. Never a cache. */
#define TGB_NO_CHECKSUM 4u

struct tgb_header
{
	char magic[8];
	uint32_t version;
	uint32_t byte_order;
	uint32_t n;
	uint32_t max_w;
	uint64_t m;
	uint32_t flags;
	uint32_t pattern_weight; /* read options of a cache's source */
	double real_scale;
	uint64_t src_size; /* a cache's source file */
	int64_t src_mtime_sec;
	int64_t src_mtime_nsec;
	uint64_t checksum; /* over the header (this field 0) and the arrays */
};
_Static_assert(sizeof(struct tgb_header) == 80, "the .tgb header layout is fixed");

/** What a cache must match to stand for its source. */
struct cache_key
{
	uint64_t size;
	int64_t mtime_sec, mtime_nsec;
	double real_scale;
	uint32_t pattern_weight;
	int real_round; /* reading: rounded weights may be used (TGB_ROUNDED) */
	int rounded;    /* writing: the weights were rounded (TGB_ROUNDED) */
};

/** The checksum's hash of @p len bytes, chained from @p seed (0 for the first block). */
uint64_t graph_tgb_hash(uint64_t seed, const void *data, uint64_t len);

/** Load a .tgb file. With @p key, it must be a cache of that source, made with the same read
 *  options, holding rounded weights only when key->real_round allows them: -ESTALE otherwise
 *  (o->info, when given, says whether they were rounded). */
int graph_tgb_read(const char *path, const struct graph_read_options *o, const struct cache_key *key, struct graph *g,
		   struct graph_error *err);

/** Write @p g as a .tgb file, atomically; with @p key, as a cache of that source. */
int graph_tgb_write(const struct graph *g, const char *path, const struct cache_key *key, struct graph_error *err);

#endif
