#!/usr/bin/env bash
# bundle.sh OUTDIR: a relocatable runtime folder for a GPU node that has the NVIDIA driver and
# the CUDA runtime but none of Debian's packages (the H200 node of docs/gpu-node.md):
#
#   OUTDIR/env.sh        source it: PATH, LD_LIBRARY_PATH, Open MPI relocation, StarPU tools
#   OUTDIR/lib/          libtuccompi-starpu, StarPU, and every non-system library they need
#   OUTDIR/bin/          the apps, starpu_fxt_tool & co, mpirun (Open MPI, relocated)
#   OUTDIR/tests/        the test programs + run-tests.sh (same tests as `make check`)
#   OUTDIR/bench/        the benchmark programs and scripts
#   OUTDIR/ompi/         Open MPI's tree (plugins, help files), found through OPAL_PREFIX
#   OUTDIR/starpu-nofxt/ with NOFXT_STARPU=PREFIX: that StarPU's libraries (bench/fxt_cost.sh)
#   OUTDIR/lib/pkgconfig/ tuccompi-starpu.pc, tuccompi-starpu-cuda.pc: build programs on the node
#                        against the bundle (they find it from their own place); OUTDIR/include/ the
#                        headers, StarPU's too; OUTDIR/examples/ the examples' sources (examples/README.md)
#
# Everything is stripped; run paths into the build machine (build tree, StarPU's prefix, the
# configured libdir) become paths relative to each file ($ORIGIN/...), CUDA's stay. Run from the
# build tree (make bundle does).
set -euo pipefail

out=${1:?usage: bundle.sh OUTDIR}
top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top}
starpu=${STARPU_PREFIX:?set STARPU_PREFIX (make bundle does)}
tests=${BUNDLE_TESTS:-}
programs=${BUNDLE_PROGRAMS:-}

rm -rf "$out"
mkdir -p "$out"/{lib,bin,tests,bench,apps}
out=$(cd "$out" && pwd)

# Libraries the GPU node has itself: glibc, the compiler runtime, the CUDA toolkit's.
is_system_lib() {
	case $(basename "$1") in
	libc.so* | libm.so* | libpthread.so* | librt.so* | libdl.so* | ld-linux* | libgcc_s.so* | libstdc++.so* | \
		libcuda.so* | libcudart.so* | libcublas*.so* | libcusparse.so* | libnvJitLink.so* | libcurand.so* | \
		linux-vdso.so*) return 0 ;;
	esac
	return 1
}

# Copy the non-system libraries an ELF file needs (recursively, through ldd).
copy_deps() {
	local f=$1 dest=${2:-$out/lib}
	ldd "$f" 2>/dev/null | awk '/=> \// {print $3}' | while read -r lib; do
		is_system_lib "$lib" && continue
		local base
		base=$(basename "$lib")
		[ -e "$out/lib/$base" ] || [ -e "$dest/$base" ] && continue
		cp -L "$lib" "$dest/$base"
		chmod u+w "$dest/$base"
	done
}

strip_all() {
	find "$out" -type f \( -name '*.so*' -o -perm -u+x \) -exec sh -c \
		'file -b "$1" | grep -q ELF && strip --strip-unneeded "$1" 2>/dev/null || true' _ {} \;
}

# ------------------------------------------------------------------ our library and StarPU
cp -P "$build"/lib/.libs/libtuccompi-starpu.so* "$out/lib/"
cp -P "$starpu"/lib/libstarpu*.so* "$out/lib/"
# A second StarPU built without FxT, for bench/fxt_cost.sh (NOFXT_STARPU=PREFIX make bundle).
if [ -n "${NOFXT_STARPU:-}" ]; then
	mkdir -p "$out/starpu-nofxt/lib"
	cp -P "$NOFXT_STARPU"/lib/libstarpu*.so* "$out/starpu-nofxt/lib/"
fi
for t in starpu_fxt_tool starpu_machine_display starpu_perfmodel_display starpu_calibrate_bus starpu_fxt_stats; do
	[ -x "$starpu/bin/$t" ] && cp "$starpu/bin/$t" "$out/bin/"
done
for f in "$out"/lib/*.so.* "$out"/bin/*; do
	[ -f "$f" ] && copy_deps "$f"
done

# ------------------------------------------------------------------ programs
for p in $programs; do
	[ -x "$build/$p" ] || continue
	# an installed program linked by libtool: the real binary hides in .libs/
	bin="$build/$p"
	real="$(dirname "$bin")/.libs/$(basename "$bin")"
	[ -x "$real" ] && bin=$real
	# same relative path as in the build tree (test scripts find each other so); apps also in bin/
	mkdir -p "$out/$(dirname "$p")"
	cp "$bin" "$out/$p"
	case $p in
	tests/* | bench/*) ;;
	*) ln -sf "../$p" "$out/bin/$(basename "$p")" ;;
	esac
	copy_deps "$bin"
done
(cd "$top" && find tests -name '*.sh' -type f) | while read -r s; do
	mkdir -p "$out/$(dirname "$s")"
	cp "$top/$s" "$out/$s"
done
mkdir -p "$out/scripts" "$out/include"
# the commit the bundle was built from (+ "-dirty" with changes not committed): recorded by the steps
# whose results go into the repository (gpu-node.sh calibrate)
(cd "$top" && git describe --always --dirty --abbrev=12 >"$out/COMMIT" 2>/dev/null) || rm -f "$out/COMMIT"
cp "$top"/include/*.h "$out/include/"
cp "$top"/scripts/paje_check.py "$top"/scripts/paje_format.py "$top"/scripts/paje_runs.py "$top"/scripts/tuccompi-summary "$top"/scripts/tuccompi-plot \
	"$top"/scripts/elf_runpath.py "$out/scripts/"
for s in "$top"/bench/*.sh "$top"/bench/*.py; do [ -f "$s" ] && cp "$s" "$out/bench/"; done
# the Python module and its networkx entry points (PYTHONPATH=OUTDIR/python; bench/networkx.sh)
mkdir -p "$out/python" && cp -r "$top/python/tuccompi" "$top/python/tuccompi.dist-info" "$out/python/"
[ -d "$top/tests/data" ] && cp -r "$top/tests/data" "$out/tests/"
echo "$tests" | tr ' ' '\n' | sed '/^$/d; s#^tests/##; s#^examples/#../examples/#' >"$out/tests/TESTS"

# ------------------------------------------------------------------ Open MPI (Debian layout, relocated)
# (BUNDLE_MPI=0 leaves it out: tests/install/bundle.sh, on a machine that has its own)
ompi=$out/ompi
if [ "${BUNDLE_MPI:-1}" != 0 ] && command -v ompi_info >/dev/null && [ -d /usr/lib/x86_64-linux-gnu/openmpi ]; then
	libdir=/usr/lib/x86_64-linux-gnu/openmpi/lib
	mkdir -p "$ompi/usr/bin" "$ompi$libdir/openmpi3" "$ompi/usr/share" "$ompi/etc"
	cp -L /usr/bin/orterun "$ompi/usr/bin/mpirun"
	cp -L /usr/bin/orted "$ompi/usr/bin/orted"
	cp -r /usr/share/openmpi "$ompi/usr/share/"
	# Components that need fabrics the node does not have (InfiniBand, UCX, PSM, OFI,
	# Java, Slurm/PMI, CUDA-aware shared memory) are left out: shared memory + TCP do.
	for c in "$libdir"/openmpi3/mca_*.so; do
		if ldd "$c" | grep -qE 'libucp|libucs|libuct|libibverbs|librdmacm|libpsm|libfabric|libjvm|libpmi\.so|libpmi2\.so|libcuda|libnl-'; then
			continue
		fi
		cp "$c" "$ompi$libdir/openmpi3/"
		copy_deps "$c"
	done
	cp -P "$libdir"/lib*.so* "$ompi$libdir/" 2>/dev/null || true
	for f in "$ompi$libdir"/*.so* "$ompi"/usr/bin/*; do
		[ -f "$f" ] && copy_deps "$f"
	done
	# PMIx (external in Debian) with its plugins.
	pmix=/usr/lib/x86_64-linux-gnu/pmix2
	if [ -d "$pmix" ]; then
		mkdir -p "$ompi$pmix"
		cp -r "$pmix/lib" "$ompi$pmix/"
		[ -d "$pmix/share" ] && cp -r "$pmix/share" "$ompi$pmix/"
		find "$ompi$pmix" -name '*.so*' -type f | while read -r f; do copy_deps "$f"; done
		# drop PMIx plugins that need what the node lacks
		find "$ompi$pmix" -name '*.so' -type f | while read -r f; do
			if ldd "$f" | grep -qE 'libpmi\.so|libpmi2\.so'; then rm -f "$f"; fi
		done
	fi
	ln -sf ../ompi/usr/bin/mpirun "$out/bin/mpirun"
	ln -sf ../ompi/usr/bin/mpirun "$out/bin/mpiexec"
fi

strip_all

# ------------------------------------------------------------------ run paths relative to the bundle
# Each entry of a file's run path that points into the build machine (Open MPI's library folder too:
# its libraries are copied into lib/) becomes the bundle's lib/ as seen from the file. The string is
# rewritten in place (scripts/elf_runpath.py), so it cannot grow: one too short keeps only the
# bundle's entry. Open MPI's tree keeps its own. (LD_LIBRARY_PATH, set by env.sh, still comes first:
# bench/fxt_cost.sh swaps StarPU's libraries through it.)
elfrp="python3 $top/scripts/elf_runpath.py"
find "$out" -path "$out/ompi" -prune -o -type f \( -name '*.so*' -o -perm -u+x \) -print | xargs $elfrp -l |
while IFS="$(printf '\t')" read -r f old; do
	rel=$(realpath -m --relative-to="$(dirname "$f")" "$out/lib")
	[ "$rel" = . ] && o='$ORIGIN' || o="\$ORIGIN/$rel"
	new=$(echo "$old" | tr ':' '\n' | awk -v o="$o" -v b="$build" -v s="$starpu" -v l="${BUNDLE_LIBDIR:-/nonexistent}" \
		-v m=/usr/lib/x86_64-linux-gnu/openmpi/lib '
		index($0, b) == 1 || index($0, s) == 1 || $0 == l || /\/\.libs$/ || $0 == m { $0 = o }
		$0 != "" && !seen[$0]++ { r = r (r == "" ? "" : ":") $0 }
		END { print r }')
	[ "$new" = "$old" ] && continue
	$elfrp "$f" "$new" || $elfrp "$f" "$o" || echo "bundle: $f: run path $old left as it is (no room for $o)" >&2
done

# ------------------------------------------------------------------ users' programs built on the node
# The .pc files find the bundle from their own place (${pcfiledir}); StarPU's headers and libraries are
# the bundle's, CUDA's the node's (/usr/local/cuda; pkg-config --define-variable=cuda_libdir=DIR for
# another). -Wl,--disable-new-dtags makes the program's run path an RPATH, which also serves the
# libraries it loads that carry none (StarPU's: their hwloc, FxT, GLPK are the bundle's).
mkdir -p "$out/lib/pkgconfig" "$out/include/starpu"
[ -d "$starpu/include/starpu" ] && cp -r "$starpu"/include/starpu/* "$out/include/starpu/"
cuda=${BUNDLE_CUDA_HOME:-/usr/local/cuda}
node_cuda=/usr/local/cuda
for pc in tuccompi-starpu tuccompi-starpu-cuda; do
	[ -f "$build/$pc.pc" ] || continue
	sed -e 's|^prefix=.*|prefix=${pcfiledir}/../..|' -e 's|^libdir=.*|libdir=${prefix}/lib|' \
		-e 's|^includedir=.*|includedir=${prefix}/include|' -e 's|^starpu_prefix=.*|starpu_prefix=${prefix}|' \
		-e "s|$starpu/include|\${prefix}/include|g" -e "s|-L$starpu/lib|-L\${libdir}|g" -e "s| *-Wl,-rpath,$starpu/lib||g" \
		-e 's|-Wl,-rpath,${libdir}|-Wl,--disable-new-dtags -Wl,-rpath,${libdir}|' \
		-e "s|^cuda_prefix=.*|cuda_prefix=$node_cuda|" -e 's|^cuda_libdir=.*|cuda_libdir=${cuda_prefix}/lib64|' \
		-e 's|^nvcc=.*|nvcc=${cuda_prefix}/bin/nvcc|' -e "s|$cuda/|$node_cuda/|g" \
		"$build/$pc.pc" >"$out/lib/pkgconfig/$pc.pc"
done
# -lNAME finds lib/libNAME.so (the node has no development packages)
for l in $(sed -n 's/^Libs://p' "$out"/lib/pkgconfig/*.pc | tr ' ' '\n' | sed -n 's/^-l//p' | sort -u); do
	[ -e "$out/lib/lib$l.so" ] && continue
	v=$(cd "$out/lib" && ls "lib$l.so".* 2>/dev/null | head -n 1) || true
	[ -n "$v" ] && ln -s "$v" "$out/lib/lib$l.so"
done
[ -f "$top/examples/README.md" ] && cp "$top/examples/README.md" "$out/examples/"
for f in "$top"/examples/*.c "$top"/examples/*/*.c "$top"/examples/*/*.cu "$top"/examples/*/*.h; do
	[ -f "$f" ] || continue
	mkdir -p "$out/$(dirname "${f#"$top"/}")"
	cp "$f" "$out/${f#"$top"/}"
done

# ------------------------------------------------------------------ environment and runner
cat >"$out/env.sh" <<'EOF'
# Source me: . bundle/env.sh
TUCCOMPI_BUNDLE=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
export TUCCOMPI_BUNDLE
_cuda=${CUDA_HOME:-/usr/local/cuda}
export PATH="$TUCCOMPI_BUNDLE/bin:$TUCCOMPI_BUNDLE/scripts:$PATH"
_ompilib=$TUCCOMPI_BUNDLE/ompi/usr/lib/x86_64-linux-gnu/openmpi/lib
export LD_LIBRARY_PATH="$TUCCOMPI_BUNDLE/lib:$_ompilib:$TUCCOMPI_BUNDLE/ompi/usr/lib/x86_64-linux-gnu/pmix2/lib:$_cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -d "$TUCCOMPI_BUNDLE/ompi" ]; then
	# Open MPI and PMIx were built for /usr: point them at their copy.
	export OPAL_PREFIX="$TUCCOMPI_BUNDLE/ompi/usr"
	export OPAL_LIBDIR="$_ompilib"
	export OPAL_SYSCONFDIR="$TUCCOMPI_BUNDLE/ompi/etc"
	export PMIX_INSTALL_PREFIX="$TUCCOMPI_BUNDLE/ompi/usr/lib/x86_64-linux-gnu/pmix2"
	# Only our PMIx plugins and parameters: Debian's libpmix names its folders by absolute paths
	# (libdir is not below its prefix), so PMIX_INSTALL_PREFIX alone still loads the plugins of a
	# node's own PMIx under /usr (another version there: "undefined symbol" at every mpirun).
	_pmix=$PMIX_INSTALL_PREFIX
	export PMIX_LIBDIR="$_pmix/lib" PMIX_PKGLIBDIR="$_pmix/lib/pmix" PMIX_DATAROOTDIR="$_pmix/share"
	export PMIX_DATADIR="$_pmix/share" PMIX_PKGDATADIR="$_pmix/share/pmix" PMIX_SYSCONFDIR="$_pmix/etc"
	export PMIX_MCA_mca_base_component_path="$_pmix/lib/pmix"
	unset _pmix
	# no nagging about zlib
	export PMIX_MCA_pcompress_base_silence_warning=1
	export MPIEXEC="$TUCCOMPI_BUNDLE/bin/mpirun"
fi
export TUCCOMPI_FXT_TOOL="$TUCCOMPI_BUNDLE/bin/starpu_fxt_tool"
export STARPU_HOME=${STARPU_HOME:-$TUCCOMPI_BUNDLE/starpu-home}
export PKG_CONFIG_PATH="$TUCCOMPI_BUNDLE/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
unset _cuda _ompilib
EOF

cat >"$out/tests/run-tests.sh" <<'EOF'
#!/usr/bin/env bash
# The `make check` suite from the bundle: PASS/FAIL/SKIP per test, logs beside, and the
# same summary line as CI ("N passed, N failed, N skipped").
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../env.sh"
export top_builddir="$here/.." top_srcdir="$here/.."
export STARPU_SILENT=${STARPU_SILENT:-1}
pass=0 fail=0 skip=0
for t in $(cat "$here/TESTS"); do
	log="$here/$t.log"
	timeout "${TEST_TIMEOUT:-600}" "$here/$t" >"$log" 2>&1
	rc=$?
	case $rc in
	0) echo "PASS: $t"; pass=$((pass + 1)) ;;
	77) echo "SKIP: $t"; skip=$((skip + 1)) ;;
	*) echo "FAIL: $t (exit $rc)"; tail -n 30 "$log"; fail=$((fail + 1)) ;;
	esac
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
EOF
chmod +x "$out/tests/run-tests.sh"
echo "bundle: $out ($(du -sh "$out" | cut -f1))"
