# gpu-lib.sh: what the scripts/gpu-*.sh measurement scripts share; source it with the name of the
# script's results folder: `. "$(dirname "$0")/gpu-lib.sh" NAME`. Sets here (the repository), B (the
# runtime bundle, $BUNDLE or ./bundle), out ($OUT or ./gpu-out), o ($out/NAME, created), APP and GT
# (tuccompi-apsp, tuccompi-graph of the bundle); sources the bundle's env.sh; keeps StarPU quiet and
# the tuning database in $o. Functions: step TEXT (a heading), rate LOG (the SSSP/s of a run's final
# report line, not of its progress line), run NAME COMMAND... (COMMAND's output in $o/NAME.log, its
# rate appended to $o/rates.txt and shown; $RUN_LIMIT seconds at most, default 300).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B=${BUNDLE:-$here/bundle}
out=${OUT:-$here/gpu-out}
o=$out/${1:?gpu-lib.sh: give the name of the results folder}
mkdir -p "$o"
. "$B/env.sh"
export STARPU_SILENT=1 TUCCOMPI_TUNE_DB=$o/tune.db
APP=$B/apps/apsp/tuccompi-apsp
GT=$B/apps/apsp/tuccompi-graph
step() { echo; echo "=== $* ($(date +%T))"; }
rate() { grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$1" | tail -1 | awk '{print $5}'; }
run() {
	local name=$1
	shift
	timeout "${RUN_LIMIT:-300}" "$@" >"$o/$name.log" 2>&1 || echo "$name: exit $?"
	printf '%-28s %10s SSSP/s\n' "$name" "$(rate "$o/$name.log")" | tee -a "$o/rates.txt"
}
