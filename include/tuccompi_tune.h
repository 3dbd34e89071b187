/*
 * The tuning layer of TuCCompi: a programmer describes each CUDA kernel in the terms of
 * the paper's Table 1 (KERNELCHAR) and the library chooses the thread-block size and shape
 * and the L1/shared-memory split for every GPU it meets, by rules (tuccompi_tune_rules())
 * or by measurement (empirical mode, kept in a tuning database on disk).
 *
 * This header is plain C and needs no CUDA: the rule engine works on a description of the
 * device (struct tuccompi_device_props), so it can be checked on any machine. The launch
 * helpers that apply its answers are in <tuccompi_cuda.h>.
 */
#ifndef TUCCOMPI_TUNE_H
#define TUCCOMPI_TUNE_H

#ifndef TUCCOMPI_API
/** Marks what the library exports (it is built with hidden visibility). */
#define TUCCOMPI_API __attribute__((visibility("default")))
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ================================================================ characterisation (Table 1) */

/** A: global-memory access pattern. */
enum tuccompi_access
{
	TUCCOMPI_ACCESS_DEF = 0,          /**< unknown: measure (empirical mode) */
	TUCCOMPI_ACCESS_SCATTER,          /**< data-dependent, uncoalesced */
	TUCCOMPI_ACCESS_MEDIUM_COALESCED, /**< partly coalesced (strided, a few segments per warp) */
	TUCCOMPI_ACCESS_COALESCED,        /**< consecutive threads, consecutive words */
};

/** B, C, D: a level. Not every parameter takes every level (see tuccompi_kernel_char_check()). */
enum tuccompi_level
{
	TUCCOMPI_LEVEL_DEF = 0, /**< unknown */
	TUCCOMPI_LEVEL_NONE,    /**< B only: no arithmetic beyond addressing */
	TUCCOMPI_LEVEL_LOW,
	TUCCOMPI_LEVEL_MEDIUM,  /**< C and D only */
	TUCCOMPI_LEVEL_HIGH,
};

/** A kernel's characterisation: KERNELCHAR(kernel, dims, A, B, C, D). */
struct tuccompi_kernel_char
{
	const char *name;        /**< kernel name (key of the tuning database) */
	unsigned dims;           /**< thread-block dimensions: 1 or 2 */
	enum tuccompi_access a;  /**< A: global-memory access pattern */
	enum tuccompi_level b;   /**< B: arithmetic instructions per thread vs global accesses (high/low/none/def) */
	enum tuccompi_level c;   /**< C: L1 cache-line evictions vs the L1 size (high/medium/low/def) */
	enum tuccompi_level d;   /**< D: data reuse vs arithmetic instructions per thread (high/medium/low/def) */
};

/** 0 if @p kc is a valid characterisation, else -EINVAL with tuccompi_last_error()
 *  naming the kernel, the parameter, its value and the values allowed. */
TUCCOMPI_API int tuccompi_kernel_char_check(const struct tuccompi_kernel_char *kc);

/** Parse a characterisation from text ("relax 1 scatter low high low"), for tools and
 *  tests; the same checks as tuccompi_kernel_char_check(). The name is copied into
 *  @p name_buf. */
TUCCOMPI_API int tuccompi_kernel_char_parse(const char *text, struct tuccompi_kernel_char *kc, char *name_buf, size_t name_len);

/** Short text of a value ("scatter", "high", ...). */
TUCCOMPI_API const char *tuccompi_access_name(enum tuccompi_access a);
TUCCOMPI_API const char *tuccompi_level_name(enum tuccompi_level l);

/* ================================================================ devices and answers */

/** What the rules need to know of a GPU (filled from cudaGetDeviceProperties, or recorded). */
struct tuccompi_device_props
{
	char name[64];
	int cc_major, cc_minor;
	int sm_count;
	int warp_size;
	int max_threads_per_block;
	int max_threads_per_sm;
	int max_blocks_per_sm;
	int regs_per_sm;
	int regs_per_block;
	int max_regs_per_thread;
	int reg_alloc_unit;        /**< registers are allocated per warp in multiples of this */
	int shared_per_sm;         /**< bytes usable for shared memory per SM at most */
	int shared_per_block;      /**< default per-block limit (48 KiB) */
	int shared_per_block_optin;/**< opt-in per-block limit */
	int l1_shared_total;       /**< bytes of the unified L1 + shared array per SM */
	int shared_reserved_per_block; /**< bytes the system takes per block (1 KiB on sm_80+) */
	int carveout_options[12];  /**< shared-memory sizes (KiB) the carveout can give, 0-terminated */
};

/** What the rules need to know of a kernel (from cudaFuncGetAttributes). */
struct tuccompi_kernel_attr
{
	int num_regs;             /**< registers per thread */
	int max_threads_per_block;/**< limit from its register use / __launch_bounds__ */
	size_t shared_static;     /**< bytes of static shared memory per block */
	size_t shared_dynamic;    /**< bytes of dynamic shared memory per block the launch passes */
};

/** Cache preference: how the unified L1/shared array is split. */
enum tuccompi_cache_pref
{
	TUCCOMPI_CACHE_DEFAULT = 0, /**< leave the driver's choice */
	TUCCOMPI_CACHE_PREFER_L1,   /**< as little shared memory as the kernel needs: largest L1 */
	TUCCOMPI_CACHE_PREFER_SHARED,
	TUCCOMPI_CACHE_EQUAL,
};

/** A launch geometry and cache preference chosen for a kernel on a device. */
struct tuccompi_geometry
{
	unsigned block_x, block_y;       /**< block shape (block_y = 1 for 1-D) */
	enum tuccompi_cache_pref cache;  /**< L1/shared preference */
	int carveout;                    /**< percent of the array given to shared memory, -1 default */
	int blocks_per_sm;               /**< resident blocks per SM this gives (occupancy arithmetic) */
	double occupancy;                /**< resident warps / maximum warps per SM */
	char why[160];                   /**< the rules that decided, for logs and tools */
};

/** Resident blocks per SM for @p threads threads per block and the given shared-memory
 *  carveout (percent, -1: the most the device can give), by the CUDA occupancy rules. 0 when
 *  the block cannot run at all. */
TUCCOMPI_API int tuccompi_occupancy_blocks(const struct tuccompi_device_props *dev, const struct tuccompi_kernel_attr *attr,
			      unsigned threads, int carveout);

/** The rule-based choice for a characterised kernel on a device over an input of
 *  nx * ny elements. Always a valid launch (warp multiple, within the thread, register and
 *  shared-memory limits) or an error (-EINVAL: bad characterisation; -ENOSPC: the kernel
 *  cannot run on this device at all). */
TUCCOMPI_API int tuccompi_tune_rules(const struct tuccompi_kernel_char *kc, const struct tuccompi_kernel_attr *attr,
			const struct tuccompi_device_props *dev, uint64_t nx, uint64_t ny,
			struct tuccompi_geometry *out);

/** The candidates the empirical mode measures (block sizes and shapes x cache
 *  preferences), all valid for this device and kernel. Returns how many were written. */
TUCCOMPI_API int tuccompi_tune_candidates(const struct tuccompi_kernel_char *kc, const struct tuccompi_kernel_attr *attr,
			     const struct tuccompi_device_props *dev, struct tuccompi_geometry *out, int max);

/** Recorded properties of a few GPU generations (Fermi GTX 480, Kepler GTX 680 and K20,
 *  Ampere A100, Hopper H100 and H200), by name ("gtx480", "gtx680", "k20", "a100", "h100",
 *  "h200"); NULL if unknown. For tests and for planning without the hardware. */
TUCCOMPI_API const struct tuccompi_device_props *tuccompi_device_props_recorded(const char *name);

/* ================================================================ modes and the database */

enum tuccompi_tune_mode
{
	TUCCOMPI_TUNE_RULES = 0,  /**< the rule engine (default; kernels with A = def are measured) */
	TUCCOMPI_TUNE_EMPIRICAL,  /**< measure every kernel on first use, keep the best in the database */
	TUCCOMPI_TUNE_CUDA,       /**< cudaOccupancyMaxPotentialBlockSize (CUDA's recommendation) */
	TUCCOMPI_TUNE_FIXED,      /**< what tuccompi_tune_force() set (benchmarks) */
};

/** Set the mode for kernels launched afterwards (default: $TUCCOMPI_TUNE = rules | empirical |
 *  cuda, else rules). */
TUCCOMPI_API int tuccompi_tune_set_mode(enum tuccompi_tune_mode mode);
TUCCOMPI_API enum tuccompi_tune_mode tuccompi_tune_get_mode(void);
/** Parse "rules", "empirical", "cuda". */
TUCCOMPI_API int tuccompi_tune_mode_parse(const char *s, enum tuccompi_tune_mode *mode);

/** FIXED mode: use this geometry for kernel @p name (NULL: every kernel); a kernel of one block
 *  (TUCCOMPI_KERNELCHAR_BLOCK) keeps its own. */
TUCCOMPI_API int tuccompi_tune_force(const char *name, unsigned block_x, unsigned block_y, int carveout);

/** Path of the tuning database: $TUCCOMPI_TUNE_DB, else $HOME/.tuccompi/tune.db. */
TUCCOMPI_API const char *tuccompi_tune_db_path(void);

/** One record of the database. */
struct tuccompi_tune_record
{
	char kind[8];     /**< "kernel", "mk" or "batch" */
	char device[96];  /**< device key: name and compute capability */
	char name[96];    /**< kernel or plug-in name */
	int size_class;   /**< kernel: floor(log2(elements)); mk: 0 */
	unsigned block_x, block_y;
	int carveout;
	int mk;           /**< mk records: the best MK; batch records: the best batch size (size_class = unit kind) */
	double value;     /**< kernel: median time (us); mk: tasks per second */
	int samples;
};

/** Look up the newest record of (kind, device, name, size_class). 1 found, 0 not, <0 error. */
TUCCOMPI_API int tuccompi_tune_db_lookup(const char *kind, const char *device, const char *name, int size_class,
			    struct tuccompi_tune_record *out);
/** Append a record (under a file lock: several ranks may share a home). */
TUCCOMPI_API int tuccompi_tune_db_store(const struct tuccompi_tune_record *rec);
/** Print the database (newest record per key) on @p f; returns the number of records. */
TUCCOMPI_API int tuccompi_tune_db_print(FILE *f);
/** Remove the database file. */
TUCCOMPI_API int tuccompi_tune_db_clear(void);

#ifdef __cplusplus
}
#endif

#endif
