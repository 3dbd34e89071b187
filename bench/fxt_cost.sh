#!/bin/sh
# bench/fxt_cost.sh: what a StarPU built with FxT costs a run that records no trace.
#
# The same programs (this build: bench/overhead, apps/apsp/tuccompi-apsp) run against two StarPU
# 1.3.10 builds that differ only in --with-fxt: the one this project was configured with, and
# NOFXT_PREFIX (the same recipe without --with-fxt: ./setup.sh's flags and patches). The untraced
# case is what matters: the library sets STARPU_FXT_TRACE=0 unless a trace is asked for. Runs
# alternate between the two builds (A B A B ...) so that a shared machine's drifts hit both; each
# number is the median over ROUNDS. Reported: start-up and shut-down of a tiny run (wall time of
# the whole process), per-task cost of empty and 100 us tasks (bench/overhead: eager, eq1, ms), and
# APSP throughput on the CPU cores; with perf, also the CPU time per empty task (the process's
# task-clock: idle StarPU workers sleep, so this moves less than wall time when other programs
# share the cores). The ratio is FxT / no FxT: above 1, FxT costs that much.
#
# Usage: bench/fxt_cost.sh NOFXT_PREFIX [ROUNDS]      (run from the build tree after make bench)
#   In a runtime bundle made with NOFXT_STARPU=DIR make bundle (DIR: the no-FxT StarPU's prefix):
#   . bundle/env.sh; cd bundle; FXT_PREFIX=$PWD bench/fxt_cost.sh $PWD/starpu-nofxt
# The ranges printed with the medians show how much the machine moved the numbers.
# Environment: FXT_PREFIX (default: the StarPU this tree was configured with), top_builddir,
#   FXT_COST_TASKS (tasks per bench/overhead set, default 20000), StarPU's own (STARPU_NCPU, ...).
# On a shared machine, give it one core of its own as far as possible, e.g. as root:
#   STARPU_NCPU=1 STARPU_WORKERS_NOBIND=1 nice -n -20 taskset -c 1 bench/fxt_cost.sh NOFXT_PREFIX
set -u
nofxt=${1:?usage: bench/fxt_cost.sh NOFXT_PREFIX [ROUNDS]}
rounds=${2:-5}
b=${top_builddir:-.}
fxt=${FXT_PREFIX:-$(sed -n 's/^STARPU_PREFIX = //p' "$b/Makefile")}
overhead=$b/bench/overhead
apsp=$b/apps/apsp/tuccompi-apsp
for f in "$overhead" "$apsp"; do
	[ -x "$f" ] || { echo "fxt_cost.sh: $f is missing; run make bench first" >&2; exit 2; }
done
# An FxT build's libstarpu needs libfxt.
has_fxt() { readelf -d "$1"/lib/libstarpu-1.3.so.* 2>/dev/null | grep -q 'libfxt\.so'; }
[ -e "$nofxt/lib/libstarpu-1.3.so.9" ] || { echo "fxt_cost.sh: no $nofxt/lib/libstarpu-1.3.so.9" >&2; exit 2; }
has_fxt "$fxt" || { echo "fxt_cost.sh: $fxt is not an FxT build (set FXT_PREFIX)" >&2; exit 2; }
has_fxt "$nofxt" && { echo "fxt_cost.sh: $nofxt was built with FxT" >&2; exit 2; }
# The programs are built against one StarPU; the other must differ in FxT alone (same API; the
# headers are compared where both builds have them, not in a bundle).
[ -d "$fxt/include/starpu/1.3" ] && [ -d "$nofxt/include/starpu/1.3" ] && for h in "$fxt"/include/starpu/1.3/*.h; do
	n=$(basename "$h")
	[ "$n" = starpu_config.h ] && continue
	cmp -s "$h" "$nofxt/include/starpu/1.3/$n" || { echo "fxt_cost.sh: $n differs between the builds" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
STARPU_HOME=$tmp/starpu-home
export STARPU_HOME
unset STARPU_FXT_TRACE TUCCOMPI_TRACE

now() { date +%s.%N; }
# run BUILD COMMAND...: the command with BUILD's libstarpu (LD_LIBRARY_PATH wins over the run-time path)
run() {
	lib=$1/lib
	shift
	LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"
}
# Check that each build's library is the one loaded.
for p in "$fxt" "$nofxt"; do
	got=$(LD_LIBRARY_PATH="$p/lib" ldd "$overhead" | awk '/libstarpu-1.3.so/ {print $3}')
	case $got in "$p"/lib/*) ;; *) echo "fxt_cost.sh: $overhead loads $got, not $p's libstarpu" >&2; exit 2 ;; esac
done

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "FxT build:    $fxt"
echo "no-FxT build: $nofxt"
echo "$(nproc) cores (STARPU_NCPU=${STARPU_NCPU:-all}), $rounds rounds, builds alternating; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$tmp/start.fxt"; : >"$tmp/start.nofxt"
: >"$tmp/ovh.fxt"; : >"$tmp/ovh.nofxt"
: >"$tmp/apsp.fxt"; : >"$tmp/apsp.nofxt"
: >"$tmp/cpu.fxt"; : >"$tmp/cpu.nofxt"
have_perf=0
command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock true >/dev/null 2>&1 && have_perf=1
ntasks=${FXT_COST_TASKS:-20000}
for r in $(seq 1 "$rounds"); do
	for which in fxt nofxt; do
		eval p=\$$which
		# start-up + shut-down of a tiny run, 5 times
		for i in 1 2 3 4 5; do
			t0=$(now)
			run "$p" "$apsp" --gen random:100 --sources 0-0 --units cpu -q >/dev/null 2>&1 ||
				{ echo "fxt_cost.sh: tiny run failed with $p" >&2; exit 1; }
			t1=$(now)
			echo "$t0 $t1" | awk '{ printf "%.4f\n", $2 - $1 }' >>"$tmp/start.$which"
		done
		# per-task cost: "  policy median_s us_per_task ..." lines of both passes (empty, short)
		run "$p" "$overhead" --tasks "$ntasks" --reps 3 --policies eager,eq1,ms >"$tmp/out" 2>&1 ||
			{ cat "$tmp/out"; exit 1; }
		awk '/^empty tasks/ { k = "empty" } /^short tasks/ { k = "100us" }
			$1 ~ /^(eager|eq1|ms)$/ && NF >= 3 { print k "-" $1, $3 }' "$tmp/out" >>"$tmp/ovh.$which"
		# CPU time per empty task: 2 passes x (1 warm-up + 3) sets x 2 policies
		if [ $have_perf = 1 ]; then
			run "$p" perf stat -x, -o "$tmp/perf" -e task-clock "$overhead" --tasks "$ntasks" --reps 3 \
				--short-us 0 --policies eager,ms >/dev/null 2>&1 || { echo "fxt_cost.sh: perf run failed" >&2; exit 1; }
			awk -F, -v n="$ntasks" '/task-clock/ { printf "%.3f\n", 1000 * $1 / (16 * n) }' "$tmp/perf" >>"$tmp/cpu.$which"
		fi
		# APSP throughput on the CPU cores
		run "$p" "$apsp" --gen random:20000 --seed 1 --sources random:400 --units cpu >"$tmp/out" 2>&1 ||
			{ cat "$tmp/out"; exit 1; }
		sed -n 's/.* \([0-9.]*\) SSSP\/s.*/\1/p' "$tmp/out" | head -n 1 >>"$tmp/apsp.$which"
	done
done

range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }'; }
printf '\n%-28s %10s %10s %10s   %s\n' "median of $rounds rounds" "FxT" "no FxT" "FxT/noFxT" "range FxT | no FxT"
row() { # NAME FXT_FILE NOFXT_FILE INVERSE
	a=$(median <"$2")
	c=$(median <"$3")
	r=$(echo "$a $c $4" | awk '{ printf "%.3f", $3 ? $2 / $1 : $1 / $2 }')
	printf '%-28s %10s %10s %10s   %s | %s\n' "$1" "$a" "$c" "$r" "$(range <"$2")" "$(range <"$3")"
}
row "tiny run, start to exit (s)" "$tmp/start.fxt" "$tmp/start.nofxt" 0
for k in empty-eager empty-eq1 empty-ms 100us-eager 100us-eq1 100us-ms; do
	awk -v k="$k" '$1 == k { print $2 }' "$tmp/ovh.fxt" >"$tmp/k.fxt"
	awk -v k="$k" '$1 == k { print $2 }' "$tmp/ovh.nofxt" >"$tmp/k.nofxt"
	row "$k (us per task)" "$tmp/k.fxt" "$tmp/k.nofxt" 0
done
[ $have_perf = 1 ] && row "CPU us per empty task (perf)" "$tmp/cpu.fxt" "$tmp/cpu.nofxt" 0
# throughput: the cost is the inverse ratio
row "APSP, CPU cores (SSSP/s)" "$tmp/apsp.fxt" "$tmp/apsp.nofxt" 1
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
