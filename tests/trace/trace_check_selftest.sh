#!/bin/sh
# Self-test of the trace tools: scripts/paje_check.py on the small Paje files of tests/data/paje/
# (exit codes and messages), and scripts/tuccompi-summary on tests/data/paje/valid/.
#   valid/            cut from a real 2-rank StarPU 1.3.10 trace (22 tasks) with its tasks.rec
#   tiny.trace        1 rank, 2 CPU workers, 3 executions of test_probe (header as StarPU writes it)
#   links.trace       tiny + data-transfer, prefetch and work-stealing links and a task name with a space
#   undefined_event.trace, wrong_fields.trace, undefined_container.trace, bad_header.trace,
#   truncated.trace   broken variants of tiny (exit 2, FILE:LINE of the first bad line)
#   time_backwards.trace   a worker state earlier than the one before: a warning, an error with --strict
# Exit: 0 all good, 1 a check failed, 77 no python3. Environment: top_srcdir (default .), PYTHON.
top_srcdir=${top_srcdir:-.}
PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null 2>&1; then
	echo "SKIP: $PYTHON not found"
	exit 77
fi
check=$top_srcdir/scripts/paje_check.py
summary=$top_srcdir/scripts/tuccompi-summary
data=$top_srcdir/tests/data/paje
tmp=$(mktemp -d "${TMPDIR:-/tmp}/trace_check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
n=0

# expect NAME RC TEXT -- COMMAND...: COMMAND exits with RC and TEXT (fixed string, may be empty)
# appears in its stdout or stderr.
expect() {
	name=$1 want=$2 text=$3
	shift 4
	n=$((n + 1))
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL: $name: exit $rc, expected $want"
		sed 's/^/    /' "$tmp/err" "$tmp/out" | head -n 20
		fails=$((fails + 1))
	elif [ -n "$text" ] && ! grep -qF -- "$text" "$tmp/out" "$tmp/err"; then
		echo "FAIL: $name: no '$text' in the output"
		sed 's/^/    /' "$tmp/err" "$tmp/out" | head -n 20
		fails=$((fails + 1))
	else
		echo "ok: $name"
	fi
}

# shellcheck disable=SC2317 # called through expect
py() { "$PYTHON" "$@"; }

# valid inputs
expect "tiny: valid" 0 "task executions (Worker State = task name): 3 (test_probe: 3)" -- \
	py "$check" "$data/tiny.trace"
expect "tiny: expectations met" 0 "tiny.trace: OK" -- \
	py "$check" "$data/tiny.trace" --expect-tasks 3 --task-name test_probe --expect-workers 2 --ranks 1
expect "tiny: worker names" 0 "rank 0: 2 worker(s): CPU 0 [0_w0], CPU 1 [0_w1]" -- \
	py "$check" "$data/tiny.trace"
expect "valid dir + tasks.rec" 0 "tasks.rec: 22 executed tasks, agrees" -- \
	py "$check" "$data/valid" --expect-tasks 22 --expect-workers 4 --ranks 2
expect "valid: per rank" 0 "rank 1: 10  (CPU 0: 8, CPU 1: 2)" -- \
	py "$check" "$data/valid/paje.trace"
expect "links: transfers" 0 "links 'Intra-node data Fetch' (data): 1, 4096 bytes" -- \
	py "$check" "$data/links.trace"
expect "links: quoted task name" 0 "(my task: 1, test_probe: 3)" -- \
	py "$check" "$data/links.trace" --expect-tasks 1 --task-name "my task"
expect "time backwards: warning" 0 "warning: $data/time_backwards.trace:349: time goes backwards" -- \
	py "$check" "$data/time_backwards.trace"

# expectations not met: exit 1, one clear line
expect "tiny: task count" 1 "tiny.trace: 3 executions of test_probe, expected 4" -- \
	py "$check" "$data/tiny.trace" --expect-tasks 4 --task-name test_probe
expect "tiny: all tasks count" 1 "tiny.trace: 3 task executions, expected 2" -- \
	py "$check" "$data/tiny.trace" --expect-tasks 2
expect "tiny: worker count" 1 "tiny.trace: 2 worker containers, expected 3" -- \
	py "$check" "$data/tiny.trace" --expect-workers 3
expect "tiny: rank count" 1 "tiny.trace: 1 MPI rank(s) (program containers), expected 2" -- \
	py "$check" "$data/tiny.trace" --ranks 2
mkdir "$tmp/rec"
cp "$data/valid/paje.trace" "$tmp/rec/"
# drop the first task record of tasks.rec
awk 'BEGIN { RS = ""; ORS = "\n\n" } NR > 1' "$data/valid/tasks.rec" >"$tmp/rec/tasks.rec"
expect "tasks.rec disagrees" 1 "tasks.rec disagrees with paje.trace (rank 0 test_probe: 12 in paje.trace, 11 in tasks.rec)" -- \
	py "$check" "$tmp/rec"
expect "tasks.rec ignored with --no-rec" 0 "paje.trace: OK" -- \
	py "$check" "$tmp/rec" --no-rec

# invalid inputs: exit 2, FILE:LINE of the first bad line
expect "undefined event id" 2 "undefined_event.trace:342: undefined event id '22'" -- \
	py "$check" "$data/undefined_event.trace"
expect "wrong field count" 2 "wrong_fields.trace:366: event 20 (PajeSetState) has 14 fields, 15 expected" -- \
	py "$check" "$data/wrong_fields.trace"
expect "undefined container" 2 "undefined_container.trace:358: container '0_w7' is not defined" -- \
	py "$check" "$data/undefined_container.trace"
expect "broken header" 2 "bad_header.trace:74: %EventDef inside the definition of PajeSetVariable 13" -- \
	py "$check" "$data/bad_header.trace"
expect "truncated file" 2 "truncated.trace:374: event 13 (PajeSetVariable) has 1 fields, 4 expected" -- \
	py "$check" "$data/truncated.trace"
expect "time backwards --strict" 2 "time_backwards.trace:349: time goes backwards on worker container '0_w0'" -- \
	py "$check" "$data/time_backwards.trace" --strict
expect "missing file" 2 "cannot open" -- \
	py "$check" "$tmp/nothing/paje.trace"
expect "not a Paje file" 2 "tasks.rec:1: event line before any %EventDef header" -- \
	py "$check" "$data/valid/tasks.rec"

# tuccompi-summary
expect "summary: table" 0 "test_probe" -- \
	py "$summary" "$data/valid" --csv "$tmp/s.csv"
n=$((n + 1))
if [ "$(head -n 1 "$tmp/s.csv")" = "rank,worker,name,tasks,busy_s,idle_s" ] &&
	[ "$(wc -l <"$tmp/s.csv" | tr -d ' ')" = 5 ] &&
	grep -q '^1,0,CPU 0,8,' "$tmp/s.csv"; then
	echo "ok: summary: csv"
else
	echo "FAIL: summary: csv"
	sed 's/^/    /' "$tmp/s.csv"
	fails=$((fails + 1))
fi
mkdir "$tmp/links"
cp "$data/links.trace" "$tmp/links/paje.trace"
expect "summary: transfers (paje.trace alone)" 0 "Intra-node data Fetch (data transfers): 1" -- \
	py "$summary" "$tmp/links"

echo "$((n - fails)) of $n checks passed"
[ "$fails" = 0 ] || exit 1
exit 0
