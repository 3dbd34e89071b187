#!/bin/sh
# tuccompi-apsp's inputs and outputs of issue 22, each on 1 rank and, under mpirun, on 2 and 4
# ranks (byte-identical outputs), on the CPU, and with the journal (a run killed by kill -9,
# then --resume, gives the same bytes as a run without a journal):
#  - --undirected, for a file and for --gen: the same table and rows as the graph written with
#    both directions by tuccompi-graph convert --undirected; a symmetric graph is unchanged;
#    refused against --max-memory before the new CSR is allocated.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tg="$b/apps/apsp/tuccompi-graph"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
have_mpi() { [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; }
same() { # FILE REF WHAT
	cmp -s "$1" "$2" || fail "$3: $1 differs from $2"
}

# on_ranks REF_PREFIX ARGS...: the run on 2 and 4 ranks writes the same -o and --rows as REF_PREFIX.csv/.rows
on_ranks() {
	ref=$1
	shift
	have_mpi || return 0
	for n in 2 4; do
		"$s/tests/mpirun.sh" $n "$app" "$@" --ncpu 1 -q -o "$tmp/m.csv" --rows "$tmp/m.rows" ||
			fail "$n ranks: $*"
		same "$tmp/m.csv" "$ref.csv" "$n ranks: $*"
		same "$tmp/m.rows" "$ref.rows" "$n ranks: $*"
	done
}

# tree PID: PID and every process below it (collected before any is killed)
tree() {
	for c in $(pgrep -P "$1" 2>/dev/null); do tree "$c"; done
	echo "$1"
}

# journaled ARGS...: a run with --journal killed by kill -9 part-way, then --resume, writes the
# same -o and --rows bytes as the run without a journal (1 rank; and 2 ranks under mpirun).
# ARGS must make a run of a second or more, so that the kill lands in the middle.
journaled() {
	"$app" "$@" --units cpu --ncpu 1 -q -o "$tmp/jref.csv" --rows "$tmp/jref.rows" || fail "reference of $*"
	for launcher in "" "$s/tests/mpirun.sh 2"; do
		[ -n "$launcher" ] && ! have_mpi && continue
		rm -f "$tmp"/j.rank-* "$tmp/k.csv" "$tmp/k.rows" "$tmp/k.rows.partial"
		$launcher "$app" "$@" --units cpu --ncpu 1 -q --journal "$tmp/j" -o "$tmp/k.csv" --rows "$tmp/k.rows" &
		pid=$!
		for _ in $(seq 1 400); do
			[ "$(cat "$tmp"/j.rank-* 2>/dev/null | wc -c)" -gt 2000 ] && break
			sleep 0.02
		done
		pids=$(tree $pid)
		# shellcheck disable=SC2086
		kill -9 $pids 2>/dev/null
		wait $pid 2>/dev/null
		if [ -e "$tmp/k.csv" ]; then
			echo "ok: the journaled run ended before kill -9 (${launcher:+$launcher }$*); not checked"
			continue
		fi
		$launcher "$app" "$@" --units cpu --ncpu 1 -q --journal "$tmp/j" --resume -o "$tmp/k.csv" --rows "$tmp/k.rows" \
			>"$tmp/k.log" 2>&1 || { cat "$tmp/k.log"; fail "--resume ${launcher:+($launcher) }$*"; }
		same "$tmp/k.csv" "$tmp/jref.csv" "--resume ${launcher:+($launcher) }$*"
		same "$tmp/k.rows" "$tmp/jref.rows" "--resume ${launcher:+($launcher) }$*"
	done
}

# ---------------------------------------------------------------- --undirected
"$tg" gen random:4000:1-4:1-30 --seed 3 -o "$tmp/d.gr" || fail "gen"
"$tg" convert --undirected "$tmp/d.gr" "$tmp/u.gr" || fail "convert --undirected"
[ "$(grep -c '^a ' "$tmp/u.gr")" -gt "$(grep -c '^a ' "$tmp/d.gr")" ] || fail "convert --undirected added no arc"
src="--sources 0-299"
"$app" "$tmp/u.gr" $src -q -o "$tmp/u.csv" --rows "$tmp/u.rows" || fail "run on the undirected file"
"$app" "$tmp/d.gr" --undirected $src -q -o "$tmp/du.csv" --rows "$tmp/du.rows" 2>"$tmp/err" || fail "--undirected: $(cat "$tmp/err")"
same "$tmp/du.csv" "$tmp/u.csv" "--undirected"
same "$tmp/du.rows" "$tmp/u.rows" "--undirected"
"$app" "$tmp/d.gr" $src -q -o "$tmp/d.csv" || fail "directed run"
cmp -s "$tmp/d.csv" "$tmp/u.csv" && fail "--undirected changed nothing on a directed graph"
"$app" --gen random:4000:1-4:1-30 --seed 3 --undirected $src -q -o "$tmp/gu.csv" --rows "$tmp/gu.rows" || fail "--gen --undirected"
same "$tmp/gu.csv" "$tmp/u.csv" "--gen --undirected"
same "$tmp/gu.rows" "$tmp/u.rows" "--gen --undirected"
"$tg" convert "$tmp/d.gr" "$tmp/d.csv" || fail "convert to an edge list"
"$app" "$tmp/d.csv" --undirected $src -q -o "$tmp/eu.csv" || fail "--undirected on an edge list"
same "$tmp/eu.csv" "$tmp/u.csv" "--undirected on an edge list"
"$app" "$tmp/d.gr" --undirected $src -o "$tmp/x.csv" 2>"$tmp/err" || fail "--undirected, not quiet"
grep -q "^graph: 4000 vertices, [0-9]* arcs (undirected: both directions of each)" "$tmp/err" ||
	fail "the report does not say the graph is undirected: $(cat "$tmp/err")"
# a symmetric graph stays as it is
"$app" --gen grid:40x50 $src -q -o "$tmp/g1.csv" || fail "grid"
"$app" --gen grid:40x50 --undirected $src -q -o "$tmp/g2.csv" || fail "grid --undirected"
same "$tmp/g2.csv" "$tmp/g1.csv" "--undirected on a symmetric graph"
# memory: refused before the new CSR is allocated
"$app" "$tmp/d.gr" --undirected $src --max-memory 300K -q -o "$tmp/never.csv" >"$tmp/err" 2>&1 && fail "--undirected over --max-memory ran"
grep -q "^tuccompi-apsp: --undirected: the graph with both directions of every arc needs about [0-9]* bytes, more than the limit of 307200 (--max-memory); use a smaller graph$" \
	"$tmp/err" || fail "--undirected over --max-memory: $(cat "$tmp/err")"
[ -e "$tmp/never.csv" ] && fail "--undirected over --max-memory left an output"
on_ranks "$tmp/u" "$tmp/d.gr" --undirected $src
journaled --gen random:30000 --seed 4 --undirected --sources 0-999 --engine crauser
echo "ok: --undirected (file, edge list, --gen; symmetric graphs unchanged; memory checked)$(have_mpi && echo '; 2 and 4 ranks'); resumed after kill -9"

exit 0
