#!/bin/sh
# TUCCOMPI_CUDA_CHECK (tuccompi_cuda.h): a call that succeeds goes on and writes nothing; a call that
# fails writes "PREFIX: CALL: CUDA's error string" and returns -EIO from the function; the call is
# made once; whylen 0 writes nothing. With g++ and, where it is, nvcc; CUDA's error strings need no
# GPU. Needs CUDA's headers and runtime (77 without).
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda/include/cuda_runtime.h" ] || { echo "no CUDA headers: skipped"; exit 77; }
lib=
for d in "$cuda/lib64" "$cuda/lib" "$cuda/targets/x86_64-linux/lib"; do
	[ -f "$d/libcudart.so" ] && { lib=$d; break; }
done
[ -n "$lib" ] || { echo "no CUDA runtime library: skipped"; exit 77; }
CXX=${CXX:-g++}
command -v "$CXX" >/dev/null || { echo "no C++ compiler: skipped"; exit 77; }
NVCC=${NVCC:-$cuda/bin/nvcc}
[ -x "$NVCC" ] || NVCC=
inc="-I${top_srcdir:-.}/include -isystem $cuda/include"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/t.cpp" <<'EOT'
#include <tuccompi_cuda.h>
#include <string.h>
static int calls;
static cudaError_t counted(cudaError_t e)
{
	calls++;
	return e;
}
static int step(cudaError_t e, char *why, size_t whylen)
{
	TUCCOMPI_CUDA_CHECK(counted(e), "step", why, whylen);
	return 7; // reached only when the call succeeded
}
int main()
{
	char why[256] = "untouched", want[256];
	if (step(cudaSuccess, why, sizeof(why)) != 7 || strcmp(why, "untouched") || calls != 1)
		return printf("FAIL: a call that succeeds stopped the function or wrote \"%s\"\n", why), 1;
	if (step(cudaErrorInvalidValue, why, sizeof(why)) != -EIO || calls != 2)
		return printf("FAIL: a failed call did not return -EIO once\n"), 1;
	snprintf(want, sizeof(want), "step: counted(e): %s", cudaGetErrorString(cudaErrorInvalidValue));
	if (strcmp(why, want))
		return printf("FAIL: \"%s\", want \"%s\"\n", why, want), 1;
	strcpy(why, "untouched");
	if (step(cudaErrorMemoryAllocation, why, 0) != -EIO || strcmp(why, "untouched"))
		return printf("FAIL: whylen 0 wrote \"%s\"\n", why), 1;
	if (tuccompi_cuda_error(cudaSuccess, "p", "c", why, sizeof(why)) != 0)
		return printf("FAIL: tuccompi_cuda_error(cudaSuccess) is not 0\n"), 1;
	printf("ok: %s\n", want);
	return 0;
}
EOT
$CXX -std=c++17 $inc "$tmp/t.cpp" -o "$tmp/t" -L"$lib" -lcudart -Wl,-rpath,"$lib" >"$tmp/log" 2>&1 ||
	{ echo "FAIL: $CXX does not build it"; cat "$tmp/log"; exit 1; }
"$tmp/t" || exit 1
if [ -n "$NVCC" ]; then
	cp "$tmp/t.cpp" "$tmp/t.cu"
	"$NVCC" -arch=sm_90 $inc "$tmp/t.cu" -o "$tmp/tn" >"$tmp/nlog" 2>&1 ||
		{ echo "FAIL: nvcc does not build it"; cat "$tmp/nlog"; exit 1; }
	"$tmp/tn" || exit 1
fi
