#!/bin/sh
# A user's program built against the bundle (make bundle), as examples/README.md says it: its shell
# block after the bundle.sh marker, run by bash (env.sh is bash's) in a copy of examples/hutchinson/
# (tests/mpirun.sh for its mpirun). Also: the bundle's .pc files name nothing outside the bundle but CUDA; no run path of the
# bundle's files points into the build machine; the bundle's own example and the program built find
# the bundle's libraries without LD_LIBRARY_PATH.
#
# Under make check: makes a small bundle (scripts/bundle.sh: the library, StarPU, the example, no
# Open MPI) and moves it elsewhere first. In a bundle (a GPU node, tests/run-tests.sh): that bundle,
# when the node has cc and nvcc (77 otherwise; the bundled program runs in tests/core/plugin_gpu.sh);
# with a GPU, the GPU must have run tasks. Exit 77 when a tool is missing.
set -u
s=${top_srcdir:-.}
b=${top_builddir:-.}
. "$s/tests/install/common.sh"
install_start bash cc pkg-config python3 ldd

if [ -f "$b/Makefile" ]; then
	[ -x "$b/examples/hutchinson/hutchinson" ] || fail "examples/hutchinson/hutchinson is not built"
	[ -f "$b/tuccompi-starpu.pc" ] || fail "tuccompi-starpu.pc is not made"
	echo "== scripts/bundle.sh (the example alone, no Open MPI), then moved"
	BUNDLE_MPI=0 BUILD_DIR=$abs_b STARPU_PREFIX=$starpu BUNDLE_PROGRAMS=examples/hutchinson/hutchinson \
		BUNDLE_LIBDIR=$(dirname "${pkgconfigdir:-/nonexistent/pkgconfig}") BUNDLE_TESTS= \
		"$abs_s/scripts/bundle.sh" "$tmp/made/bundle" >"$tmp/bundle.log" 2>&1 ||
		{ tail -n 20 "$tmp/bundle.log"; fail "scripts/bundle.sh"; }
	mkdir -p "$tmp/node" && mv "$tmp/made/bundle" "$tmp/node/bundle" && rmdir "$tmp/made" || fail "moving the bundle"
	B=$tmp/node/bundle
	# what the build machine's paths are: none may be left in the bundle
	old="$abs_b $starpu $tmp/made"
else
	[ -f "$b/env.sh" ] || { echo "neither a build tree nor a bundle: skipped"; exit 77; }
	B=$abs_b
	old=
fi
echo "bundle: $B"
command -v nvcc >/dev/null 2>&1 || PATH=$PATH:/usr/local/cuda/bin
if [ -f "$B/lib/pkgconfig/tuccompi-starpu-cuda.pc" ] && ! command -v nvcc >/dev/null 2>&1; then
	echo "no nvcc on this machine (the bundled examples/hutchinson/hutchinson is tests/core/plugin_gpu.sh's): skipped"
	exit 77
fi

# ---- the .pc files: the bundle and CUDA only
unset LD_LIBRARY_PATH
export PKG_CONFIG_PATH="$B/lib/pkgconfig"
pc=tuccompi-starpu-cuda
[ -f "$B/lib/pkgconfig/$pc.pc" ] || pc=tuccompi-starpu
flags=$(pkg-config --cflags --libs $pc) || fail "pkg-config $pc on the bundle"
for d in $(echo "$flags" | tr ' ' '\n' | sed -n 's/^-[IL]//p; s/^-Wl,-rpath,//p' | sed '/^$/d') \
	$(echo "$flags" | tr ' ' '\n' | sed -n '/^-isystem$/{n;p}'); do
	case $d in
	"$B"/* | /usr/local/cuda/*) ;;
	*) fail "pkg-config $pc names $d, outside the bundle and /usr/local/cuda: $flags" ;;
	esac
done
echo "ok: pkg-config $pc names the bundle and CUDA only"

# ---- run paths: none into the build machine; the bundled program finds the bundle's libraries
find "$B" -path "$B/ompi" -prune -o -type f \( -name '*.so*' -o -perm -u+x \) -print |
	xargs python3 "$B/scripts/elf_runpath.py" -l >"$tmp/rp.txt" 2>/dev/null || true
[ -s "$tmp/rp.txt" ] || fail "no file of the bundle has a run path"
for o in $old; do
	grep -F "$o" "$tmp/rp.txt" && fail "run paths above point into the build machine ($o)"
done
echo "ok: the run paths of $(wc -l <"$tmp/rp.txt") files of the bundle are relative to it"
# resolved_in FILE LIB...: each LIB that FILE loads comes from the bundle's lib/
resolved_in() {
	f=$1
	shift
	ldd "$f" >"$tmp/ldd.txt" 2>&1 || { cat "$tmp/ldd.txt"; fail "ldd $f"; }
	for l in "$@"; do
		p=$(sed -n "s|^[[:space:]]*$l[^ ]* => \([^ ]*\) .*|\1|p" "$tmp/ldd.txt" | head -n 1)
		case $(realpath -m "$p") in
		"$(realpath -m "$B")"/lib/*) ;;
		*) cat "$tmp/ldd.txt"; fail "$f loads $l from '$p', not from the bundle, without LD_LIBRARY_PATH" ;;
		esac
	done
}
resolved_in "$B/examples/hutchinson/hutchinson" libtuccompi-starpu.so libstarpu-1.3.so libstarpumpi-1.3.so
echo "ok: the bundle's examples/hutchinson finds the bundle's libraries without LD_LIBRARY_PATH"

# ---- examples/README.md's commands in a copy of the bundle's examples/hutchinson/
readme_block "$B/examples/README.md" bundle.sh "$tmp/cmds.in"
grep -q 'BUNDLE/lib/pkgconfig' "$tmp/cmds.in" || fail "the block does not use the bundle's .pc files"
mpi=${MPIEXEC:-}
[ -d "$B/ompi" ] && mpi=$B/bin/mpirun
mpirun_sh=$abs_s/tests/mpirun.sh
[ -f "$mpirun_sh" ] || mpirun_sh=$B/tests/mpirun.sh
mpirun_lines "$tmp/cmds.in" "$tmp/cmds.sh" "${mpi:+MPIEXEC='$mpi' \"$mpirun_sh\"}"
if [ "$pc" = tuccompi-starpu ]; then
	echo "(a bundle without CUDA: main.c alone, -DHUTCHINSON_CPU_ONLY)"
	sed -e '/^nvcc /d' -e 's|^cc main.c kernel.o .*|cc -DHUTCHINSON_CPU_ONLY main.c $(pkg-config --cflags --libs tuccompi-starpu) -o hutchinson|' \
		"$tmp/cmds.sh" >"$tmp/cmds1.sh" && mv "$tmp/cmds1.sh" "$tmp/cmds.sh"
fi
mkdir -p "$tmp/work"
cp "$B"/examples/hutchinson/*.c "$B"/examples/hutchinson/*.cu "$B"/examples/hutchinson/*.h "$tmp/work/" ||
	fail "the bundle lacks examples/hutchinson's sources"
echo "== examples/README.md's commands (BUNDLE=$B):"
sed 's/^/   /' "$tmp/cmds.sh"
(cd "$tmp/work" && BUNDLE=$B bash -e "$tmp/cmds.sh") >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; fail "examples/README.md's bundle commands"; }
cat "$tmp/run.log"
grep -q "^hutchinson: 2048 probes .* on 1 rank(s) (all units, MK 4, ms): .*: all results correct$" "$tmp/run.log" ||
	fail "./hutchinson did not report its results correct"
if [ -n "$mpi" ]; then
	grep -q "^hutchinson: 2048 probes .* on 2 rank(s) .*: all results correct$" "$tmp/run.log" ||
		fail "hutchinson under mpirun did not run on 2 ranks with correct results"
fi
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
	awk '$2 == "GPU" && $4 > 0 { g = 1 } END { exit !g }' "$tmp/run.log" || fail "this machine has a GPU, and it ran no task"
	echo "ok: the GPU ran tasks"
fi
resolved_in "$tmp/work/hutchinson" libtuccompi-starpu.so libstarpu-1.3.so libhwloc.so
echo "ok: examples/hutchinson built against the bundle with examples/README.md's commands, run on 1 and 2 ranks"
