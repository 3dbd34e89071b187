#!/bin/sh
# A trace folder given relative to the current folder (--trace tr/, as in the README, and
# TUCCOMPI_TRACE=DIR) is written there, on 1 rank and on 2 under mpirun, and checks as Paje. A
# converter that fails leaves no paje.trace (neither a truncated one nor an earlier run's), and the
# error names the converter's own message, not a guess. Exit 77 only without FxT or python3.
set -u
b=$(cd "${top_builddir:-.}" && pwd)
s=$(cd "${top_srcdir:-.}" && pwd)
app="$b/apps/apsp/tuccompi-apsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
args="--gen random:1000 --seed 5 --sources 0-39 --units cpu --ncpu 2 -q --engine crauser"
mkdir "$tmp/work"
cd "$tmp/work" || exit 1

# 1 rank, --trace with a relative folder and a trailing slash
"$app" $args --trace tr/ >"$tmp/out" 2>&1
rc=$?
if [ $rc != 0 ] && grep -q "built without FxT" "$tmp/out"; then echo "StarPU has no FxT: skipped"; exit 77; fi
[ $rc = 0 ] || { cat "$tmp/out"; fail "--trace tr/ (relative) failed"; }
python3 "$s/scripts/paje_check.py" tr --task-name sssp --expect-tasks 40 --expect-workers 2 --ranks 1 -q ||
	fail "tr/paje.trace of the relative --trace run"
echo "ok: --trace tr/ on 1 rank: valid trace, 40 executions"

# the environment, a relative folder two levels down
TUCCOMPI_TRACE=runs/env "$app" $args >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "TUCCOMPI_TRACE=runs/env failed"; }
python3 "$s/scripts/paje_check.py" runs/env --task-name sssp --expect-tasks 40 -q || fail "runs/env/paje.trace"
echo "ok: TUCCOMPI_TRACE=runs/env: valid trace"

# 2 ranks, as the README's mpirun line
if [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; then
	"$s/tests/mpirun.sh" 2 "$app" $args --trace tr2/ >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "mpirun -n 2 ... --trace tr2/"; }
	python3 "$s/scripts/paje_check.py" tr2 --task-name sssp --expect-tasks 40 --expect-workers 4 --ranks 2 -q ||
		fail "tr2/paje.trace of the 2-rank relative --trace run"
	echo "ok: --trace tr2/ on 2 ranks: valid trace"
fi

# a converter that writes half a paje.trace and dies: no paje.trace stays (not even tr/'s old one)
cat >"$tmp/bad_tool" <<'EOT'
#!/bin/sh
printf 'half a trace' >paje.trace
echo "[starpu][abort] Failed to open 'prof_file_x' (err No such file or directory)" >&2
exit 3
EOT
chmod +x "$tmp/bad_tool"
[ -s tr/paje.trace ] || fail "tr/paje.trace vanished before the failing run"
TUCCOMPI_FXT_TOOL="$tmp/bad_tool" "$app" $args --trace tr/ >"$tmp/out" 2>&1 && fail "a failed conversion exits 0"
[ ! -e tr/paje.trace ] || fail "a failed conversion left tr/paje.trace ($(wc -c <tr/paje.trace) bytes)"
[ ! -e tr/tasks.rec ] || fail "a failed conversion left the earlier run's tr/tasks.rec"
ls -a tr | grep -q '^\.fxt_tool' && fail "the conversion's temporary folder was left in tr/"
grep -q "Failed to open 'prof_file_x'" "$tmp/out" || { cat "$tmp/out"; fail "the error does not quote the converter's message"; }
grep -q "exit 3" "$tmp/out" || { cat "$tmp/out"; fail "the error does not give the converter's exit status"; }
grep -q "fxt_tool.log" "$tmp/out" || fail "the error does not name the converter's log"
echo "ok: failed conversion: no paje.trace left, the cause quoted: $(grep -o 'converting.*' "$tmp/out" | cut -c1-100)..."
