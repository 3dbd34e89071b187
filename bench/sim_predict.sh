#!/usr/bin/env bash
# sim_predict.sh OUTDIR: SIMULATED predictions (issue 26, docs/simulation.md) with simulation/run.sh:
# NODES simulated H200 nodes (one rank each, every unit: 12 CPU workers + the GPU, MK 1) on the
# networks NETS, under POLICIES, for the two workloads (random graph with the batched engine, road
# graph with PHAST), homogeneous and HETERO (odd nodes without GPU). Nothing is computed
# (TUCCOMPI_SIM_COMPUTE=0): the graphs are small stand-ins (random:131072 and road:131072, the
# engine's models carry the 1M-vertex graphs' times) and K sources (default 131,072, the stand-ins'
# vertex count). Writes OUTDIR/predict.csv (one line per run) and prints efficiencies:
#   homogeneous:   rate(N) / (N x rate(1 node))
#   heterogeneous: rate(N) / (N/2 x rate(1 node) + N/2 x rate(1 node without GPU))
# SUMMARY_ONLY=1: only the table of an earlier OUTDIR/predict.csv; MARKDOWN=1: also as Markdown, a row
# per workload, network, policy and cluster, a column per number of nodes (docs/simulation.md's table).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: sim_predict.sh OUTDIR}
mkdir -p "$out"
run=$here/simulation/run.sh
K=${K:-131072}
NODES=${NODES:-"2 4 8 16 32 64"}
NETS=${NETS:-"flat100 fat100 eth1g"}
POLICIES=${POLICIES:-"eq1 eq2 ms ms-tail"}
WORKLOADS=${WORKLOADS:-"random:batched road:phast"}
HETEROS=${HETEROS:-"0 1"}
graph_tool=${GRAPHTOOL:-$here/apps/apsp/tuccompi-graph}
real_app=${APP:-$here/apps/apsp/tuccompi-apsp}
csv=$out/predict.csv
[ -s "$csv" ] || echo "workload,net,policy,hetero,nodes,sources,seconds,sssp_per_s,ms_requests_per_s" >"$csv"
rate_of() { grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$1" | tail -1 | awk '{print $3, $5}'; }
# MS master load: the requests every rank but 0 sent, over the run
reqs_of() { grep -oE 'rank [0-9]+: [0-9]+ requests to the MS master' "$1" | awk '{s += $3} END {print s + 0}'; }
one() { # WORKLOAD NET POLICY HETERO NODES [NCUDA]
	local w=$1 net=$2 pol=$3 het=$4 n=$5 g=${1%%:*} e=${1#*:}
	local log=$out/$g-$net-$pol-h$het-n$n${6:+-nogpu}.log
	local a=("$out/$g.tgb" --engine "$e" --units all --mk 1 --policy "$pol" --sources "random:$K" --summary)
	[ "$e" != phast ] || a+=(--ch-cache "$out/$g.ch")
	# the engine's GPU lanes per simulated GPU job (batched 64, PHAST 256), as the real build batches
	local lanes=64
	[ "$e" != phast ] || lanes=256
	timeout "${LIMIT:-600}" env GPU_BATCH=${GPU_BATCH:-$lanes} HETERO=$het ${6:+STARPU_NCUDA=0} "$run" "$n" "$net" "${a[@]}" >"$log" 2>&1
	read -r s r < <(rate_of "$log")
	local q; q=$(reqs_of "$log")
	[ -n "${r:-}" ] || { echo "$w $net $pol h$het n$n: no result (see $log)" >&2; return; }
	echo "$w,$net,$pol,$het${6:+-nogpu},$n,$K,$s,$r,$(awk -v q="$q" -v s="$s" 'BEGIN {printf "%.0f", (s > 0 ? q / s : 0)}')" >>"$csv"
}
[ "${SUMMARY_ONLY:-0}" = 1 ] && WORKLOADS= # just the table of an earlier OUTDIR/predict.csv
for w in $WORKLOADS; do
	g=${w%%:*}
	[ -s "$out/$g.tgb" ] || "$graph_tool" gen "$g:131072" --seed 1 -o "$out/$g.tgb" >/dev/null
	if [ "${w#*:}" = phast ] && [ ! -s "$out/$g.ch" ]; then
		"$real_app" "$out/$g.tgb" --engine phast --ch-cache "$out/$g.ch" --units cpu --sources random:16 -q
	fi
	for pol in $POLICIES; do
		one "$w" flat100 "$pol" 0 1
		one "$w" flat100 "$pol" 0 1 nogpu
		for net in $NETS; do
			for het in $HETEROS; do
				for n in $NODES; do one "$w" "$net" "$pol" "$het" "$n"; done
			done
		done
	done
done
echo "SIMULATED (models: ${MODELS:-simulation/models/h200 or h200-derived}); $csv"
awk -F, 'NR > 1 {
	key = $1 FS $3
	if ($5 == 1 && $4 == "0") one[key] = $8
	else if ($5 == 1 && $4 == "0-nogpu") cpu[key] = $8
	else row[NR] = $0
}
END {
	printf "%-16s %-8s %-8s %-4s %5s %10s %12s %6s %10s\n", "workload", "net", "policy", "het", "nodes", "seconds", "SSSP/s", "eff", "MS req/s"
	for (i in row) {
		split(row[i], f, FS); key = f[1] FS f[3]
		ideal = f[4] == "1" ? f[5] / 2 * (one[key] + cpu[key]) : f[5] * one[key]
		printf "%-16s %-8s %-8s %-4s %5d %10.3f %12.1f %6.3f %10s\n", f[1], f[2], f[3], f[4], f[5], f[7], f[8], (ideal > 0 ? f[8] / ideal : 0), f[9]
	}
}' "$csv" | sort -k1,1 -k2,2 -k3,3 -k4,4 -k5,5n | tee "$out/summary.txt"
[ "${MARKDOWN:-0}" = 1 ] || exit 0
# the Markdown table: the summary's lines pivoted by number of nodes
rows() { awk '$1 ~ /:/ && $5 ~ /^[0-9]+$/' "$out/summary.txt"; }
nodes=$(rows | awk '{print $5}' | sort -nu | tr '\n' ' ')
rows | awk -v nodes="$nodes" '
	BEGIN { nn = split(nodes, N, " ") }
	{
		key = $1 " | " $2 " | " $3 " | " ($4 == "1" ? "half without GPU" : "homogeneous")
		if (!(key in seen)) { seen[key] = 1; order[++k] = key }
		eff[key, $5] = $8; rate[key, $5] = $7; req[key, $5] = $9
	}
	END {
		printf "| workload | network | policy | cluster |"
		for (i = 1; i <= nn; i++) printf " %s%s |", N[i], i == nn ? " nodes" : ""
		printf " SSSP/s at %s | MS requests/s at %s |\n|---|---|---|---|", N[nn], N[nn]
		for (i = 1; i <= nn + 2; i++) printf "---|"
		printf "\n"
		for (j = 1; j <= k; j++) {
			key = order[j]; printf "| %s |", key
			for (i = 1; i <= nn; i++) printf " %s |", ((key, N[i]) in eff) ? eff[key, N[i]] : ""
			r = rate[key, N[nn]]; q = req[key, N[nn]]
			printf " %s | %s |\n", r == "" ? "" : sprintf("%.0f", r), (q == "" || q == 0) ? "-" : q
		}
	}'
