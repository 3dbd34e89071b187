#!/usr/bin/env bash
# setup.sh: from a fresh Debian 12 machine to a built libtuccompi-starpu.
#
#   1. installs the build dependencies from Debian's packages (needs root and the Debian mirror);
#   2. builds StarPU 1.3.10 from Debian's source package, with CUDA (when nvcc is found), FxT and
#      StarPU-MPI, patched for CUDA 13 (patches/starpu-1.3.10/), into a prefix inside this checkout;
#   3. configures and builds this project against it;
#   4. runs the tool's demo (apps/apsp/tuccompi-apsp without arguments: shortest paths from 256
#      sources of a generated graph on every CPU core and GPU of this machine), unless --no-demo.
#
# Steps 1-3 are skipped when already done: a second run takes seconds.
# Run ./setup.sh --help for the options.
set -eEuo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

STARPU_VERSION=1.3.10
STARPU_DEBVER=1.3.10+dfsg-2
STARPU_ORIG=starpu_1.3.10+dfsg.orig.tar.gz
STARPU_ORIG_SHA256=682f3b7454f30493c116c8dcfa76daa014a8983923f904fafddf179d947664d4
DEB_PACKAGES="build-essential autoconf automake libtool pkg-config dpkg-dev \
libhwloc-dev libfxt-dev zlib1g-dev fxt-tools libopenmpi-dev openmpi-bin libglpk-dev libboost-graph-dev python3-matplotlib \
python3-numpy python3-scipy python3-networkx"

prefix=""
fxt=yes
starpu_given=""
jobs=$(nproc 2>/dev/null || echo 2)
skip_deps=0
skip_build=0
demo=1
cuda=auto
simgrid=no
action=build
configure_args=()
# apt's configuration folder; a test points this at a copy (see --help).
apt_etc=${TUCCOMPI_APT_ETC:-/etc/apt}

usage() {
	cat <<EOF
Usage: ./setup.sh [OPTION]... [-- CONFIGURE-ARGS...]

Builds everything libtuccompi-starpu needs, then the project itself.

  --starpu-prefix=DIR   where to build StarPU (default: .deps/starpu in this checkout)
  --with-starpu=DIR     use an already installed StarPU 1.3 instead of building one
                        (it should have CUDA, FxT and MPI; skips steps 1 and 2)
  --no-deps             do not call apt-get (the Debian packages are already there)
  --no-build            stop after StarPU; do not configure/build the project
  --no-demo             do not run the tool's demo at the end (apps/apsp/tuccompi-apsp without
                        arguments: 256 sources of a generated graph on every unit, a few seconds)
  --without-cuda        build StarPU and the project without CUDA even if nvcc is found
  --without-fxt         build StarPU without FxT (default prefix .deps/starpu-nofxt): no traces,
                        about 1 us less CPU per task (docs/traces.md, "FxT build without a trace")
  --simgrid             the simulated build (docs/simulation.md): also installs libsimgrid-dev, xsltproc and
                        simgrid, builds StarPU with SimGrid (no CUDA, no FxT, static, SMPI as its
                        MPI) into .deps/starpu-simgrid and this project against it in build-simgrid/
                        (a copy of the sources configured with --enable-simgrid); the real build is
                        left as it is
  -j N                  parallel build jobs (default: $jobs)
  --print-apt-plan      print how StarPU's source would be fetched and stop, changing nothing:
                        the Debian mirror and suite found in apt's sources (one-line and
                        deb822 files), whether a deb-src entry exists, and the file that would
                        be added (with its content) if not
  --add-deb-src         only add that deb-src entry if it is missing (root), then stop
  -h, --help            this text

Arguments after -- go to the project's ./configure, e.g. --prefix=DIR for make install.

Environment:
  STARPU_TARBALL=FILE   use a local copy of $STARPU_ORIG (checked against its SHA-256)
                        instead of fetching Debian's source package (no network needed)
  CUDA_HOME=DIR         the CUDA toolkit (default /usr/local/cuda)
  TUCCOMPI_APT_ETC=DIR  read (and with --add-deb-src write) apt's sources under DIR instead of
                        /etc/apt; no root needed and apt-get is not run then (for tests)
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--starpu-prefix=*) prefix=${1#*=} ;;
	--with-starpu=*) starpu_given=${1#*=} ;;
	--no-deps) skip_deps=1 ;;
	--no-build) skip_build=1 ;;
	--no-demo) demo=0 ;;
	--without-cuda) cuda=no ;;
	--without-fxt) fxt=no ;;
	--simgrid) simgrid=yes ;;
	-j) shift; jobs=$1 ;;
	-j*) jobs=${1#-j} ;;
	--print-apt-plan) action=print-apt-plan ;;
	--add-deb-src) action=add-deb-src ;;
	-h|--help) usage; exit 0 ;;
	--) shift; configure_args=("$@"); break ;;
	*) echo "setup.sh: unknown option '$1' (see ./setup.sh --help)" >&2; exit 2 ;;
	esac
	shift
done

if [ "$simgrid" = yes ]; then
	# SimGrid simulates the GPUs (StarPU's CUDA driver without CUDA); FxT is left out (StarPU-MPI
	# with SimGrid links statically, and a trace of a simulation is not what this build is for)
	cuda=no fxt=no
	DEB_PACKAGES="$DEB_PACKAGES libsimgrid-dev simgrid xsltproc" # xsltproc: starpu_smpirun merges the platform files
	[ -n "$prefix" ] || prefix="$here/.deps/starpu-simgrid"
fi
if [ -z "$prefix" ]; then
	if [ "$fxt" = yes ]; then prefix="$here/.deps/starpu"; else prefix="$here/.deps/starpu-nofxt"; fi
fi

say() { printf '== setup: %s\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }
# No silent exit: a command that fails outside die() still says what and where.
trap 'rc=$?; printf "setup.sh: error: line %s: \"%s\" failed (exit %s)\n" "$LINENO" "$BASH_COMMAND" "$rc" >&2' ERR

CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
if [ "$cuda" = auto ]; then
	if [ -x "$CUDA_HOME/bin/nvcc" ]; then cuda=yes; else cuda=no; fi
fi

# ------------------------------------------------------------------ 1. Debian packages
missing_packages() {
	local p missing=""
	for p in $DEB_PACKAGES; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
	done
	echo "$missing"
}

install_deps() {
	command -v dpkg-query >/dev/null || die "this script expects a Debian-based system (no dpkg-query).
  Install by hand: autotools, libtool, pkg-config, hwloc, FxT, zlib, Open MPI, GLPK development files,
  then run ./setup.sh --no-deps, or point --with-starpu=DIR at your StarPU 1.3."
	local missing
	missing=$(missing_packages)
	if [ -z "$missing" ]; then
		say "Debian packages: all present"
		return
	fi
	if [ "$(id -u)" != 0 ]; then
		die "missing Debian packages:$missing
  Install them as root:  sudo apt-get install -y$missing
  then run ./setup.sh again (or ./setup.sh --no-deps once they are there)."
	fi
	say "installing Debian packages:$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq || die "apt-get update failed: is the Debian mirror reachable?"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
		die "apt-get install failed for:$missing"
}

# ------------------------------------------------------------------ 2. StarPU
recipe_id() {
	# Everything that decides what StarPU build we get; a change means a rebuild.
	{
		echo "$STARPU_DEBVER $STARPU_ORIG_SHA256 cuda=$cuda"
		[ "$simgrid" = no ] || echo "simgrid"
		starpu_configure_flags
		cat "$here"/patches/starpu-$STARPU_VERSION/*.patch
	} | sha256sum | cut -d' ' -f1
}

starpu_configure_flags() {
	local fx="--with-fxt "
	[ "$fxt" = yes ] || fx=""
	local f="--disable-opencl --disable-build-doc --disable-build-examples --disable-build-tests
--disable-socl --disable-starpufft --disable-fortran --disable-openmp
--enable-maxcpus=128 --enable-maxcudadev=8 --enable-maxnodes=32 ${fx}--enable-mpi"
	if [ "$simgrid" = yes ]; then
		f="$f --disable-cuda --enable-simgrid --disable-shared"
	elif [ "$cuda" = yes ]; then
		f="$f --enable-cuda --with-cuda-dir=$CUDA_HOME"
	else
		f="$f --disable-cuda"
	fi
	echo "$f"
}

fetch_starpu_source() {
	local dir=$1 tarball="$1/$STARPU_ORIG"
	if [ -n "${STARPU_TARBALL:-}" ]; then
		cp "$STARPU_TARBALL" "$tarball"
	elif [ ! -f "$tarball" ]; then
		have_deb_src || add_deb_src
		say "fetching Debian's source package starpu=$STARPU_DEBVER"
		(cd "$dir" && apt-get source --download-only "starpu=$STARPU_DEBVER" >/dev/null 2>"$dir/apt-source.log") ||
			die "apt-get source starpu=$STARPU_DEBVER failed (see $dir/apt-source.log).
  Without network: copy $STARPU_ORIG here and run STARPU_TARBALL=/path/to/it ./setup.sh"
	fi
	echo "$STARPU_ORIG_SHA256  $tarball" | sha256sum -c --quiet - ||
		{ rm -f "$tarball"; die "checksum mismatch for $STARPU_ORIG (removed it; run again to fetch a fresh copy)"; }
}

# apt's source entries, one "TYPE URI SUITE" line each (TYPE deb or deb-src), from one-line
# .list files (sources.list may be missing: Debian 12 images keep theirs in deb822 form) and
# deb822 .sources files; comments, [options] and stanzas with "Enabled: no" are skipped.
apt_entries() {
	local f
	for f in "$apt_etc"/sources.list "$apt_etc"/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
			awk '($1 == "deb" || $1 == "deb-src") && NF >= 3 { print $1, $2, $3 }'
	done
	for f in "$apt_etc"/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk '
			function flush(  nt, nu, ns, i, j, k, T, U, S) {
				if (enabled && types != "" && uris != "" && suites != "") {
					nt = split(types, T, " "); nu = split(uris, U, " "); ns = split(suites, S, " ")
					for (i = 1; i <= nt; i++) for (j = 1; j <= nu; j++) for (k = 1; k <= ns; k++)
						print T[i], U[j], S[k]
				}
				types = uris = suites = key = ""; enabled = 1
			}
			BEGIN { enabled = 1 }
			/^#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^[ \t]/ {      # continuation of a multi-line field
				v = $0; sub(/^[ \t]+/, "", v)
				if (key == "types") types = types " " v
				else if (key == "uris") uris = uris " " v
				else if (key == "suites") suites = suites " " v
				next
			}
			{
				key = tolower($0); sub(/:.*/, "", key)
				v = $0; sub(/^[^:]*:[ \t]*/, "", v)
				if (key == "types") types = v
				else if (key == "uris") uris = v
				else if (key == "suites") suites = v
				else if (key == "enabled") enabled = (tolower(v) !~ /^no/)
			}
			END { flush() }' "$f"
	done
}

# "URI SUITE" of the Debian mirror apt uses: the first entry whose URI is a Debian archive
# (not the security one) with a plain suite (bookworm, not bookworm-updates); else
# deb.debian.org and this system's codename.
debian_mirror() {
	local found codename
	# (awk reads everything: an early exit could kill the writer with SIGPIPE under pipefail)
	found=$(apt_entries | awk '!found && $2 ~ /^https?:\/\/.*debian\/?$/ && $3 !~ /[-\/]/ { found = $2 " " $3 }
		END { if (found) print found }')
	if [ -z "$found" ]; then
		codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
		found="http://deb.debian.org/debian ${codename:-bookworm}"
	fi
	echo "$found"
}

# A deb-src entry for a Debian archive and the mirror's suite: apt-get source can fetch StarPU.
have_deb_src() {
	local suite
	suite=$(debian_mirror | cut -d' ' -f2)
	apt_entries | awk -v suite="$suite" '
		$1 == "deb-src" && $2 ~ /^https?:\/\/.*debian\/?$/ && $3 == suite { found = 1 }
		END { exit !found }'
}

deb_src_file() { echo "$apt_etc/sources.list.d/tuccompi-deb-src.sources"; }

deb_src_stanza() {
	local m
	m=$(debian_mirror)
	printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n' \
		"${m% *}" "${m#* }" /usr/share/keyrings/debian-archive-keyring.gpg
}

print_apt_plan() {
	local m
	m=$(debian_mirror)
	echo "apt sources: $apt_etc"
	echo "debian mirror: ${m% *}"
	echo "suite: ${m#* }"
	if have_deb_src; then
		echo "deb-src: present"
	else
		echo "deb-src: missing"
		echo "would write: $(deb_src_file)"
		deb_src_stanza | sed 's/^/  /'
	fi
}

add_deb_src() {
	if [ "$apt_etc" = /etc/apt ] && [ "$(id -u)" != 0 ]; then
		die "Debian source entries (deb-src) are not configured and adding them needs root.
  Either run ./setup.sh as root, or fetch $STARPU_ORIG yourself and run STARPU_TARBALL=FILE ./setup.sh"
	fi
	local file
	file=$(deb_src_file)
	say "adding deb-src for $(debian_mirror) ($file)"
	mkdir -p "$(dirname "$file")" && deb_src_stanza >"$file.tmp" && mv "$file.tmp" "$file" ||
		die "cannot write $file"
	# A test's own apt folder (TUCCOMPI_APT_ETC): apt itself is not asked.
	[ "$apt_etc" = /etc/apt ] || return 0
	apt-get update -qq || die "apt-get update failed after adding deb-src ($file)"
}

build_starpu() {
	local id stamp="$prefix/.tuccompi-recipe"
	id=$(recipe_id)
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ] && [ -f "$prefix/lib/pkgconfig/starpu-1.3.pc" ]; then
		say "StarPU $STARPU_VERSION already built in $prefix (same recipe)"
		return
	fi
	local work="$here/.deps/build"
	[ "$simgrid" = no ] || work="$here/.deps/build-simgrid"
	mkdir -p "$work" "$here/.deps/build"
	fetch_starpu_source "$here/.deps/build"
	rm -rf "$work/src" "$work/obj"
	mkdir -p "$work/src" "$work/obj"
	tar xzf "$here/.deps/build/$STARPU_ORIG" -C "$work/src" --strip-components=1
	local p
	for p in "$here"/patches/starpu-$STARPU_VERSION/*.patch; do
		patch -s -d "$work/src" -p1 <"$p" || die "patch $(basename "$p") does not apply"
	done
	say "configuring StarPU (cuda=$cuda, fxt=$fxt, simgrid=$simgrid, MPI) for $prefix; log: $work/configure.log"
	# shellcheck disable=SC2046
	(cd "$work/obj" && ../src/configure --prefix="$prefix" $(starpu_configure_flags) \
		CFLAGS="-O2 -g" >"$work/configure.log" 2>&1) ||
		die "StarPU configure failed; last lines of $work/configure.log:
$(tail -n 15 "$work/configure.log")"
	[ "$fxt" = no ] || grep -q "FxT trace enabled: *yes" "$work/configure.log" || die "StarPU configure did not enable FxT (is libfxt-dev installed?)"
	[ "$cuda" = no ] || grep -q "CUDA *enabled: *yes" "$work/configure.log" || die "StarPU configure did not enable CUDA although nvcc is in $CUDA_HOME (see $work/configure.log, or use --without-cuda)"
	grep -q "StarPU MPI enabled: *yes" "$work/configure.log" || die "StarPU configure did not enable MPI (is libopenmpi-dev installed?)"
	[ "$simgrid" = no ] || grep -q "simgrid enabled: *yes" "$work/configure.log" || die "StarPU configure did not enable SimGrid (is libsimgrid-dev installed?)"
	say "building StarPU with $jobs jobs (a few minutes); log: $work/make.log"
	(cd "$work/obj" && make -j"$jobs" >"$work/make.log" 2>&1 && make install >>"$work/make.log" 2>&1) ||
		die "StarPU build failed; last lines of $work/make.log:
$(tail -n 20 "$work/make.log")"
	echo "$id" >"$stamp"
	rm -rf "$work/src" "$work/obj"
	say "StarPU installed in $prefix"
}

# ------------------------------------------------------------------ 3. this project
build_project() {
	local sp=$1
	export PKG_CONFIG_PATH="$sp/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	if [ ! -x configure ] || [ configure.ac -nt configure ]; then
		say "autoreconf"
		autoreconf -fi >/dev/null 2>&1 || { autoreconf -fi; die "autoreconf failed"; }
	fi
	local args=(--with-starpu="$sp" "${configure_args[@]}")
	[ "$cuda" = no ] && args+=(--disable-cuda)
	local want="${args[*]}"
	if [ ! -f config.status ] || [ "$(cat .deps/configure-args 2>/dev/null)" != "$want" ] || [ configure -nt config.status ]; then
		say "configure ${args[*]}"
		./configure "${args[@]}" >.deps/configure.log 2>&1 || { tail -n 25 .deps/configure.log; die "configure failed (log: .deps/configure.log)"; }
		echo "$want" >.deps/configure-args
	fi
	say "make -j$jobs"
	make -j"$jobs" >.deps/make.log 2>&1 || { tail -n 30 .deps/make.log; die "build failed (log: .deps/make.log)"; }
	say "built"
}

# ------------------------------------------------------------------ 4. the demo
# The tool's demo, so that a first run shows the build working on this machine's units.
run_demo() {
	say "demo: apps/apsp/tuccompi-apsp (256 sources of a generated graph on every CPU core and GPU; --no-demo skips it)"
	local rc=0
	timeout 300 apps/apsp/tuccompi-apsp || rc=$?
	[ "$rc" = 0 ] || die "the demo failed (exit $rc): the project is built, but its tool does not run here.
  The output above says why; ./setup.sh --no-demo skips the demo (README: Reporting problems)."
}

# The simulated build (--simgrid) in build-simgrid/: a copy of the sources (this tree may hold the
# real build, configured in place, which rules out a VPATH build of it), configured against the
# SimGrid StarPU with SMPI's compiler; only the library and the apps are built there.
build_simgrid_project() {
	local sp=$1 b="$here/build-simgrid"
	mkdir -p "$b/src"
	say "copying the sources to $b/src"
	if [ -e .git ]; then
		git ls-files -z --cached --others --exclude-standard |
			tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -xf - -C "$b/src"
	else
		tar --exclude=./.deps --exclude=./build-simgrid --exclude=./bundle -cf - . | tar -xf - -C "$b/src"
	fi
	cd "$b/src"
	export PKG_CONFIG_PATH="$sp/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	if [ ! -x configure ] || [ configure.ac -nt configure ]; then
		say "autoreconf (build-simgrid)"
		autoreconf -fi >/dev/null 2>&1 || { autoreconf -fi; die "autoreconf failed"; }
	fi
	local args=(--with-starpu="$sp" --enable-simgrid --disable-cuda --disable-shared --enable-static CC=smpicc LD=ld)
	local want="${args[*]}"
	mkdir -p .deps
	if [ ! -f config.status ] || [ "$(cat .deps/configure-args 2>/dev/null)" != "$want" ] || [ configure -nt config.status ]; then
		say "configure ${args[*]} (build-simgrid; log: $b/src/.deps/configure.log)"
		# smpicc makes shared objects for smpirun: as a plain compiler for configure's own tests
		SMPI_PRETEND_CC=1 ./configure "${args[@]}" >.deps/configure.log 2>&1 || { tail -n 25 .deps/configure.log; die "configure of the simulated build failed (log: $b/src/.deps/configure.log)"; }
		echo "$want" >.deps/configure-args
	fi
	say "make -j$jobs (build-simgrid: the library, tuccompi-apsp, tuccompi-graph)"
	make -j"$jobs" lib/libtuccompi-starpu.la apps/apsp/tuccompi-apsp apps/apsp/tuccompi-graph >.deps/make.log 2>&1 ||
		{ tail -n 30 .deps/make.log; die "the simulated build failed (log: $b/src/.deps/make.log)"; }
	cd "$here"
	ln -sfn src/apps/apsp/tuccompi-apsp "$b/tuccompi-apsp"
	say "simulated build: $b/tuccompi-apsp (run it with simulation/run.sh; docs/simulation.md)"
}

case $action in
print-apt-plan) print_apt_plan; exit 0 ;;
add-deb-src) have_deb_src && say "deb-src: present in $apt_etc" || add_deb_src; exit 0 ;;
esac

mkdir -p .deps
if [ -n "$starpu_given" ]; then
	[ -f "$starpu_given/lib/pkgconfig/starpu-1.3.pc" ] ||
		die "--with-starpu=$starpu_given: no lib/pkgconfig/starpu-1.3.pc there"
	sp=$starpu_given
else
	[ "$skip_deps" = 1 ] || install_deps
	build_starpu
	sp=$prefix
fi
if [ "$skip_build" = 1 ]; then :
elif [ "$simgrid" = yes ]; then build_simgrid_project "$sp"
else
	build_project "$sp"
	[ "$demo" = 0 ] || run_demo
	say "Next: make check (the tests); make install (into $(sed -n 's/^prefix = //p' Makefile); see README)"
fi
