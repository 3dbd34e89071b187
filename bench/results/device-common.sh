# Sourced by the device call scripts from the 2026-12-06 series on (the earlier ones, kept as they
# ran, carry their own copies): the bundle's environment and the helpers every call uses.
#   el            seconds since the call began, "[N s]"
#   r NAME CMD..  run CMD (150 s at most), log to $L/NAME.log, print NAME and tuccompi-apsp's rate line
#   t SECS CMD    run a test from the bundle (top_builddir/top_srcdir set), print its exit status and
#                 the last line of its output
#   lat NAME PRE  bench/latency on 2 ranks, its table (each set's per-rank rows included), with PRE (an
#                 env prefix choosing the library or a setting)
#   road_setup    the road-like 1M graph in $d, its hierarchy cached (a warm-up run), and $a: the
#                 arguments of a 65,536-source run with --summary
# Outputs: $L (logs, tarred into $OUT/logs.tgz by finish), $B (the bundle), $APP, $GT.
cd bundle && . ./env.sh && cd ..
B=$PWD/bundle GT=$PWD/bundle/apps/apsp/tuccompi-graph APP=$PWD/bundle/apps/apsp/tuccompi-apsp
export STARPU_SILENT=1
L=/tmp/logs
mkdir -p $L
t0=$(date +%s)
el() { echo "[$(($(date +%s) - t0)) s]"; }
r() {
	local n=$1
	shift
	timeout 150 "$@" >"$L/$n.log" 2>&1 || echo "$n: exit $?"
	printf '%-14s %s\n' "$n" "$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s.*units' "$L/$n.log" | tail -1)"
}
t() {
	local f
	f=$L/test-$(basename "$2" | tr ' /' '__').txt
	env top_builddir="$B" top_srcdir="$B" timeout "$1" $2 >"$f" 2>&1
	echo "$2: exit $? ($(tail -n 1 "$f" | cut -c1-150)) $(el)"
}
lat() {
	local n=$1
	shift
	timeout 120 $B/tests/mpirun.sh 2 "$@" $B/bench/latency --reps 300 2>&1 |
		grep -E '^  (MPI_Barrier|tuccompi_barrier|a set)|^    rank' | sed "s/^/$n /"
}
road_setup() {
	d=/tmp/g
	mkdir -p $d
	$GT gen road:1048576 --seed 1 -o $d/road.tgb >/dev/null
	a=($d/road.tgb --ch-cache $d/road.ch --seed 1 --summary --sources random:65536)
	$APP "${a[@]}" --units cpu --sources random:16 -q >/dev/null 2>&1
}
finish() {
	echo "== done $(el)"
	tar czf "$OUT/logs.tgz" -C /tmp logs
}
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
