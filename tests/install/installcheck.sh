#!/bin/sh
# A user's path from an installed prefix to their own program, exactly as the README says it: the
# README's shell block (after its installcheck.sh marker) builds examples/hello.c with pkg-config
# on that prefix alone and runs it, then on 2 ranks (tests/mpirun.sh for the README's mpirun); so
# does examples/README.md's block for the CUDA plug-in examples/hutchinson (nvcc, then cc with
# tuccompi-starpu-cuda; in a build without CUDA, its CPU-only line), in a copy of the installed example.
# Also: no warning from the installed flags (-Wall -Wextra on hello.c, and #include <starpu.h>:
# CUDA's headers are system headers); nothing needs LD_LIBRARY_PATH; no run-time path of an
# installed file points into the build tree; paje_check.py is in $(pkgdatadir)/python and the
# installed trace tools find it; the docs are installed.
#
# Under make check: installs into a temporary prefix (make install DESTDIR=..., the tree then moved
# to a prefix of its own: the .pc finds its prefix from its place). Under make installcheck
# (TUCCOMPI_INSTALLED_PREFIX set): checks the prefix make install filled, and runs an installed
# program too. Exit 77 only when a tool is missing (cc, pkg-config, readelf).
set -u
s=${top_srcdir:-.}
b=${top_builddir:-.}
[ -f "$b/Makefile" ] || { echo "needs the build tree (not in a bundle): skipped"; exit 77; }
. "$s/tests/install/common.sh"
install_start cc pkg-config readelf
# What the user has: no LD_LIBRARY_PATH (make check sets one for the tests), no PKG_CONFIG_PATH.
unset LD_LIBRARY_PATH PKG_CONFIG_PATH

if [ -n "${TUCCOMPI_INSTALLED_PREFIX:-}" ]; then
	prefix=$TUCCOMPI_INSTALLED_PREFIX
	pcdir=${TUCCOMPI_PKGCONFIGDIR:-$prefix/lib/pkgconfig}
	pydir=${TUCCOMPI_PKGDATADIR:-$prefix/share/libtuccompi-starpu}/python
	docs=${TUCCOMPI_DOCDIR:-$prefix/share/doc/libtuccompi-starpu}
	staged=0
else
	: "${prefix:?prefix (the configured installation prefix) is not set}"
	: "${pkgconfigdir:?}" "${pkgdatadir:?}" "${docdir:?}" "${bindir:?}"
	for d in "$pkgconfigdir" "$pkgdatadir" "$docdir" "$bindir"; do
		case $d in "$prefix"/*) ;; *) echo "$d is outside the prefix $prefix: the staged install cannot be moved; skipped"; exit 77 ;; esac
	done
	echo "== make install DESTDIR=$tmp/stage, then $tmp/stage$prefix moved to $tmp/prefix"
	${MAKE:-make} -C "$b" install DESTDIR="$tmp/stage" >"$tmp/install.log" 2>&1 ||
		{ tail -n 30 "$tmp/install.log"; fail "make install DESTDIR=$tmp/stage"; }
	mv "$tmp/stage$prefix" "$tmp/prefix" || fail "moving the staged prefix"
	new=$tmp/prefix
	pcdir=$new${pkgconfigdir#"$prefix"}
	pydir=$new${pkgdatadir#"$prefix"}/python
	docs=$new${docdir#"$prefix"}
	prefix=$new
	staged=1
fi
echo "prefix: $prefix"

# readme_cmds FILE OUT: the shell block after FILE's installcheck.sh marker into OUT, with our prefix for
# $HOME/tuccompi and tests/mpirun.sh for its mpirun
readme_cmds() {
	readme_block "$1" installcheck.sh "$2.in"
	grep -q 'pkg-config' "$2.in" || fail "the block of $1 does not use pkg-config"
	sed "s|\$HOME/tuccompi|$prefix|g" "$2.in" >"$2.sed"
	mpirun_lines "$2.sed" "$2" "${MPIEXEC:+\"$abs_s/tests/mpirun.sh\"}"
}

# ---- the README's commands
[ "$pcdir" = "$prefix/lib/pkgconfig" ] || { echo "pkgconfigdir is not PREFIX/lib/pkgconfig as the README says: skipped"; exit 77; }
readme_cmds "$s/README.md" "$tmp/cmds.sh"
mkdir -p "$tmp/work/examples"
cp "$s/examples/hello.c" "$tmp/work/examples/"
echo "== the README's commands:"
sed 's/^/   /' "$tmp/cmds.sh"
(cd "$tmp/work" && sh -e "$tmp/cmds.sh") >"$tmp/run.log" 2>&1 || { cat "$tmp/run.log"; fail "the README's commands"; }
cat "$tmp/run.log"
grep -q "^hello: 1000 tasks on 1 rank(s) under ms: all results correct$" "$tmp/run.log" ||
	fail "./hello did not report its 1000 results correct"
if [ -n "${MPIEXEC:-}" ]; then
	grep -q "^hello: 1000 tasks on 2 rank(s) under ms: all results correct$" "$tmp/run.log" ||
		fail "hello under mpirun did not run on 2 ranks with correct results"
fi

# ---- a CUDA plug-in: examples/README.md's commands in a copy of the installed examples/hutchinson/
readme_cmds "$s/examples/README.md" "$tmp/hut.sh"
cp -r "$docs/examples/hutchinson" "$tmp/hut" || fail "examples/hutchinson is not installed in $docs"
if [ ! -f "$pcdir/tuccompi-starpu-cuda.pc" ]; then
	# a build without CUDA: the README's line for that case instead of nvcc's
	echo "(no tuccompi-starpu-cuda.pc: a build without CUDA; main.c alone, -DHUTCHINSON_CPU_ONLY)"
	grep -q '^cc -DHUTCHINSON_CPU_ONLY main.c $(pkg-config --cflags --libs tuccompi-starpu) -o hutchinson' \
		"$s/examples/README.md" || fail "examples/README.md lost its line for a build without CUDA"
	sed -e '/^nvcc /d' -e 's|^cc main.c kernel.o .*|cc -DHUTCHINSON_CPU_ONLY main.c $(pkg-config --cflags --libs tuccompi-starpu) -o hutchinson|' \
		"$tmp/hut.sh" >"$tmp/hut1.sh" && mv "$tmp/hut1.sh" "$tmp/hut.sh"
elif ! command -v nvcc >/dev/null 2>&1; then
	# the nvcc the library was built with, as examples/README.md says
	nv=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=nvcc tuccompi-starpu-cuda)
	[ -x "$nv" ] || { echo "no nvcc: skipped"; exit 77; }
	PATH=$(dirname "$nv"):$PATH
fi
echo "== examples/README.md's commands:"
sed 's/^/   /' "$tmp/hut.sh"
(cd "$tmp/hut" && sh -e "$tmp/hut.sh") >"$tmp/hut.log" 2>&1 || { cat "$tmp/hut.log"; fail "examples/README.md's commands"; }
cat "$tmp/hut.log"
grep -q "^hutchinson: 2048 probes of a 512 x 512 matrix on 1 rank(s) (all units, MK 4, ms): .*: all results correct$" \
	"$tmp/hut.log" || fail "./hutchinson did not report its results correct"
if [ -n "${MPIEXEC:-}" ]; then
	grep -q "^hutchinson: 2048 probes .* on 2 rank(s) .*: all results correct$" "$tmp/hut.log" ||
		fail "hutchinson under mpirun did not run on 2 ranks with correct results"
fi
echo "ok: examples/hutchinson built with examples/README.md's commands from the installed prefix, run on 1 and 2 ranks"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

# ---- no warnings from the installed flags
(cd "$tmp/work" && cc -Wall -Wextra -Werror -c examples/hello.c $(pkg-config --cflags tuccompi-starpu) -o "$tmp/h.o") ||
	fail "examples/hello.c warns with -Wall -Wextra and the installed flags"
(cd "$tmp/hut" && cc -Wall -Wextra -Werror -c main.c $(pkg-config --cflags tuccompi-starpu) -o "$tmp/hm.o") ||
	fail "examples/hutchinson/main.c warns with -Wall -Wextra and the installed flags"
printf '#include <starpu.h>\n#include <tuccompi.h>\nint main(void) { return starpu_worker_get_count() > 0 ? 0 : 0; }\n' >"$tmp/sp.c"
cc -Wall -Wextra $(pkg-config --cflags tuccompi-starpu) "$tmp/sp.c" $(pkg-config --libs tuccompi-starpu) \
	-o "$tmp/sp" >"$tmp/sp.log" 2>&1 || { cat "$tmp/sp.log"; fail "#include <starpu.h> with the installed flags"; }
[ -s "$tmp/sp.log" ] && { head -n 20 "$tmp/sp.log"; fail "#include <starpu.h> with the installed flags prints warnings"; }
echo "ok: no warnings from hello.c and hutchinson/main.c (-Wall -Wextra) nor from <starpu.h> with the installed flags"
# A program calling StarPU itself finds libstarpu too.
(cd "$tmp" && ./sp) || fail "a program linking StarPU through the installed flags does not start"
echo "ok: a program calling StarPU links and runs with the installed flags alone"

# ---- the APSP application builds from the installed headers alone: its own folders (graph
# library, CLI helpers, the SSSP plug-in) and pkg-config (the library's flags; zlib for the graph
# readers' .gz inputs, the application's own need), nothing of lib/ or the build tree (CPU engines:
# nvcc would add the CUDA ones)
mkdir -p "$tmp/apsp"
srcs="$(ls "$abs_s"/apps/apsp/*.c | grep -v '/tuccompi-graph\.c$') $(ls "$abs_s"/apps/apsp/graph/*.c) \
	$(ls "$abs_s"/codelets/sssp/*.c "$abs_s"/codelets/sssp/*/*.c)"
srcs="$srcs $(ls "$abs_s"/apps/apsp/cli/*.c)"
cc -std=gnu11 -O1 -I"$abs_s/apps" -I"$abs_s/apps/apsp" -I"$abs_s/apps/apsp/graph" -I"$abs_s/codelets/sssp" \
	$(pkg-config --cflags tuccompi-starpu) $srcs $(pkg-config --libs tuccompi-starpu) $(pkg-config --libs zlib) \
	-lm -lpthread \
	-o "$tmp/apsp/tuccompi-apsp" >"$tmp/apsp.cc.log" 2>&1 || { tail -n 20 "$tmp/apsp.cc.log"; fail "the APSP application from the installed prefix"; }
STARPU_NCUDA=0 "$tmp/apsp/tuccompi-apsp" --gen random:300 --sources 0-19 --units cpu --ncpu 1 -q -o "$tmp/apsp/t.csv" \
	>"$tmp/apsp.run.log" 2>&1 || { cat "$tmp/apsp.run.log"; fail "the APSP application built from the installed prefix does not run"; }
[ "$(wc -l <"$tmp/apsp/t.csv")" = 21 ] || fail "the APSP application built from the installed prefix wrote no table"
echo "ok: the APSP application builds from the installed prefix alone and runs"

# ---- run-time paths: nothing installed points into the build tree
rp() { readelf -d "$1" 2>/dev/null | sed -n 's/.*(R[UN]*PATH).*\[\(.*\)\]/\1/p' | tr ':' '\n'; }
checked=0
for f in "$prefix"/lib/libtuccompi-starpu.so* "$prefix"/bin/* "$tmp/work/hello" "$tmp/hut/hutchinson"; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	head -c 4 "$f" | grep -q 'ELF' || continue
	checked=$((checked + 1))
	for d in $(rp "$f"); do
		case $d in
		"$starpu"/*|"$starpu") ;;   # StarPU's own prefix (.deps/starpu may lie in the checkout)
		"$abs_b"/*|"$abs_b"|*/.libs|*/.libs/*) fail "$f: run-time path $d points into the build tree" ;;
		esac
	done
done
[ "$checked" -ge 3 ] || fail "found only $checked installed ELF files under $prefix"
echo "ok: no run-time path of $checked installed files points into the build tree ($abs_b)"

# ---- trace tools and docs
for m in paje_check.py paje_format.py paje_runs.py; do
	[ -f "$pydir/$m" ] || fail "$m is not in $pydir"
done
[ ! -e "$prefix/bin/paje_check.py" ] || fail "paje_check.py is in bin/"
"$prefix/bin/tuccompi-summary" "$tmp/no-trace" >"$tmp/sum.log" 2>&1
rc=$?
{ [ $rc = 1 ] && grep -q "not a directory" "$tmp/sum.log"; } ||
	{ cat "$tmp/sum.log"; fail "installed tuccompi-summary (exit $rc): it must find paje_check.py and say there is no trace"; }
"$prefix/bin/tuccompi-plot" --help >/dev/null 2>&1 || fail "installed tuccompi-plot --help"
echo "ok: paje_check.py in $pydir, found by the installed tuccompi-summary and tuccompi-plot"
for d in README.md LICENSE docs/apsp.md docs/traces.md docs/tuning.md docs/img/gantt.png examples/hello.c examples/README.md; do
	[ -f "$docs/$d" ] || fail "$docs/$d is not installed"
done
echo "ok: docs installed in $docs"

# ---- an installed program runs from the real prefix
if [ "$staged" = 0 ] && [ -x "$prefix/bin/tuccompi-apsp" ]; then
	STARPU_NCUDA=${STARPU_NCUDA:-0} "$prefix/bin/tuccompi-apsp" --gen random:300 --sources 0-19 --units cpu --ncpu 1 -q \
		>"$tmp/apsp.log" 2>&1 || { cat "$tmp/apsp.log"; fail "installed tuccompi-apsp does not run"; }
	echo "ok: installed tuccompi-apsp runs without LD_LIBRARY_PATH"
fi
echo "ok: all"
