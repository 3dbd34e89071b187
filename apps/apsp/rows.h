/* The rows file of tuccompi-apsp (--rows FILE): every source's full distance row, written in
 * place by the rank that ran the source into one file that every rank opens (a file system
 * shared by the nodes is needed).
 *
 * Two formats, chosen by the name:
 *  - FILE.npy: numpy's .npy format 1.0, a |S| x n array of float64 (C order, the machine's byte
 *    order, named in the header), inf where unreachable, rows in the order of the sources:
 *    numpy.load(FILE) reads it as it is, and equals scipy.sparse.csgraph.dijkstra(G, indices=S);
 *  - any other name: a 32-byte header ("TCCROWS1", uint32 n at offset 8, uint64 number of
 *    sources at 16), the sources (uint32 each), then one row of n uint32 distances per source
 *    in the order of the sources (UINT32_MAX: unreachable).
 *
 * The file takes its name only once every rank wrote its rows and the caller keeps it: until
 * then it is rank 0's temporary file (outfile.h), or, in a journaled run, PATH.partial, which
 * survives kills so that --resume goes on writing it (the rows of finished sources are in it
 * before the journal records them). PATH.partial carries the run's identity: the "TCCROWS1"
 * header with a key of the graph in its last 8 bytes (zero in a finished file), and the sources;
 * a .npy's after the array, cut off before it takes its name. So --resume finds out a partial
 * file of another run (another graph, other sources) in either format.
 *
 * The same file, of another kind, holds the predecessors of --pred (ROWS_PRED): always .npy, a
 * |S| x n array of int32 (the machine's byte order), -9999 where a vertex has none (the source,
 * unreachable vertices), as scipy.sparse.csgraph.dijkstra(G, indices=S, return_predecessors=True)
 * gives them; its partial file's identity starts "TCCPRED1".
 *
 * Collective calls (rows_file_open, rows_file_close) run on every rank; their errors are the same on
 * every rank, except where said. */
#ifndef TUCCOMPI_APSP_ROWS_H
#define TUCCOMPI_APSP_ROWS_H

#include <stdint.h>

#include "graph.h"
#include "outfile.h"

/** Bytes of the .npy preamble (magic, version 1.0, header length, header; a multiple of 64). */
#define NPY_PREAMBLE 128

/** What a rows file holds. */
enum rows_kind
{
	ROWS_DIST, /**< distances (--rows) */
	ROWS_PRED, /**< predecessors (--pred) */
};

/** A rows file being written. */
struct rows_file
{
	struct outfile out;
	const char *path;  /**< the final name */
	uint64_t data_off; /**< where the first row starts */
	uint64_t row_bytes;
	uint64_t id_off;   /**< where the run's identity (header and sources) is */
	uint64_t key;      /**< the graph's key in a partial file's identity */
	int npy;           /**< numpy's .npy (float64 or int32 rows) */
	int partial;       /**< journaled run: PATH.partial, kept across kills for --resume */
	enum rows_kind kind;
	const char *option; /**< "--rows" or "--pred", for messages */
};

/** The .npy 1.0 preamble of a @p k x @p n array of float64 (ROWS_DIST) or int32 (ROWS_PRED), C
 *  order, the machine's byte order, into @p buf (NPY_PREAMBLE bytes). */
void rows_npy_preamble(unsigned char *buf, uint64_t k, uint32_t n, enum rows_kind kind);

/** Collective: create the rows file of @p kind of @p k sources (@p src, in their order) of an
 *  @p n-vertex graph on rank 0, then open it on every rank (ROWS_PRED: .npy whatever the name). @p journal: write PATH.partial, marked with
 *  @p graph_key (the graph's hash; not 0); @p resume: reopen the one a killed run left, which
 *  must belong to this run. 0, or a negative errno with the message (-ESTALE: --resume found no
 *  partial rows of this run). */
int rows_file_open(struct rows_file *rf, enum rows_kind kind, const char *path, uint32_t n, const uint32_t *src,
		   uint64_t k, int journal, uint64_t graph_key, int resume, struct graph_error *err);

/** The SSSP plug-in's row callback (sssp_row_func): row @p id of the sources, @p dist holding
 *  @p n distances, written in place. Thread-safe. */
int rows_file_write(uint64_t id, uint32_t source, const uint32_t *dist, uint32_t n, void *ctx);

/** The plug-in's tree callback (sssp_pred_func) for a ROWS_PRED file. Thread-safe. */
int rows_file_write_pred(uint64_t id, uint32_t source, const int32_t *pred, uint32_t n, void *ctx);

/** Collective: close the file on every rank (@p ok: this rank wrote all its rows). With
 *  @p keep, rank 0 renames it into place once every rank succeeded; without, it is removed.
 *  0, or on rank 0 only a negative errno with the message (nothing left behind). */
int rows_file_close(struct rows_file *rf, int ok, int keep, struct graph_error *err);

#endif
