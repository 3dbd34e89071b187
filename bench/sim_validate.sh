#!/usr/bin/env bash
# sim_validate.sh OUTDIR: the validation table of docs/simulation.md (issue 26): every run measured on
# the H200 node by `scripts/gpu-node.sh calibrate` (the models' measured.txt: meas-GRAPH-UNITS-POLICY-REP
# and its SSSP/s) simulated with those models, same engine, policy, MK (1) and number of sources (read
# from the run's log when OUTDIR/logs/ holds it, else K_R1M / K_ROAD / K_EQ_R1M / K_EQ_ROAD as the
# calibrate step's defaults of the 2026-12-03 recording: 8192 / 32768 / 416 / 16384). Configurations:
#   gpu   the GPU alone: one simulated node, no CPU worker
#   all   every unit of one rank: one node, the CPU workers the run had (its log's "N CPU + 1 GPU
#         units"; without a log NCPU_ALL, default 15: the node's, one rank) + the GPU
#   all2  every unit on 2 ranks of the node: 2 simulated nodes, the second without a GPU (the node's
#         second rank had none), half the run's CPU workers each (without a log NCPU_ALL2, default
#         14: 7 + 8 on the node with a core for the MPI thread -> 7 each)
# The simulated runs have simulation/run.sh's MSG_US (StarPU-MPI's time per message).
# Nothing is computed (TUCCOMPI_SIM_COMPUTE=0): stand-in graphs of 131,072 vertices (the models carry
# the 1M graphs' times). Writes OUTDIR/validate.csv and prints a Markdown table: measured, simulated,
# error; the stand-ins and logs go to CACHE (default OUTDIR/cache). Environment: MODELS (default
# simulation/models/h200), MEASURED (default MODELS/measured.txt: lines "meas-GRAPH-CONFIG-POLICY-REP
# RATE", GRAPH r1m or road1m), GRAPHTOOL, APP (the real build's, for the stand-ins and PHAST's
# hierarchy). TABLE_ONLY=1: only the table of an earlier OUTDIR/validate.csv. MK_UNITS=K (with
# MKMODELS, a models folder calibrated at MK K): the measured runs were at MK K, simulated with the
# GPU as K simulated GPUs (simulation/mk_units.py; engine "ENGINE-mkK" in the CSV).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: sim_validate.sh OUTDIR}
mkdir -p "$out"
csv=$out/validate.csv
table() {
	echo "| run | sources | measured | simulated | error |"
	echo "|---|---|---|---|---|"
	awk -F, 'NR > 1 {
		c = $4 == "gpu" ? "GPU alone" : ($4 == "all" ? "every unit" : "every unit on 2 ranks")
		printf "| %s 1M, %s, %s, %s | %\047d | %\047.1f | %\047.1f | %s |\n", $2 == "random" ? "random" : "road-like", $3, c, $5, $6, $7, $8, $9
	}' "$csv"
}
if [ "${TABLE_ONLY:-0}" = 1 ]; then
	[ -s "$csv" ] || { echo "sim_validate.sh: no $csv" >&2; exit 1; }
	table
	exit 0
fi
models=${MODELS:-$here/simulation/models/h200}
meas=${MEASURED:-$models/measured.txt}
[ -s "$meas" ] || { echo "sim_validate.sh: no $meas (install a calibration: simulation/README.md)" >&2; exit 1; }
graph_tool=${GRAPHTOOL:-$here/apps/apsp/tuccompi-graph}
real_app=${APP:-$here/apps/apsp/tuccompi-apsp}
cache=${CACHE:-$out/cache} # the stand-ins and the logs (not records)
mkdir -p "$cache"
for g in random road; do
	[ -s "$cache/$g.tgb" ] || "$graph_tool" gen "$g:131072" --seed 1 -o "$cache/$g.tgb" >/dev/null || exit 1
done
[ -s "$cache/road.ch" ] ||
	"$real_app" "$cache/road.tgb" --engine phast --ch-cache "$cache/road.ch" --units cpu --sources random:16 -q || exit 1
mk=${MK_UNITS:-1}
if [ "$mk" != 1 ]; then
	[ -d "$cache/models-mk$mk" ] ||
		python3 "$here/simulation/mk_units.py" "$models" "$cache/models-mk$mk" "$mk" ${MKMODELS:+"$MKMODELS"} >&2 || exit 1
	models_run=$cache/models-mk$mk
else
	models_run=$models
fi
echo "run,graph,engine,config,policy,sources,measured,simulated,error" >"$csv"
while read -r name rate _; do
	# meas-GRAPH-CONFIG-POLICY-REP, where POLICY may hold a dash (ms-tail)
	IFS=- read -r _ graph config _ <<<"$name"
	policy=${name#meas-"$graph"-"$config"-}
	policy=${policy%-*}
	case $graph in
	r1m) g=random e=batched k=${K_R1M:-8192} ;;
	road1m) g=road e=phast k=${K_ROAD:-32768} ;;
	*) continue ;;
	esac
	case $policy in eq1 | eq2) [ "$g" = random ] && k=${K_EQ_R1M:-416} || k=${K_EQ_ROAD:-16384} ;; esac
	# the run's own source count and CPU workers where its log came back
	ncpu=
	if [ -s "$out/logs/$name.log" ]; then
		k=$(grep -oE '[0-9]+ SSSP in [0-9.]+ s:' "$out/logs/$name.log" | tail -1 | awk '{print $1}')
		ncpu=$(grep -oE '[0-9]+ CPU \+ [0-9]+ GPU units' "$out/logs/$name.log" | tail -1 | awk '{print $1}')
	fi
	a=("$cache/$g.tgb" --engine "$e" --units all --mk 1 --policy "$policy" --sources "random:$k" --seed 1 --summary)
	[ "$e" != phast ] || a+=(--ch-cache "$cache/road.ch")
	case $config in
	gpu) env=(NCPU=0) n=1 ;;
	all) env=(NCPU="${ncpu:-${NCPU_ALL:-15}}") n=1 ;;
	all2) env=(NCPU="$(((${ncpu:-${NCPU_ALL2:-14}}) / 2))" HETERO=1) n=2 ;;
	*) continue ;;
	esac
	[ "$mk" = 1 ] || { env+=(STARPU_NCUDA="$mk"); e=$e-mk$mk; }
	log=$cache/sim-$name-mk$mk.log
	env MODELS="$models_run" "${env[@]}" timeout "${LIMIT:-600}" "$here/simulation/run.sh" "$n" flat100 "${a[@]}" >"$log" 2>&1
	sim=$(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$log" | tail -1 | awk '{print $5}')
	[ -n "$sim" ] || { echo "$name: no simulated rate (see $log)" >&2; continue; }
	err=$(awk -v m="$rate" -v s="$sim" 'BEGIN {printf "%+.1f%%", 100 * (s - m) / m}')
	echo "$name,$g,$e,$config,$policy,$k,$rate,$sim,$err" >>"$csv"
done <"$meas"
table
echo "SIMULATED column: models $models ($(head -2 "$models/node.txt" | tr '\n' ' ')); $csv"
