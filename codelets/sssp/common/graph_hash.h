/* Hashing for caches and journals: sssp_graph_hash() (declared in sssp.h and ch.h) ties a cache
 * file or a journal to one graph; the byte hash below is also the cache file's checksum. Not
 * cryptographic. */
#ifndef TUCCOMPI_SSSP_GRAPH_HASH_H
#define TUCCOMPI_SSSP_GRAPH_HASH_H

#include <stddef.h>
#include <stdint.h>

/** Fold @p len bytes at @p p into the running hash @p h (four independent lanes). */
uint64_t sssp_hash_bytes(uint64_t h, const void *p, size_t len);
/** The final mix of a running hash. */
uint64_t sssp_hash_final(uint64_t h);

#endif
