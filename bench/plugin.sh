#!/bin/sh
# bench/plugin.sh [OUTDIR]: the CUDA plug-in example (examples/hutchinson) against the same tasks as a
# plain StarPU program (bench/plugin_starpu: one codelet with the same CPU code and kernels, CUDA's
# suggested block, StarPU's dmda and lws), in one run, on the CPU cores, the GPU and every unit:
#   1. tasks per second: the example under ms, lws and dmda (StarPU's policies inside the library),
#      plain StarPU under lws and dmda; REPS rounds (default 3) in alternation after a warm-up round
#      (dmda's models), medians; ratios of the example to plain StarPU under the same policy, and of
#      the example's ms to the better plain one;
#   2. the runtime's cost per task: the same on the CPU cores and on the GPU with tiny tasks (TINY_N,
#      default 16; TINY_T of them, 10000), us per task and the example's extra us over plain StarPU;
#   3. on a GPU: the tuner's geometry against CUDA's suggested block, kernel by kernel
#      (plugin_starpu --kernels) and for the example's whole run (TUCCOMPI_TUNE=cuda against rules).
# Both programs get the same CPU workers (STARPU_NCPU: the cores less one, less MK with a GPU) and MK
# stream workers per GPU. N (the matrix's order; 2048 with a GPU, 512 without), T (tasks with a GPU,
# default 20000), T_CPU (tasks on the CPU cores alone, default 1000), MK (4). From the build tree or
# the bundle (scripts/gpu-node.sh plugin-bench). Results: OUTDIR/rates.txt (one line per run),
# OUTDIR/plugin-bench.txt (the tables).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
b=${top_builddir:-$here}
EX=$b/examples/hutchinson/hutchinson
PS=$b/bench/plugin_starpu
o=${1:-${OUT:-.}/plugin-bench}
mkdir -p "$o"
: >"$o/rates.txt"
for p in "$EX" "$PS"; do
	[ -x "$p" ] || { echo "plugin.sh: $p is not built (make bench)" >&2; exit 2; }
done
export STARPU_SILENT=1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gpu=0
"$EX" --units gpu --n 32 --tasks 8 >/dev/null 2>&1 && gpu=1
MK=${MK:-4}
REPS=${REPS:-3}
if [ $gpu = 1 ]; then N=${N:-2048}; else N=${N:-512}; fi
T=${T:-20000}
T_CPU=${T_CPU:-1000}
TINY_N=${TINY_N:-16}
TINY_T=${TINY_T:-10000}
ncores=$(nproc)
ncpu=$((ncores > 1 ? ncores - 1 : 1))
ncpu_gpu=$((ncores - MK - 1 > 0 ? ncores - MK - 1 : 0))

# run NAME HOME TASKS N UNITS PROGRAM ARGS...: one run, its rate appended to rates.txt as "NAME RATE"
run() {
	name=$1 home=$2 tasks=$3 n=$4 units=$5
	shift 5
	nc=$ncpu
	[ "$units" = cpu ] || nc=$ncpu_gpu
	[ "$units" = gpu ] && nc=0
	STARPU_HOME=$home STARPU_NCPU=$nc "$@" --units "$units" --n "$n" --tasks "$tasks" --mk "$MK" >"$tmp/run.log" 2>&1
	rc=$?
	r=$(sed -n 's/.*: \([0-9.]*\) tasks\/s; .*: all results correct$/\1/p' "$tmp/run.log")
	if [ $rc != 0 ] || [ -z "$r" ]; then
		echo "$name: failed (exit $rc)" >&2
		tail -n 5 "$tmp/run.log" >&2
		r=0
	fi
	echo "$name $r" >>"$o/rates.txt"
}

# compare LABEL HOME TASKS N UNITS: every program and policy, a warm-up round then REPS rounds
compare() {
	label=$1 home=$2 tasks=$3 n=$4 units=$5
	mkdir -p "$home"
	[ -d "${STARPU_HOME:-}" ] && [ ! -d "$home/.starpu" ] && cp -r "$STARPU_HOME/." "$home/" 2>/dev/null
	for rep in $(seq 0 "$REPS"); do
		[ "$rep" = 0 ] && tag=warmup || tag=$label
		for p in ms lws dmda; do run "$tag example-$p" "$home" "$tasks" "$n" "$units" "$EX" --policy $p; done
		for p in lws dmda; do run "$tag starpu-$p" "$home" "$tasks" "$n" "$units" "$PS" --sched $p; done
	done
}

units=cpu
[ $gpu = 1 ] && units="cpu gpu all"
echo "plugin.sh: $ncores cores, GPU: $([ $gpu = 1 ] && echo yes || echo no); N=$N, MK=$MK, $REPS rounds; CPU workers $ncpu alone, $ncpu_gpu beside a GPU"
for u in $units; do
	t=$T
	[ "$u" = cpu ] && t=$T_CPU
	compare "$u" "$tmp/home-n" "$t" "$N" "$u"
	[ "$u" = all ] || compare "tiny-$u" "$tmp/home-tiny" "$TINY_T" "$TINY_N" "$u"
done
if [ $gpu = 1 ]; then
	for rep in $(seq "$REPS"); do
		TUCCOMPI_TUNE=rules run "geometry tuner" "$tmp/home-n" "$T" "$N" gpu "$EX"
		TUCCOMPI_TUNE=cuda run "geometry cuda" "$tmp/home-n" "$T" "$N" gpu "$EX"
	done
fi

# the tables: medians over the rounds, ratios
{
	echo "examples/hutchinson against plain StarPU (bench/plugin_starpu), tasks/s, medians of $REPS rounds; N=$N, MK=$MK"
	awk -v tiny_n="$TINY_N" '
	$1 != "warmup" { k = $1 " " $2; v[k] = v[k] " " $3; if (!(($1) in seen)) { seen[$1] = 1; order[++n] = $1 } }
	function median(s,   a, m, i, j, t) {
		m = split(s, a, " ")
		for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return m ? (m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2) : 0
	}
	END {
		for (i = 1; i <= n; i++) {
			l = order[i]
			if (l == "geometry") {
				tu = median(v[l " tuner"]); cu = median(v[l " cuda"])
				printf "the example on the GPU, tuner (rules) %.0f tasks/s, CUDA'"'"'s suggestion %.0f: tuner / CUDA %.3f\n", tu, cu, (cu > 0 ? tu / cu : 0)
				continue
			}
			ms = median(v[l " example-ms"]); el = median(v[l " example-lws"]); ed = median(v[l " example-dmda"])
			sl = median(v[l " starpu-lws"]); sd = median(v[l " starpu-dmda"]); best = sl > sd ? sl : sd
			printf "%-10s example ms %9.0f  lws %9.0f  dmda %9.0f | StarPU lws %9.0f  dmda %9.0f | lws %.3f  dmda %.3f  ms/best %.3f\n",
				l, ms, el, ed, sl, sd, (sl > 0 ? el / sl : 0), (sd > 0 ? ed / sd : 0), (best > 0 ? ms / best : 0)
			if (l ~ /^tiny-/ && el > 0 && sl > 0 && ms > 0)
				printf "%-10s us per task (n = %d): example ms %.2f, lws %.2f; StarPU lws %.2f: the runtime'"'"'s cost over plain StarPU %+.2f us per task (lws)\n",
					l, tiny_n, 1e6 / ms, 1e6 / el, 1e6 / sl, 1e6 / el - 1e6 / sl
		}
	}' "$o/rates.txt"
	if [ $gpu = 1 ]; then
		for n in "$N" 512; do STARPU_HOME=$tmp/home-n "$PS" --kernels --n "$n" --reps 50 2>&1; done
	fi
} | tee "$o/plugin-bench.txt"
grep -q " 0$" "$o/rates.txt" && { echo "plugin.sh: some runs failed (rates.txt)" >&2; exit 1; }
exit 0
