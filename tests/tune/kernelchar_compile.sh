#!/bin/sh
# KERNELCHAR refuses values outside Table 1 at compile time: a good characterisation
# compiles, each bad one fails naming the bad value. Needs CUDA's headers (77 without).
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda/include/cuda_runtime.h" ] || { echo "no CUDA headers: skipped"; exit 77; }
CXX=${CXX:-g++}
command -v "$CXX" >/dev/null || { echo "no C++ compiler: skipped"; exit 77; }
inc="-I${top_srcdir:-.}/include -isystem $cuda/include"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
try() { # try EXPECT(ok|fail) "A, B, C, D" "dims" [message]
	printf '#include <tuccompi_cuda.h>\nTUCCOMPI_KERNELCHAR(k, %s, %s);\nint main() { return tuccompi_kernel_k.kc.dims; }\n' "$3" "$2" >"$tmp/t.cpp"
	if $CXX -std=c++17 -fsyntax-only $inc "$tmp/t.cpp" >"$tmp/log" 2>&1; then got=ok; else got=fail; fi
	if [ "$got" != "$1" ]; then echo "FAIL: KERNELCHAR(k, $3, $2): expected $1, got $got"; cat "$tmp/log"; exit 1; fi
	if [ -n "$4" ] && ! grep -q "$4" "$tmp/log"; then echo "FAIL: message lacks '$4'"; cat "$tmp/log"; exit 1; fi
	echo "ok: KERNELCHAR(k, $3, $2) -> $got"
}
try ok "scatter, low, high, low" 1
try ok "medium_coalesced, none, medium, def" 2
try ok "def, def, def, def" 1
try fail "scatter, medium, high, low" 1 "TUCCOMPI_B_medium"
try fail "scatter, low, none, low" 1 "TUCCOMPI_C_none"
try fail "scattered, low, high, low" 1 "TUCCOMPI_A_scattered"
try fail "scatter, low, high, low" 3 "dims must be 1 or 2"
