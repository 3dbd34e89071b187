#!/bin/sh
# KERNELCHAR (and KERNELCHAR_BLOCK, at the end) refuses values outside Table 1 at compile time: a
# good characterisation compiles and gives the table's values, each bad one fails with the one line
# the header quotes (naming the parameter and the words it takes), with g++ and, where it is, with
# nvcc. Needs CUDA's headers (77 without).
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -f "$cuda/include/cuda_runtime.h" ] || { echo "no CUDA headers: skipped"; exit 77; }
CXX=${CXX:-g++}
command -v "$CXX" >/dev/null || { echo "no C++ compiler: skipped"; exit 77; }
NVCC=${NVCC:-$cuda/bin/nvcc}
[ -x "$NVCC" ] || NVCC=
inc="-I${top_srcdir:-.}/include -isystem $cuda/include"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
try() { # try EXPECT(ok|fail) "A, B, C, D" "dims" [message]
	printf '#include <tuccompi_cuda.h>\nTUCCOMPI_KERNELCHAR(k, %s, %s);\nint main() { return tuccompi_kernel_k.kc.dims; }\n' "$3" "$2" >"$tmp/t.cpp"
	if $CXX -std=c++17 -fsyntax-only $inc "$tmp/t.cpp" >"$tmp/log" 2>&1; then got=ok; else got=fail; fi
	if [ "$got" != "$1" ]; then echo "FAIL: KERNELCHAR(k, $3, $2): expected $1, got $got"; cat "$tmp/log"; exit 1; fi
	if [ -n "$4" ]; then
		grep -q "error: static assertion failed: KERNELCHAR(k): $4" "$tmp/log" || {
			echo "FAIL: $CXX's message lacks 'KERNELCHAR(k): $4'"; cat "$tmp/log"; exit 1; }
		[ "$(grep -c 'error' "$tmp/log")" -eq 1 ] || { echo "FAIL: more than the one error line"; cat "$tmp/log"; exit 1; }
	fi
	if [ -n "$NVCC" ]; then
		cp "$tmp/t.cpp" "$tmp/t.cu"
		if "$NVCC" -arch=sm_90 $inc -c "$tmp/t.cu" -o "$tmp/t.o" >"$tmp/nlog" 2>&1; then ngot=ok; else ngot=fail; fi
		[ "$ngot" = "$1" ] || { echo "FAIL: nvcc: KERNELCHAR(k, $3, $2): expected $1, got $ngot"; cat "$tmp/nlog"; exit 1; }
		if [ -n "$4" ] && ! grep -q "error: static assertion failed with \"KERNELCHAR(k): $4\"" "$tmp/nlog"; then
			echo "FAIL: nvcc's message lacks 'KERNELCHAR(k): $4'"; cat "$tmp/nlog"; exit 1
		fi
	fi
	echo "ok: KERNELCHAR(k, $3, $2) -> $got${4:+: $4}"
}
try ok "scatter, low, high, low" 1
try ok "medium_coalesced, none, medium, def" 2
try ok "def, def, def, def" 1
try ok "coalesced, none, low, low" 1
try ok "coalesced, high, low, low" 1
try fail "scatter, medium, high, low" 1 "B takes high, low, none or def"
try fail "scatter, low, none, low" 1 "C takes high, medium, low or def"
try fail "scatter, low, high, none" 1 "D takes high, medium, low or def"
try fail "scattered, low, high, low" 1 "A takes scatter, medium_coalesced, coalesced or def"
try fail "scatter, low, high, low" 3 "dims must be 1 or 2"

# every word gives the table's value (the header's examples among them)
cat >"$tmp/v.cpp" <<'EOT'
#include <tuccompi_cuda.h>
TUCCOMPI_KERNELCHAR(relax, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR(stencil, 2, medium_coalesced, low, medium, high);
TUCCOMPI_KERNELCHAR(fill, 1, coalesced, none, low, low);
TUCCOMPI_KERNELCHAR(probe, 1, def, def, def, def);
TUCCOMPI_KERNELCHAR(pricer, 1, coalesced, high, low, low);
#define SAME(k, A, B, C, D) (tuccompi_kernel_##k.kc.a == A && tuccompi_kernel_##k.kc.b == B && \
			     tuccompi_kernel_##k.kc.c == C && tuccompi_kernel_##k.kc.d == D)
int main()
{
	int ok = SAME(relax, TUCCOMPI_ACCESS_SCATTER, TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_HIGH, TUCCOMPI_LEVEL_LOW) &&
		 SAME(stencil, TUCCOMPI_ACCESS_MEDIUM_COALESCED, TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_MEDIUM, TUCCOMPI_LEVEL_HIGH) &&
		 SAME(fill, TUCCOMPI_ACCESS_COALESCED, TUCCOMPI_LEVEL_NONE, TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_LOW) &&
		 SAME(probe, TUCCOMPI_ACCESS_DEF, TUCCOMPI_LEVEL_DEF, TUCCOMPI_LEVEL_DEF, TUCCOMPI_LEVEL_DEF) &&
		 SAME(pricer, TUCCOMPI_ACCESS_COALESCED, TUCCOMPI_LEVEL_HIGH, TUCCOMPI_LEVEL_LOW, TUCCOMPI_LEVEL_LOW) &&
		 tuccompi_kernel_stencil.kc.dims == 2;
	return ok ? 0 : 1;
}
EOT
$CXX -std=c++17 $inc "$tmp/v.cpp" -o "$tmp/v" >"$tmp/log" 2>&1 || { echo "FAIL: the values program does not build"; cat "$tmp/log"; exit 1; }
"$tmp/v" || { echo "FAIL: a KERNELCHAR word does not give the table's value"; exit 1; }
echo "ok: every word gives the table's value"

# KERNELCHAR_BLOCK: a kernel of one block keeps it in its object (dims 2 when by > 1); a block that is
# not a multiple of 32 threads up to 1024 does not compile, with the one line the header quotes
cat >"$tmp/b.cpp" <<'EOT'
#include <tuccompi_cuda.h>
TUCCOMPI_KERNELCHAR_BLOCK(loop, 256, 1, scatter, low, high, low);
TUCCOMPI_KERNELCHAR_BLOCK(tile, 32, 8, coalesced, none, low, medium);
TUCCOMPI_KERNELCHAR(free_k, 1, scatter, low, high, low);
int main()
{
	return tuccompi_kernel_loop.block_x == 256 && tuccompi_kernel_loop.block_y == 1 && tuccompi_kernel_loop.kc.dims == 1 &&
			       tuccompi_kernel_tile.block_x == 32 && tuccompi_kernel_tile.block_y == 8 &&
			       tuccompi_kernel_tile.kc.dims == 2 && tuccompi_kernel_free_k.block_x == 0 &&
			       tuccompi_kernel_tile.kc.a == TUCCOMPI_ACCESS_COALESCED && tuccompi_kernel_tile.kc.d == TUCCOMPI_LEVEL_MEDIUM
		       ? 0
		       : 1;
}
EOT
$CXX -std=c++17 $inc "$tmp/b.cpp" -o "$tmp/b" >"$tmp/log" 2>&1 || { echo "FAIL: the KERNELCHAR_BLOCK program does not build"; cat "$tmp/log"; exit 1; }
"$tmp/b" || { echo "FAIL: KERNELCHAR_BLOCK does not keep its block or its characterisation"; exit 1; }
for bad in "100, 1" "2048, 1" "32, 33" "0, 1"; do
	printf '#include <tuccompi_cuda.h>\nTUCCOMPI_KERNELCHAR_BLOCK(k, %s, scatter, low, high, low);\nint main() { return 0; }\n' "$bad" >"$tmp/bb.cpp"
	if $CXX -std=c++17 -fsyntax-only $inc "$tmp/bb.cpp" >"$tmp/log" 2>&1; then
		echo "FAIL: KERNELCHAR_BLOCK(k, $bad, ...) compiled"; exit 1
	fi
	grep -q "KERNELCHAR_BLOCK(k): bx x by must be a multiple of 32 threads, up to 1024" "$tmp/log" || {
		echo "FAIL: KERNELCHAR_BLOCK(k, $bad, ...): the message lacks the rule"; cat "$tmp/log"; exit 1; }
done
printf '#include <tuccompi_cuda.h>\nTUCCOMPI_KERNELCHAR_BLOCK(k, 256, 1, scattered, low, high, low);\nint main() { return 0; }\n' >"$tmp/bb.cpp"
$CXX -std=c++17 -fsyntax-only $inc "$tmp/bb.cpp" >"$tmp/log" 2>&1 && { echo "FAIL: KERNELCHAR_BLOCK took A = scattered"; exit 1; }
grep -q "KERNELCHAR(k): A takes scatter, medium_coalesced, coalesced or def" "$tmp/log" || {
	echo "FAIL: KERNELCHAR_BLOCK's bad A lacks KERNELCHAR's message"; cat "$tmp/log"; exit 1; }
echo "ok: KERNELCHAR_BLOCK keeps its block; bad blocks and words do not compile"
