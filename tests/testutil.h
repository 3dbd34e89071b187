/* Small assertion helpers for the test programs: each failure prints both values and
 * where, then exits 1. Exit 77 tells automake the test was skipped. */
#ifndef TUCCOMPI_TESTUTIL_H
#define TUCCOMPI_TESTUTIL_H

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

#endif
