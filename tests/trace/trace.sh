#!/bin/sh
# A small traced APSP job on 1 and on 2 ranks: paje.trace is valid Paje, names every
# worker (2 CPU workers per rank), holds exactly one execution of the plug-in per task
# (cross-checked with tasks.rec), and the run summary's counts equal the tasks run.
# Exit 77 only when StarPU was built without FxT.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }

run() { # RANKS DIR
	args="--gen random:2000 --seed 3 --sources 0-149 --engine crauser --units cpu --ncpu 2 -q --trace $2 --stats $2/units.csv"
	if [ "$1" = 1 ]; then
		"$app" $args >"$tmp/out" 2>&1
	else
		"$s/tests/mpirun.sh" "$1" "$app" $args >"$tmp/out" 2>&1
	fi
	rc=$?
	if [ $rc != 0 ] && grep -q "built without FxT" "$tmp/out"; then
		echo "StarPU has no FxT: skipped"
		exit 77
	fi
	[ $rc = 0 ] || { cat "$tmp/out"; fail "traced run on $1 rank(s) failed"; }
	[ -s "$2/paje.trace" ] || fail "no $2/paje.trace"
	python3 "$s/scripts/paje_check.py" "$2" --task-name sssp --expect-tasks 150 --expect-workers $((2 * $1)) \
		--ranks "$1" || fail "paje.trace of the $1-rank run"
	# the library's run summary agrees
	total=$(awk -F, 'NR > 1 {s += $4} END {print s}' "$2/units.csv")
	[ "$total" = 150 ] || fail "units.csv counts $total tasks, not 150"
	# and so does the summary made from the trace
	python3 "$s/scripts/tuccompi-summary" "$2" --csv "$2/trace-summary.csv" >/dev/null ||
		fail "tuccompi-summary on the $1-rank trace"
	total=$(awk -F, 'NR > 1 && $1 ~ /^[0-9]+$/ {s += $4} END {print s}' "$2/trace-summary.csv")
	[ "$total" = 150 ] || fail "tuccompi-summary counts $total tasks, not 150"
	echo "ok: $1 rank(s): valid trace, 150 executions, summaries agree"
}
run 1 "$tmp/t1"
if [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; then
	run 2 "$tmp/t2"
fi
