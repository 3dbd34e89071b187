/* What the test programs share, written once: assertion helpers (each failure prints both values
 * and where, then exits 1; exit 77 tells automake the test was skipped), the monotonic clock, a
 * scratch folder, stderr captured, and the library's start-up as the tests want it (TEST_INIT). */
#ifndef TUCCOMPI_TESTUTIL_H
#define TUCCOMPI_TESTUTIL_H

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TEST_SKIP 77

#define FAIL(...)                                                                 \
	do                                                                        \
	{                                                                         \
		fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);             \
		fprintf(stderr, __VA_ARGS__);                                     \
		fprintf(stderr, "\n");                                            \
		exit(1);                                                          \
	} while (0)

#define ASSERT(c)                                      \
	do                                             \
	{                                              \
		if (!(c))                              \
			FAIL("assertion `%s' failed", #c); \
	} while (0)

#define ASSERT_EQ(a, b)                                                                                    \
	do                                                                                                 \
	{                                                                                                  \
		long long _a = (long long)(a), _b = (long long)(b);                                        \
		if (_a != _b)                                                                              \
			FAIL("%s == %s: %lld != %lld", #a, #b, _a, _b);                                    \
	} while (0)

#define ASSERT_OK(call)                                                                                    \
	do                                                                                                 \
	{                                                                                                  \
		int _r = (call);                                                                           \
		if (_r < 0)                                                                                \
			FAIL("%s returned %d (%s): %s", #call, _r, tuccompi_strerror(_r), tuccompi_last_error()); \
	} while (0)

#define ASSERT_STR_CONTAINS(hay, needle)                                                        \
	do                                                                                      \
	{                                                                                       \
		const char *_h = (hay);                                                         \
		if (!_h || !strstr(_h, (needle)))                                               \
			FAIL("\"%s\" does not contain \"%s\"", _h ? _h : "(null)", (needle));   \
	} while (0)

/* Seconds on the monotonic clock (tests of the graph library do not link libtuccompi-starpu, whose
 * tuccompi_wtime() is the same clock). */
static inline double test_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A new folder $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR), its path in @p buf; FAIL if it cannot be made. */
static inline void test_scratch_dir(char *buf, size_t len, const char *name)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(buf, len, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
	if (!mkdtemp(buf))
		FAIL("mkdtemp %s: %s", buf, strerror(errno));
}

/* The next number of the splitmix64 sequence of state @p s (the tests' one generator of draws). */
static inline uint64_t test_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* What this process writes on stderr between test_stderr_begin() and test_stderr_end() (the
 * library's warnings, from any of its threads) goes to a file; test_stderr_end() puts stderr back and
 * returns the text (malloc'd, at most 64 KiB). */
static inline FILE *test_stderr_begin(int *saved)
{
	FILE *f = tmpfile();
	if (!f)
		FAIL("tmpfile: %s", strerror(errno));
	fflush(stderr);
	*saved = dup(2);
	if (*saved < 0 || dup2(fileno(f), 2) < 0)
		FAIL("dup2: %s", strerror(errno));
	return f;
}

static inline char *test_stderr_end(FILE *f, int saved)
{
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	char *text = (char *)calloc(1, 65537);
	if (!text)
		FAIL("out of memory");
	rewind(f);
	size_t n = fread(text, 1, 65536, f);
	text[n] = '\0';
	fclose(f);
	fputs(text, stderr); /* still in the test's log */
	return text;
}

/* A CUDA runtime call that must succeed (needs <cuda_runtime_api.h>). */
#define ASSERT_CUDA(call)                                                      \
	do                                                                     \
	{                                                                      \
		cudaError_t _e = (call);                                       \
		if (_e != cudaSuccess)                                         \
			FAIL("%s: %s", #call, cudaGetErrorString(_e));         \
	} while (0)

/* Start the library (needs <tuccompi.h>) quietly with TEST_NCPU CPU workers, @p ncpu_default when
 * TEST_NCPU is unset (the MPI scripts give each rank its own); a machine StarPU cannot start on skips
 * the test (exit 77), any other failure fails it. */
#define TEST_INIT(argcp, argvp, ncpu_default)                                  \
	do                                                                     \
	{                                                                      \
		struct tuccompi_conf _conf;                                    \
		tuccompi_conf_init(&_conf);                                    \
		_conf.quiet = 1;                                               \
		const char *_ncpu = getenv("TEST_NCPU");                       \
		_conf.ncpus = _ncpu ? atoi(_ncpu) : (ncpu_default);            \
		int _ret = tuccompi_init((argcp), (argvp), &_conf);            \
		if (_ret == -ENODEV)                                           \
			exit(TEST_SKIP);                                       \
		ASSERT_OK(_ret);                                               \
	} while (0)

#endif
