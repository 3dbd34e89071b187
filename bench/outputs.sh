#!/usr/bin/env bash
# bench/outputs.sh [OUTDIR]: what each output of tuccompi-apsp costs a run of many sources (issue 55,
# item 2: every source at the plain rate). For each output option, the run with it against a plain run
# of the same graph, sources and units, in one call, alternating plain and with-output in REPS rounds
# (medians). Two ratios per option, with-output over plain:
#   rate  the tool's own rate (SSSP/s of its report: the task set alone, tuccompi_parallel to the
#         results on rank 0), so what an output costs the engines and the runtime;
#   wall  the whole command's time (start-up, reading the graph, the run, writing the output, exit):
#         the formatting and writing of the output as well.
# The options (OPTIONS, default "o harmonic matrix matrix-npy rows betweenness"):
#   o            -o FILE.csv, the per-source table (it asks the engines for the harmonic sums)
#   harmonic     --verify 1: the harmonic sums without a table (what -o costs the engines alone)
#   matrix       --targets TARGETS --matrix FILE.csv;  matrix-npy: the same as FILE.npy
#   rows         --rows FILE.npy of ROW_SOURCES (a full row per source: k x n x 8 bytes)
#   pred         --pred FILE.npy of ROW_SOURCES
#   betweenness  --betweenness FILE.csv of BC_SOURCES (another engine: brandes; against a plain run)
# Environment: APP (tuccompi-apsp), GRAPHTOOL (tuccompi-graph), GRAPH (a graph file or a --gen SPEC,
# default road:65536; a SPEC is generated once into OUTDIR), SOURCES (default all), TARGETS (default
# random:1000), ROW_SOURCES (default first:1024), BC_SOURCES (default random:1024), UNITS (default
# all), ENGINE (default auto), REPS (default 3), ARGS (more options for every run, e.g. "--ncpu 8"),
# CH (the contraction hierarchy's cache, default OUTDIR/GRAPH.ch: built once, it serves every PHAST run). Writes OUTDIR/outputs.csv
# (a row per option: the medians and the ratios) and prints the table.
set -u
out=${1:-.}
mkdir -p "$out"
APP=${APP:-tuccompi-apsp}
GRAPHTOOL=${GRAPHTOOL:-tuccompi-graph}
GRAPH=${GRAPH:-road:65536}
SOURCES=${SOURCES:-all}
TARGETS=${TARGETS:-random:1000}
ROW_SOURCES=${ROW_SOURCES:-first:1024}
BC_SOURCES=${BC_SOURCES:-random:1024}
UNITS=${UNITS:-all}
ENGINE=${ENGINE:-auto}
OPTIONS=${OPTIONS:-o harmonic matrix matrix-npy rows betweenness}
reps=${REPS:-3}
case $reps in '' | *[!0-9]* | 0) echo "outputs.sh: REPS must be a positive integer, not '$reps'" >&2; exit 2 ;; esac
export STARPU_SILENT=1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/outputs.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ -f "$GRAPH" ]; then
	file=$GRAPH
else
	file=$out/$(echo "$GRAPH" | tr ':' '-').tgb
	[ -f "$file" ] || "$GRAPHTOOL" gen "$GRAPH" --seed 1 -o "$file" >/dev/null || { echo "outputs.sh: cannot generate $GRAPH" >&2; exit 1; }
fi
# shellcheck disable=SC2206
base=("$file" --ch-cache "${CH:-$out/$(basename "$file").ch}" --engine "$ENGINE" --units "$UNITS" --seed 1 ${ARGS:-})
"$APP" "${base[@]}" --sources random:64 -q >/dev/null || { echo "outputs.sh: $APP cannot run on $file" >&2; exit 1; }

# what option NAME adds to a run, and of which sources
sources_of() {
	case $1 in rows | pred) echo "$ROW_SOURCES" ;; betweenness) echo "$BC_SOURCES" ;; *) echo "$SOURCES" ;; esac
}
args_of() {
	case $1 in
	o) echo "-o $tmp/t.csv" ;;
	harmonic) echo "--verify 1" ;;
	matrix) echo "--targets $TARGETS --matrix $tmp/m.csv" ;;
	matrix-npy) echo "--targets $TARGETS --matrix $tmp/m.npy" ;;
	rows) echo "--rows $tmp/r.npy" ;;
	pred) echo "--pred $tmp/p.npy" ;;
	betweenness) echo "--betweenness $tmp/b.csv" ;;
	*) echo "outputs.sh: unknown option '$1' (see OPTIONS at the top of bench/outputs.sh)" >&2; return 1 ;;
	esac
}

# run NAME SOURCES ARGS...: one run; appends "NAME rate wall" to $tmp/runs
run() {
	local name=$1 src=$2 t0 t1 rate
	shift 2
	t0=$(date +%s.%N)
	"$APP" "${base[@]}" --sources "$src" "$@" >"$tmp/run.out" 2>"$tmp/run.err" || {
		echo "outputs.sh: $name failed: $(tail -n 1 "$tmp/run.err")" >&2
		return 1
	}
	t1=$(date +%s.%N)
	rate=$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$tmp/run.err" | tail -1 | awk '{print $5}')
	echo "$name ${rate:-0} $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", b - a}')" >>"$tmp/runs"
	rm -f "$tmp"/[tmrpb].*
}

: >"$tmp/runs"
for opt in $OPTIONS; do args_of "$opt" >/dev/null || exit 2; done
for rep in $(seq "$reps"); do
	done_plain=" "
	for opt in $OPTIONS; do
		src=$(sources_of "$opt")
		# shellcheck disable=SC2046
		if [ $((rep % 2)) = 1 ]; then # alternate the order: neither run always goes first
			case $done_plain in *" $src "*) ;; *) run "plain:$src" "$src" && done_plain="$done_plain$src " ;; esac
			run "$opt" "$src" $(args_of "$opt")
		else
			run "$opt" "$src" $(args_of "$opt")
			case $done_plain in *" $src "*) ;; *) run "plain:$src" "$src" && done_plain="$done_plain$src " ;; esac
		fi
	done
done

# medians per name, then a row per option against the plain run of its sources
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
med() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$tmp/runs" | median; }
echo "option,sources,plain_sssp_s,with_sssp_s,rate_ratio,plain_wall_s,with_wall_s,wall_ratio,reps" >"$out/outputs.csv"
printf '%-12s %-14s %12s %12s %6s %9s %9s %6s\n' option sources "plain SSSP/s" "with SSSP/s" rate "plain s" "with s" wall
for opt in $OPTIONS; do
	src=$(sources_of "$opt")
	pr=$(med "plain:$src" 2) pw=$(med "plain:$src" 3) wr=$(med "$opt" 2) ww=$(med "$opt" 3)
	rr=$(awk -v a="$wr" -v b="$pr" 'BEGIN {printf "%.3f", (b > 0 ? a / b : 0)}')
	wl=$(awk -v a="$pw" -v b="$ww" 'BEGIN {printf "%.3f", (b > 0 ? a / b : 0)}')
	echo "$opt,$src,$pr,$wr,$rr,$pw,$ww,$wl,$reps" >>"$out/outputs.csv"
	printf '%-12s %-14s %12.1f %12.1f %6s %9.2f %9.2f %6s\n' "$opt" "$src" "$pr" "$wr" "$rr" "$pw" "$ww" "$wl"
done
echo "(rate: with-output SSSP/s over plain; wall: plain time over with-output time; 1.000 = free; $reps rounds, medians)"
