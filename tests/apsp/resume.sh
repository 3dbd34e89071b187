#!/bin/sh
# Resuming a killed APSP run (--journal, --resume): kill -9 in the middle of a 1-rank and of a
# 2-rank run, then --resume gives byte-identical -o and --rows to an uninterrupted run and says
# how many sources came from the journal; the journal and the partial rows are gone afterwards;
# a journal of another run (other sources) is refused with a clear message.
set -u
b=${top_builddir:-.}
s=${top_srcdir:-.}
app="$b/apps/apsp/tuccompi-apsp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
base="--gen random:30000 --seed 4 --sources 0-1499 --units cpu --ncpu 2 --engine crauser"
args="$base -q"

"$app" $args -o "$tmp/ref.csv" --rows "$tmp/ref.rows" || fail "reference run"

# run_and_kill LAUNCHER... : start a journaled run, kill -9 it once about a third is done
run_and_kill() {
	rm -f "$tmp/out.csv" "$tmp/out.rows"
	"$@" "$app" $args --journal "$tmp/j" -o "$tmp/out.csv" --rows "$tmp/out.rows" &
	pid=$!
	for _ in $(seq 1 200); do
		# records of finished sources in the journal(s)
		n=$(cat "$tmp"/j.rank-* 2>/dev/null | wc -c)
		[ "$n" -gt 20000 ] && break
		sleep 0.05
	done
	kill -9 $pid 2>/dev/null
	pkill -9 -f "journal $tmp/j" 2>/dev/null
	wait $pid 2>/dev/null
	[ -e "$tmp/out.csv" ] && fail "a killed run left an output table"
	[ -e "$tmp/out.rows.partial" ] || fail "the killed run left no partial rows for --resume"
}

check_resumed() { # LOG
	cmp -s "$tmp/ref.csv" "$tmp/out.csv" || fail "resumed table differs from the uninterrupted run's"
	cmp -s "$tmp/ref.rows" "$tmp/out.rows" || fail "resumed rows differ from the uninterrupted run's"
	grep -q "resumed: [1-9][0-9]* source(s) from the journal" "$1" || { cat "$1"; fail "no count of resumed sources"; }
	ls "$tmp"/j.rank-* >/dev/null 2>&1 && fail "the journal is still there after a complete run"
	[ -e "$tmp/out.rows.partial" ] && fail "the partial rows are still there"
	echo "ok: $(grep -o 'resumed: [0-9]* source(s)' "$1")"
}

run_and_kill
"$app" $base --journal "$tmp/j" --resume -o "$tmp/out.csv" --rows "$tmp/out.rows" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; fail "--resume after kill -9"; }
check_resumed "$tmp/log"

if [ -x "$b/tests/core/mpi_exchange" ] && [ -n "${MPIEXEC:-}" ]; then
	run_and_kill "$s/tests/mpirun.sh" 2
	"$s/tests/mpirun.sh" 2 "$app" $base --journal "$tmp/j" --resume -o "$tmp/out.csv" --rows "$tmp/out.rows" \
		>"$tmp/log2" 2>&1 || { cat "$tmp/log2"; fail "--resume on 2 ranks after kill -9"; }
	check_resumed "$tmp/log2"
fi

# another run's journal
run_and_kill
out=$("$app" --gen random:30000 --seed 4 --sources 0-1498 --units cpu --ncpu 2 --engine crauser -q \
	--journal "$tmp/j" --resume -o "$tmp/x.csv" 2>&1) && fail "a journal of other sources was accepted"
echo "$out" | grep -q "belongs to another run" || { echo "$out"; fail "unclear message for a foreign journal"; }
[ -e "$tmp/x.csv" ] && fail "output written after refusing the journal"
echo "ok: a journal of another run is refused: $out"
