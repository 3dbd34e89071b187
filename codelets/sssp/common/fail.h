/* The engines' one way to fail, the library's: a function returns 0 or a negative errno and, on a
 * failure, writes one line into its caller's buffer (char *why, size_t whylen: what went wrong and
 * where; nothing written when whylen is 0). The task functions hand that line to the runtime
 * (tuccompi_task_fail, tuccompi_batch_fail; gpu_glue.h's job for the GPU batch engines) under their
 * engine's prefix. A CUDA runtime call fails the same way: TUCCOMPI_CUDA_CHECK (tuccompi_cuda.h),
 * its prefix the function's name. For C and CUDA sources alike. */
#ifndef TUCCOMPI_SSSP_FAIL_H
#define TUCCOMPI_SSSP_FAIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/** Write the line (printf's @p fmt) into @p why and return @p code. */
__attribute__((format(printf, 4, 5))) static inline int sssp_fail(char *why, size_t whylen, int code, const char *fmt,
								   ...)
{
	if (why && whylen)
	{
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return code;
}

#endif
