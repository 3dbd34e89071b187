#!/usr/bin/env bash
# setup.sh: from a fresh Debian 12 machine to a built libtuccompi-starpu.
#
#   1. installs the build dependencies from Debian's packages (needs root and the Debian mirror);
#   2. builds StarPU 1.3.10 from Debian's source package, with CUDA (when nvcc is found), FxT and
#      StarPU-MPI, patched for CUDA 13 (patches/starpu-1.3.10/), into a prefix inside this checkout;
#   3. configures and builds this project against it.
#
# Each step is skipped when already done: a second run takes seconds.
# Run ./setup.sh --help for the options.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

STARPU_VERSION=1.3.10
STARPU_DEBVER=1.3.10+dfsg-2
STARPU_ORIG=starpu_1.3.10+dfsg.orig.tar.gz
STARPU_ORIG_SHA256=682f3b7454f30493c116c8dcfa76daa014a8983923f904fafddf179d947664d4
DEB_PACKAGES="build-essential autoconf automake libtool pkg-config dpkg-dev \
libhwloc-dev libfxt-dev fxt-tools libopenmpi-dev openmpi-bin libglpk-dev libboost-graph-dev python3-matplotlib"

prefix="$here/.deps/starpu"
starpu_given=""
jobs=$(nproc 2>/dev/null || echo 2)
skip_deps=0
skip_build=0
cuda=auto
configure_args=()

usage() {
	cat <<EOF
Usage: ./setup.sh [OPTION]... [-- CONFIGURE-ARGS...]

Builds everything libtuccompi-starpu needs, then the project itself.

  --starpu-prefix=DIR   where to build StarPU (default: .deps/starpu in this checkout)
  --with-starpu=DIR     use an already installed StarPU 1.3 instead of building one
                        (it should have CUDA, FxT and MPI; skips steps 1 and 2)
  --no-deps             do not call apt-get (the Debian packages are already there)
  --no-build            stop after StarPU; do not configure/build the project
  --without-cuda        build StarPU and the project without CUDA even if nvcc is found
  -j N                  parallel build jobs (default: $jobs)
  -h, --help            this text

Environment: STARPU_TARBALL=FILE uses a local copy of $STARPU_ORIG (checked against
its SHA-256) instead of fetching Debian's source package; CUDA_HOME (default /usr/local/cuda).
Arguments after -- go to the project's ./configure.
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	--starpu-prefix=*) prefix=${1#*=} ;;
	--with-starpu=*) starpu_given=${1#*=} ;;
	--no-deps) skip_deps=1 ;;
	--no-build) skip_build=1 ;;
	--without-cuda) cuda=no ;;
	-j) shift; jobs=$1 ;;
	-j*) jobs=${1#-j} ;;
	-h|--help) usage; exit 0 ;;
	--) shift; configure_args=("$@"); break ;;
	*) echo "setup.sh: unknown option '$1' (see ./setup.sh --help)" >&2; exit 2 ;;
	esac
	shift
done

say() { printf '== setup: %s\n' "$*"; }
die() { printf 'setup.sh: error: %s\n' "$*" >&2; exit 1; }

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
  Install by hand: autotools, libtool, pkg-config, hwloc, FxT, Open MPI, GLPK development files,
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
		starpu_configure_flags
		cat "$here"/patches/starpu-$STARPU_VERSION/*.patch
	} | sha256sum | cut -d' ' -f1
}

starpu_configure_flags() {
	local f="--disable-opencl --disable-build-doc --disable-build-examples --disable-build-tests
--disable-socl --disable-starpufft --disable-fortran --disable-openmp
--enable-maxcpus=128 --enable-maxcudadev=8 --enable-maxnodes=32 --with-fxt --enable-mpi"
	if [ "$cuda" = yes ]; then
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

have_deb_src() {
	apt-get indextargets --format '$(CREATED_BY)' 2>/dev/null | grep -qx 'Sources'
}

# The first Debian mirror apt uses (not the security archive), from one-line
# sources.list files and deb822 .sources files alike; comments are skipped and
# missing files are fine (Debian 12 images often have no /etc/apt/sources.list).
debian_mirror() {
	local f
	local etc=${TUCCOMPI_APT_ETC:-/etc/apt}
	for f in "$etc"/sources.list "$etc"/sources.list.d/*.list "$etc"/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		sed -e 's/#.*//' "$f" | awk '
			/^[ \t]*deb[ \t]/ { for (i = 2; i <= NF; i++) if ($i ~ /^https?:\/\//) { print $i; break } }
			/^[ \t]*URIs:/ { for (i = 2; i <= NF; i++) print $i }'
	done | grep -E '^https?://.*debian/?$' | grep -v -- '-security' | head -n1 || true
}

add_deb_src() {
	[ "$(id -u)" = 0 ] || die "Debian source entries (deb-src) are not configured and adding them needs root.
  Either run ./setup.sh as root, or fetch $STARPU_ORIG yourself and run STARPU_TARBALL=FILE ./setup.sh"
	local mirror suite
	mirror=$(debian_mirror)
	mirror=${mirror:-http://deb.debian.org/debian}
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
	say "adding deb-src for $mirror $suite (/etc/apt/sources.list.d/tuccompi-deb-src.sources)"
	cat >/etc/apt/sources.list.d/tuccompi-deb-src.sources <<EOF
Types: deb-src
URIs: $mirror
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	apt-get update -qq || die "apt-get update failed after adding deb-src"
}

build_starpu() {
	local id stamp="$prefix/.tuccompi-recipe"
	id=$(recipe_id)
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$id" ] && [ -f "$prefix/lib/pkgconfig/starpu-1.3.pc" ]; then
		say "StarPU $STARPU_VERSION already built in $prefix (same recipe)"
		return
	fi
	local work="$here/.deps/build"
	mkdir -p "$work"
	fetch_starpu_source "$work"
	rm -rf "$work/src" "$work/obj"
	mkdir -p "$work/src" "$work/obj"
	tar xzf "$work/$STARPU_ORIG" -C "$work/src" --strip-components=1
	local p
	for p in "$here"/patches/starpu-$STARPU_VERSION/*.patch; do
		patch -s -d "$work/src" -p1 <"$p" || die "patch $(basename "$p") does not apply"
	done
	say "configuring StarPU (cuda=$cuda, FxT, MPI) for $prefix; log: $work/configure.log"
	# shellcheck disable=SC2046
	(cd "$work/obj" && ../src/configure --prefix="$prefix" $(starpu_configure_flags) \
		CFLAGS="-O2 -g" >"$work/configure.log" 2>&1) ||
		die "StarPU configure failed; last lines of $work/configure.log:
$(tail -n 15 "$work/configure.log")"
	grep -q "FxT trace enabled: *yes" "$work/configure.log" || die "StarPU configure did not enable FxT (is libfxt-dev installed?)"
	[ "$cuda" = no ] || grep -q "CUDA *enabled: *yes" "$work/configure.log" || die "StarPU configure did not enable CUDA although nvcc is in $CUDA_HOME (see $work/configure.log, or use --without-cuda)"
	grep -q "StarPU MPI enabled: *yes" "$work/configure.log" || die "StarPU configure did not enable MPI (is libopenmpi-dev installed?)"
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
	say "built. Next: make check   (tests; see README)"
}

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
[ "$skip_build" = 1 ] || build_project "$sp"
