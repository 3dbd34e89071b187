#!/bin/sh
# tests/fuzz/make-corpus.sh: (re)make the named seeds of fuzz_graph (tests/fuzz/corpus) from the
# graph corpus of tests/data/graphs and a few small binary graphs. Each seed is a mode byte
# (see fuzz_graph.c) followed by a file. Needs a built apps/apsp/tuccompi-graph. The files named
# by their SHA-1 are inputs the fuzzer found that add coverage, kept with
#   tests/fuzz/out/fuzz_graph -merge=1 tests/fuzz/corpus tests/fuzz/out/corpus
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tg=${TG:-$top/apps/apsp/tuccompi-graph}
c="$here/corpus"
mkdir -p "$c"
seed() { # MODE NAME FILE
	{ printf "\\$(printf '%03o' "$1")"; cat "$3"; } >"$c/$2"
}
for f in "$top"/tests/data/graphs/good/* "$top"/tests/data/graphs/bad/*; do
	base=$(basename "$f")
	case "$f" in
	*.gr) seed 0 "gr-$base" "$f"; seed 4 "gr-pipe-$base" "$f" ;;
	*.mtx) seed 1 "mtx-$base" "$f"; seed 17 "mtx-scaled-$base" "$f"; seed 65 "mtx-round-$base" "$f" ;;
	*.co) seed 3 "co-$base" "$f" ;;
	*.edges | *.el | *.txt | *.csv | *.tsv) seed 11 "el-$base" "$f"; seed 15 "el-pipe-$base" "$f"; seed 27 "el-scaled-$base" "$f" ;;
	*.graph) seed 9 "metis-$base" "$f"; seed 13 "metis-pipe-$base" "$f" ;;
	esac
done
for f in basic dups_loops unreachable; do
	seed 128 "gr-cached-$f" "$top/tests/data/graphs/good/$f.gr"
done
seed 193 "mtx-cached-symmetric_real" "$top/tests/data/graphs/good/symmetric_real.mtx"
seed 139 "el-cached-el_weighted" "$top/tests/data/graphs/good/el_weighted.el"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in random:20:0-3:0-9 rmat:4:2 grid:2x3:1-5; do
	"$tg" gen "$spec" --seed 3 -o "$tmp/g.tgb"
	name=$(echo "$spec" | tr ':' '_')
	seed 2 "tgb-$name" "$tmp/g.tgb"
	seed 10 "tgb-fixsum-$name" "$tmp/g.tgb"
done
"$tg" convert "$top/tests/data/graphs/good/no_arcs.gr" "$tmp/e.tgb"
seed 10 "tgb-fixsum-no_arcs" "$tmp/e.tgb"
# gzipped text (the readers tell it by gzip's magic, whatever the name): one member, two, a pipe
g="$top/tests/data/graphs/good"
gzip -c "$g/basic.gr" >"$tmp/z"
seed 0 "gz-gr-basic" "$tmp/z"
seed 4 "gz-gr-pipe-basic" "$tmp/z"
gzip -c "$g/unreachable.gr" >>"$tmp/z"
seed 0 "gz-gr-two-members" "$tmp/z"
gzip -c "$g/general_int.mtx" >"$tmp/z"
seed 1 "gz-mtx-general_int" "$tmp/z"
gzip -c "$g/el_weighted.el" >"$tmp/z"
seed 11 "gz-el-el_weighted" "$tmp/z"
gzip -c "$g/basic_coords.co" >"$tmp/z"
seed 3 "gz-co-basic_coords" "$tmp/z"
echo "make-corpus.sh: $(ls "$c" | wc -l) seeds in $c"
