#!/bin/sh
# Normal runs are quiet: no StarPU notice ("[starpu]..." lines: an FxT build's "configured with
# --with-fxt" warning, calibration messages of dmda with fresh models) on a run, a usage error or
# --help, on 1 rank and on 2. They come back when asked for: TUCCOMPI_VERBOSE=1 (checked with the
# FxT warning, when StarPU has FxT) and a traced run.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The test environment silences StarPU; a user's does not.
unset STARPU_SILENT
STARPU_HOME=$tmp/starpu-home   # fresh performance models: dmda calibrates
export STARPU_HOME
fails=0
n=0
args="--gen random:500 --seed 2 --sources 0-29 --units cpu --ncpu 2"

quiet() { # NAME COMMAND...: no [starpu] line in its output
	n=$((n + 1))
	name=$1
	shift
	"$@" >"$tmp/out" 2>&1
	if grep -q '^\[starpu\]' "$tmp/out"; then
		echo "FAIL: $name prints StarPU notices:"
		grep '^\[starpu\]' "$tmp/out" | head -n 5 | cut -c1-160 | sed 's/^/    /'
		fails=$((fails + 1))
	else
		echo "ok: $name: quiet"
	fi
}

quiet "a run" "$app" $args
quiet "a run with --policy dmda and fresh models" "$app" $args --policy dmda
quiet "a usage error" "$app" --no-such-option
quiet "tuccompi-apsp --help" "$app" --help
quiet "tuccompi-example --help" "$b/apps/tuccompi-example" --help
if [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; then
	quiet "a run on 2 ranks" "$s/tests/mpirun.sh" 2 "$app" $args --policy dmda
fi

# The notices come back when asked for (an FxT build warns at every start).
if grep -q '^#define TUCCOMPI_HAVE_FXT 1' "$b/lib/config.h" 2>/dev/null; then
	for how in "TUCCOMPI_VERBOSE=1" "STARPU_SILENT=0" "--trace"; do
		n=$((n + 1))
		case $how in
		--trace) "$app" $args --trace "$tmp/tr" >"$tmp/out" 2>&1 ;;
		*) env "$how" "$app" $args >"$tmp/out" 2>&1 ;;
		esac
		if grep -q 'configured with --with-fxt' "$tmp/out"; then
			echo "ok: $how: StarPU's FxT notice shows"
		else
			echo "FAIL: $how: StarPU's FxT notice does not show"
			head -n 10 "$tmp/out" | sed 's/^/    /'
			fails=$((fails + 1))
		fi
	done
fi
echo "$((n - fails)) of $n checks passed"
[ "$fails" = 0 ]
