#!/bin/sh
# tuccompi-apsp as a user meets it: the demo runs; a run's table and distance rows are the
# same on 1, 2 and 4 ranks, under every policy, from a generator spec, from the same graph written
# by tuccompi-graph, and from a pipe; --verify agrees with the CPU code; bad input (missing files,
# the bad-graph corpus with its NUL and control bytes, bad options) gives one clear error, a
# non-zero exit and no output file left behind. And the hostile cases of issues 15 and 11:
#  - every output path is checked before any work (missing folder, a folder, the input graph,
#    one file named by two outputs, standard output where it is not taken);
#  - a header or a spec needing more memory than the limit is refused at once;
#  - a distance overflow leaves no rows file, and only .mtx input is told of --mtx-real-scale;
#  - SIGTERM and SIGINT (also to mpirun) leave no temporary file;
#  - a --cache that cannot be written warns and the run goes on;
#  - empty and repeated --sources items are refused;
#  - the progress line shows when stdout only is a terminal (as mpirun gives ranks), also under
#    mpirun, never says "ETA 0 s" before a task is done; -o - keeps stdout for the table;
#  - --units gpu without a GPU says so; a CPU-only report names no MK; the report names the
#    engine and why; every tool has --version, and tuccompi-example --help starts nothing.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tg="$b/apps/apsp/tuccompi-graph"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
have_mpi() { [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; }

# ---------------------------------------------------------------- versions, help
for tool in apps/apsp/tuccompi-apsp apps/apsp/tuccompi-graph apps/tuccompi-tune apps/tuccompi-example; do
	name=$(basename $tool)
	env -u STARPU_SILENT "$b/$tool" --version >"$tmp/v.out" 2>"$tmp/v.err" || fail "$name --version failed"
	grep -q "^$name [0-9]*\.[0-9]*\.[0-9]* (.*libtuccompi-starpu [0-9]*\.[0-9]*\.[0-9]*" "$tmp/v.out" ||
		fail "$name --version: $(cat "$tmp/v.out")"
	[ -s "$tmp/v.err" ] && fail "$name --version wrote to stderr (StarPU started?): $(cat "$tmp/v.err")"
done
env -u STARPU_SILENT "$b/apps/tuccompi-example" --help >"$tmp/h.out" 2>"$tmp/h.err" || fail "tuccompi-example --help failed"
grep -q "^Usage: tuccompi-example" "$tmp/h.out" || fail "tuccompi-example --help: $(cat "$tmp/h.out")"
[ -s "$tmp/h.err" ] && fail "tuccompi-example --help started something: $(cat "$tmp/h.err")"
echo "ok: --version on every tool; tuccompi-example --help starts nothing"

# ---------------------------------------------------------------- runs
"$app" >"$tmp/demo.out" 2>&1 || { cat "$tmp/demo.out"; fail "the demo (no arguments) failed"; }
grep -q "SSSP/s" "$tmp/demo.out" || fail "the demo printed no throughput"

g="--gen random:3000:1-6:1-20 --seed 5 --sources 0-199 -q"
"$app" $g --policy ms -o "$tmp/a.csv" --rows "$tmp/a.rows" --verify 20 || fail "1-rank run"
[ "$(wc -l <"$tmp/a.csv")" = 201 ] || fail "table should have 200 rows + header"
head -1 "$tmp/a.csv" | grep -q "^source,reached,eccentricity,sum,mean,harmonic$" || fail "table header"
[ "$(stat -c %s "$tmp/a.rows")" = $((32 + 200 * 4 + 200 * 3000 * 4)) ] || fail "rows file size"
"$app" $g --policy eq1 -o "$tmp/b.tsv" || fail "eq1 run"
tr '\t' ',' <"$tmp/b.tsv" | cmp -s - "$tmp/a.csv" || fail "eq1 table differs from ms"

# One generator-spec syntax: tuccompi-graph writes the graph --gen makes; read from the file,
# from a pipe and from /dev/stdin, it gives the same table.
"$tg" gen random:3000:1-6:1-20 --seed 5 -o "$tmp/g.gr" || fail "tuccompi-graph gen"
"$app" "$tmp/g.gr" --sources 0-199 -q -o "$tmp/c.csv" --rows "$tmp/c.rows" --engine crauser || fail "run on the .gr file"
cmp -s "$tmp/c.csv" "$tmp/a.csv" || fail "the .gr file of the same spec gives another table"
cmp -s "$tmp/c.rows" "$tmp/a.rows" || fail "the .gr file of the same spec gives other rows"
cat "$tmp/g.gr" | "$app" - --format gr --sources 0-199 -q -o - >"$tmp/d.csv" || fail "run on a pipe"
cmp -s "$tmp/d.csv" "$tmp/a.csv" || fail "the table from a pipe differs"
"$app" /dev/stdin --format gr --sources 0-199 -q -o "$tmp/e.csv" <"$tmp/g.gr" || fail "run on /dev/stdin"
cmp -s "$tmp/e.csv" "$tmp/a.csv" || fail "the table from /dev/stdin differs"
# The same graph as an edge list (.gr ids 1..n are 0..n-1 here, as in the edge list), from a file
# and from a pipe.
"$tg" convert "$tmp/g.gr" "$tmp/g.csv" || fail "tuccompi-graph convert to an edge list"
"$app" "$tmp/g.csv" --sources 0-199 -q -o "$tmp/el.csv" --rows "$tmp/el.rows" || fail "run on the edge list"
cmp -s "$tmp/el.csv" "$tmp/a.csv" || fail "the edge list of the same graph gives another table"
cmp -s "$tmp/el.rows" "$tmp/a.rows" || fail "the edge list of the same graph gives other rows"
"$app" - --format edgelist --sources 0-199 -q -o - <"$tmp/g.csv" >"$tmp/el2.csv" || fail "run on an edge list from a pipe"
cmp -s "$tmp/el2.csv" "$tmp/a.csv" || fail "the table from an edge list on a pipe differs"
echo "ok: --gen, tuccompi-graph gen, a pipe, /dev/stdin and an edge list give the same table and rows"

if have_mpi; then
	for n in 2 4; do
		for p in eq1 eq2 ms ms-tail; do
			"$s/tests/mpirun.sh" $n "$app" $g --ncpu 1 --policy $p -o "$tmp/m.csv" --rows "$tmp/m.rows" ||
				fail "$n-rank run ($p)"
			cmp -s "$tmp/m.csv" "$tmp/a.csv" || fail "$n-rank table ($p) differs from 1 rank"
			cmp -s "$tmp/m.rows" "$tmp/a.rows" || fail "$n-rank rows ($p) differ from 1 rank"
		done
	done
	echo "ok: 2 and 4 ranks (eq1, eq2, ms, ms-tail) give the same table and rows as 1 rank"
	# standard input reaches rank 0 only: several ranks are told so before anything is read (stdin
	# not forwarded: Open MPI 4's mpiexec itself crashed, now and then, forwarding a file's bytes to
	# a rank that had finished, in orte_iof_hnp_read_local_handler)
	rm -f "$tmp/m.csv"
	MPIRUN_ARGS="--stdin none" "$s/tests/mpirun.sh" 2 "$app" - --format gr --ncpu 1 -q -o "$tmp/m.csv" \
		>"$tmp/m.err" 2>&1 && fail "2 ranks took a graph from standard input"
	grep -q "GRAPH '-': standard input reaches rank 0 only; give every rank a file" "$tmp/m.err" ||
		fail "2 ranks on standard input: $(cat "$tmp/m.err")"
	[ -e "$tmp/m.csv" ] && fail "2 ranks on standard input left a table"
	echo "ok: standard input refused on 2 ranks with the reason"
fi

# ---------------------------------------------------------------- the report
"$app" --gen random:2000 --sources 0-19 --units cpu -o "$tmp/r.csv" 2>"$tmp/r.err" || fail "CPU-only run"
grep -q "SSSP/s (policy ms-tail, 1 rank(s), [0-9]* CPU + 0 GPU units)" "$tmp/r.err" || fail "report: $(cat "$tmp/r.err")"
grep -q "MK" "$tmp/r.err" && fail "a CPU-only report names MK: $(cat "$tmp/r.err")"
grep -q "^  engine:    [a-z]* (auto: " "$tmp/r.err" || fail "the report does not say which engine ran and why"
# -o -: stdout is the table, however talkative the run.
"$app" --gen random:2000 --sources 0-19 --summary --verify 2 -o - >"$tmp/s.out" 2>"$tmp/s.err" || fail "-o - run"
[ "$(wc -l <"$tmp/s.out")" = 21 ] || fail "-o -: stdout is not the 21-line table: $(cat "$tmp/s.out")"
grep -v '^source,reached,eccentricity,sum,mean,harmonic$' "$tmp/s.out" | grep -qv '^[0-9]*,[0-9]*,[0-9]*,[0-9]*,[0-9.]*,[0-9.e+-]*$' &&
	fail "-o -: stdout holds more than the table: $(cat "$tmp/s.out")"
grep -q "SSSP/s" "$tmp/s.err" || fail "-o -: the report did not go to stderr"
# --units gpu: runs where there is a GPU; elsewhere says there is none (not StarPU's variables).
if "$app" --gen random:200 --sources 0-9 --units gpu -q -o "$tmp/gpu.csv" 2>"$tmp/gpu.err"; then
	echo "ok: --units gpu ran (a GPU is here)"
else
	grep -q "no GPU found (CUDA devices: 0); use --units cpu or all\|this build has no CUDA support; use --units cpu or all" \
		"$tmp/gpu.err" || fail "--units gpu without a GPU: $(cat "$tmp/gpu.err")"
	grep -q "STARPU_N" "$tmp/gpu.err" && fail "--units gpu blames StarPU's variables: $(cat "$tmp/gpu.err")"
	echo "ok: --units gpu without a GPU: $(cat "$tmp/gpu.err")"
fi

# ---------------------------------------------------------------- progress
if command -v script >/dev/null 2>&1; then
	# stdout a terminal, stderr a file: what ranks get from mpirun.
	script -qec "'$app' --gen random:3000 --sources 0-199 -o '$tmp/p.csv' 2>'$tmp/p.err'" /dev/null >/dev/null ||
		fail "run under script"
	tr '\r' '\n' <"$tmp/p.err" >"$tmp/p.lines"
	grep -q "\] [0-9]*/200 SSSP  .* SSSP/s  ETA " "$tmp/p.lines" || fail "no progress line with stdout on a terminal: $(cat "$tmp/p.err")"
	grep -q "\] ~\{0,1\}0/200 SSSP .*ETA 0 s" "$tmp/p.lines" && fail "progress says ETA 0 s at 0 tasks"
	if have_mpi; then
		script -qec "'$s/tests/mpirun.sh' 2 '$app' --gen random:3000 --sources 0-199 --ncpu 1 -o '$tmp/p.csv' 2>'$tmp/pm.err'" \
			/dev/null >/dev/null || fail "2-rank run under script"
		grep -q "~[0-9]*/200 SSSP  .* SSSP/s  ETA" "$tmp/pm.err" || fail "no progress line under mpirun: $(cat "$tmp/pm.err")"
	fi
	echo "ok: the progress line shows with a terminal on stdout only$(have_mpi && echo ', also under mpirun')"
fi

# ---------------------------------------------------------------- errors
no_leftovers() { # WHAT: no output and no temporary file in $tmp/out/
	[ -z "$(ls -A "$tmp/out")" ] || fail "$1 left $(ls -A "$tmp/out")"
}
mkdir "$tmp/out"
expect_fail() { # CODE SUBSTRING ARGS...: one line on stderr, nothing left in $tmp/out
	code=$1 msg=$2
	shift 2
	"$app" "$@" >"$tmp/err.out" 2>&1
	rc=$?
	[ "$rc" = "$code" ] || { cat "$tmp/err.out"; fail "'$*' exited $rc, expected $code"; }
	grep -qF -- "$msg" "$tmp/err.out" || { cat "$tmp/err.out"; fail "'$*': message lacks '$msg'"; }
	no_leftovers "'$*'"
	echo "ok: $* -> exit $rc: $(head -1 "$tmp/err.out")"
}
expect_error() { # the same with -o into $tmp/out
	code=$1 msg=$2
	shift 2
	expect_fail "$code" "$msg" "$@" -o "$tmp/out/never.csv"
}
expect_error 1 "$tmp/nope.gr" "$tmp/nope.gr"
expect_error 2 "unknown option" --frobnicate
expect_error 2 "--sources" --gen random:100 --sources 50-200
expect_error 2 "--policy" --gen random:100 --policy fastest
expect_error 2 "--mk" --gen random:100 --mk 0
expect_error 2 "--gen 'random:abc': N 'abc': expected an integer" --gen random:abc
expect_error 2 "--sources ',': item 1 is empty; list vertex ids like 0,5,9" --gen random:100 --sources ,
expect_error 2 "--sources '3,3': vertex 3 is listed twice" --gen random:100 --sources 3,3
expect_error 2 "--engine: unknown SSSP engine 'fastest'" --gen random:100 --engine fastest
expect_error 2 "--delta '0': expected an integer 1..4294967295" --gen random:100 --delta 0
expect_error 2 "--max-memory '4X': unknown unit 'X'" --gen random:100 --max-memory 4X
expect_error 2 "GRAPH '-' (standard input) needs its format: --format gr, mtx, edgelist or metis" -
expect_error 2 "--cache: standard input cannot be cached" - --format gr --cache "$tmp/out/c.tgb"
# the dial engine: weights outside 1..64 refused, naming the engine that takes them; a bad threshold
expect_error 1 "use --engine batched" --gen grid:20x20:1-100 --engine dial --sources 0-9 --ncpu 1
export TUCCOMPI_DIAL_HEAVY=lots
expect_error 1 "TUCCOMPI_DIAL_HEAVY=lots: say a number of out-arcs from 1 to" --gen random:100 --engine dial --sources 0-9 --ncpu 1
unset TUCCOMPI_DIAL_HEAVY
# the environment: a value a variable does not take stops the run, naming it (lib/env.c, sssp_env.h)
TUCCOMPI_CH_DENSE=dense expect_error 1 "TUCCOMPI_CH_DENSE='dense' is not a number" --gen grid:8x8 --engine phast --sources 0-9 --ncpu 1
TUCCOMPI_SSSP_KERNELS=fast expect_error 1 "TUCCOMPI_SSSP_KERNELS='fast' is not one of paper or fused" --gen random:100 --engine crauser --sources 0-9 --ncpu 1
TUCCOMPI_END_LOG=maybe expect_error 1 "TUCCOMPI_END_LOG='maybe' is not on or off" --gen random:100 --sources 0-9 --ncpu 1
TUCCOMPI_TUNE=best expect_error 1 "TUCCOMPI_TUNE='best' is not a tuning mode" --gen random:100 --sources 0-9 --ncpu 1
# on/off words: TUCCOMPI_END_LOG=false is off (it was on: anything but 0 was), =yes on
TUCCOMPI_END_LOG=false "$app" --gen random:100 --sources 0-9 --ncpu 1 -q -o "$tmp/el.csv" >"$tmp/el.out" 2>&1 || fail "TUCCOMPI_END_LOG=false: the run failed"
! grep -q "PARALLEL ms" "$tmp/el.out" || fail "TUCCOMPI_END_LOG=false printed the end log"
TUCCOMPI_END_LOG=yes "$app" --gen random:100 --sources 0-9 --ncpu 1 -q -o "$tmp/el.csv" >"$tmp/el.out" 2>&1 || fail "TUCCOMPI_END_LOG=yes: the run failed"
grep -q "PARALLEL ms" "$tmp/el.out" || fail "TUCCOMPI_END_LOG=yes printed no end log"
rm -f "$tmp/el.csv" "$tmp/el.out"
echo "ok: the environment's bad values refused, on/off words read"
# PHAST on a graph that does not contract: refused at once, not hours of building
expect_error 1 "the graph does not contract (it is not road-like)" --gen rmat:11 --engine phast --sources 0-9 --ncpu 1

# auto on a deep graph (R-MAT with a 200-vertex path hanging off its hub) that does not contract:
# it tries PHAST, which refuses, and falls back to batched, saying why; distances still right
"$tg" gen rmat:11 --seed 1 -o "$tmp/r11.gr" >/dev/null 2>&1 || fail "tuccompi-graph gen rmat:11"
awk 'BEGIN { c = 200 } /^p/ { n = $3; print "p sp", n + c, $4 + 2 * c; next } { print }
	END { p = 1; for (i = 1; i <= c; i++) { v = n + i; print "a", p, v, 1; print "a", v, p, 1; p = v } }' \
	"$tmp/r11.gr" >"$tmp/deep.gr"
"$app" "$tmp/deep.gr" --sources 0-2247 --units cpu --ncpu 2 --verify 10 -o "$tmp/deep.csv" >"$tmp/deep.out" 2>&1 ||
	{ cat "$tmp/deep.out"; fail "auto on a deep graph that does not contract"; }
grep -q "auto: batched (deep graph, but it does not contract: not road-like)" "$tmp/deep.out" ||
	{ cat "$tmp/deep.out"; fail "auto did not say why it left PHAST"; }
echo "ok: PHAST refuses a graph that does not contract; auto falls back to batched and says why"

# Outputs, checked before any work: the bad graph behind them is never read.
bad="$s/tests/data/graphs/bad/nul_in_arc.gr"
expect_fail 1 "-o $tmp/out/nodir/t.csv: folder $tmp/out/nodir does not exist; create it first" "$bad" -o "$tmp/out/nodir/t.csv"
expect_fail 1 "--stats $tmp/out/nodir/u.csv: folder" "$bad" --stats "$tmp/out/nodir/u.csv"
expect_fail 1 "--rows $tmp/out/nodir/r.rows: folder" "$bad" --rows "$tmp/out/nodir/r.rows"
expect_fail 1 "--cache $tmp/out/nodir/c.tgb: folder" "$bad" --cache "$tmp/out/nodir/c.tgb"
expect_fail 1 "--ch-cache $tmp/out/nodir/h.ch: folder" "$bad" --ch-cache "$tmp/out/nodir/h.ch"
mkdir "$tmp/dir"
expect_fail 1 "-o $tmp/dir: is a folder; name a file in it" "$bad" -o "$tmp/dir"
expect_fail 2 "--stats -: standard output is not taken here" "$bad" --stats -
cp "$tmp/g.gr" "$tmp/out/in.gr"
for opt in -o --stats --rows --cache --ch-cache; do
	"$app" "$tmp/out/in.gr" $opt "$tmp/out/in.gr" --sources 0-9 -q >"$tmp/err.out" 2>&1
	rc=$?
	[ $rc = 2 ] || fail "$opt naming the input graph exited $rc: $(cat "$tmp/err.out")"
	grep -q "^tuccompi-apsp: $opt $tmp/out/in.gr is the input $tmp/out/in.gr: writing it would destroy the input" \
		"$tmp/err.out" || fail "$opt naming the input: $(cat "$tmp/err.out")"
	cmp -s "$tmp/out/in.gr" "$tmp/g.gr" || fail "$opt naming the input changed it"
done
rm "$tmp/out/in.gr"
echo "ok: -o, --stats, --rows, --cache, --ch-cache naming the input graph refused, the graph untouched"
expect_fail 2 "-o and --stats both name $tmp/out/./t.csv" "$bad" -o "$tmp/out/t.csv" --stats "$tmp/out/./t.csv"
expect_fail 2 "--rows and --stats both name" "$bad" --rows "$tmp/out/t" --stats "$tmp/out/t"
expect_fail 2 "-o and --ch-cache both name" "$bad" -o "$tmp/out/t" --ch-cache "$tmp/out/t"

# Memory: from the header (a 26-byte file announcing 2^31 vertices), a pipe, a spec.
printf 'p sp 2147483647 1\na 1 2 1\n' >"$tmp/huge.gr"
expect_error 1 "huge.gr:1: the graph (2147483647 vertices, 1 arc) needs 25769803792 bytes to read, more than the limit of 1073741824 (--max-memory); check the counts of this line" \
	"$tmp/huge.gr" --max-memory 1G
printf '%%%%MatrixMarket matrix coordinate pattern general\n2147483647 2147483647 1\n1 2\n' >"$tmp/huge.mtx"
expect_error 1 "huge.mtx:2: the graph (2147483647 vertices, 1 arc) needs" "$tmp/huge.mtx" --max-memory 1G
printf 'p sp 2000000000 1\na 1 2 1\n' >"$tmp/pipe.gr"
expect_fail 1 "<stdin>:1: the graph (2000000000 vertices, 1 arc) needs" - --format gr --max-memory 1G <"$tmp/pipe.gr"
expect_error 1 "--gen random:4294967294: generating it needs about" --gen random:4294967294 --max-memory 1G

# The bad-graph corpus: the reader's message, through the tool.
corpus="$s/tests/data/graphs/bad"
n=0
for f in "$corpus"/*.gr "$corpus"/*.mtx "$corpus"/*.edges "$corpus"/*.el "$corpus"/*.txt "$corpus"/*.csv "$corpus"/*.tsv; do
	[ -f "$f" ] || continue
	exp="${f%.*}.expect"
	grep -q '^option' "$exp" 2>/dev/null && continue # read with other options than the app's
	want=$(grep -m1 '^error ' "$exp" 2>/dev/null | sed 's/^error //')
	[ -n "$want" ] || continue
	expect_error 1 "$want" "$f"
	n=$((n + 1))
done
[ "$n" -gt 0 ] || fail "no bad-graph corpus found in $corpus"
echo "ok: $n corpus files refused with their expected messages"

# ---------------------------------------------------------------- overflow
# A path of 3000 arcs weighing 10^6: distances reach 3 * 10^9.
"$tg" gen grid:1x3000:1000000-1000000 -o "$tmp/long.gr" || fail "gen long.gr"
expect_fail 1 "distances from source 0 reach 2^31" "$tmp/long.gr" --sources 0-0 --rows "$tmp/out/r.rows" -o "$tmp/out/t.csv"
grep -q "scale the weights of the graph file down" "$tmp/err.out" || fail "overflow: $(cat "$tmp/err.out")"
grep -q "mtx-real-scale" "$tmp/err.out" && fail "overflow of a .gr file suggests --mtx-real-scale"
awk 'BEGIN { print "%%MatrixMarket matrix coordinate integer general"; print "3000 3000 2999";
	for (i = 1; i < 3000; i++) print i, i + 1, 1000000 }' >"$tmp/long.mtx"
expect_fail 1 "e.g. --mtx-real-scale 0.01" "$tmp/long.mtx" --sources 0-0 --rows "$tmp/out/r.rows"
expect_fail 1 "generate smaller weights: the W1-W2 field of --gen" --gen grid:1x3000:1000000-1000000 --sources 0-0 \
	--rows "$tmp/out/r.rows"
if have_mpi; then
	expect_fail 1 "reach 2^31" "$tmp/long.gr" --sources 0-3 --ncpu 1 --rows "$tmp/out/r.rows" --policy eq1 # 1 rank
	"$s/tests/mpirun.sh" 2 "$app" "$tmp/long.gr" --sources 0-3 --ncpu 1 --rows "$tmp/out/r.rows" -q >"$tmp/err.out" 2>&1 &&
		fail "2-rank overflow exited 0"
	grep -q "reach 2^31" "$tmp/err.out" || fail "2-rank overflow: $(cat "$tmp/err.out")"
	no_leftovers "2-rank overflow"
	echo "ok: 2 ranks: overflow leaves no rows file"
fi

# ---------------------------------------------------------------- signals
# A run that lasts a few seconds; killed once its rows file is being written. Background jobs
# of a script ignore SIGINT, so it is put back to default for the run.
kill_during_rows() { # SIGNAL STATUS COMMAND...
	sig=$1 want=$2
	shift 2
	python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
		"$@" --rows "$tmp/out/k.rows" -q >"$tmp/kill.out" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 600 ] && ! ls "$tmp/out" | grep -q '^k\.rows'; do
		sleep 0.05
		i=$((i + 1))
	done
	if ! ls "$tmp/out" | grep -q '^k\.rows\.tmp\.'; then
		wait $pid
		[ -e "$tmp/out/k.rows" ] || fail "no rows file appeared: $(cat "$tmp/kill.out")"
		rm -f "$tmp/out/k.rows"
		echo "ok: the run ended before SIG$sig could be sent ($(basename "$1")); not checked"
		return
	fi
	kill -$sig $pid
	wait $pid
	rc=$?
	[ $rc != 0 ] && { [ "$want" = any ] || [ $rc = "$want" ]; } ||
		fail "$* killed by SIG$sig exited $rc, expected $want: $(cat "$tmp/kill.out")"
	sleep 0.5 # mpirun's ranks
	no_leftovers "SIG$sig during a --rows run"
	echo "ok: SIG$sig during a --rows run ($(basename "$1")): no temporary file left"
}
if command -v python3 >/dev/null 2>&1; then
	kill_during_rows TERM 143 "$app" --gen random:10000 --sources 0-2999 --units cpu --ncpu 1 --engine crauser
	kill_during_rows INT 130 "$app" --gen random:10000 --sources 0-2999 --units cpu --ncpu 1 --engine crauser
	if have_mpi; then
		kill_during_rows TERM any "$s/tests/mpirun.sh" 2 "$app" --gen random:10000 --sources 0-2999 --units cpu --ncpu 1 --engine crauser
	fi
fi

# ---------------------------------------------------------------- a cache that cannot be written
# SIGXFSZ ignored and a 200 kB file size limit: writing the cache fails with EFBIG.
(trap '' XFSZ; ulimit -f 200; "$app" "$tmp/g.gr" --cache "$tmp/out/g.tgb" --sources 0-199 -q -o - >"$tmp/f.csv" 2>"$tmp/f.err") ||
	fail "a cache that cannot be written failed the run: $(cat "$tmp/f.err")"
grep -q "^tuccompi-apsp: warning: cache not written: $tmp/out/g.tgb: write error: File too large; the run goes on without it$" \
	"$tmp/f.err" || fail "no warning for a cache that cannot be written: $(cat "$tmp/f.err")"
cmp -s "$tmp/f.csv" "$tmp/a.csv" || fail "the run without its cache gave another table"
no_leftovers "a cache that cannot be written"
"$app" "$tmp/g.gr" --cache "$tmp/out/g.tgb" --sources 0-199 -q -o "$tmp/f.csv" 2>"$tmp/f.err" || fail "run with a cache"
[ -s "$tmp/out/g.tgb" ] && [ ! -s "$tmp/f.err" ] || fail "the cache was not written quietly: $(cat "$tmp/f.err")"
echo "ok: a cache that cannot be written warns, the run goes on"
