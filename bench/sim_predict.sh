#!/usr/bin/env bash
# sim_predict.sh OUTDIR: the SIMULATED predictions of docs/simulation.md (issue 56) with
# simulation/run.sh: whole-graph sets on NODES simulated H200 nodes (one rank each, every unit: 12
# CPU workers + the GPU, MK 1), on the networks NETS, homogeneous and with half the nodes without a
# GPU (HETEROS), under POLICIES. Workloads (WORKLOADS, name:engine:models:sources):
#   road4m:phast    road-like 4M (4,194,304 vertices), every source: PHAST's models of road-like 1M
#                   times 4 (simulation/scale_models.py: DERIVED)
#   road4m-mk4:phast the same at PHAST's MK 4 on the GPU (as the node runs it): the GPU as 4
#                   simulated GPUs with the MK 4 job time (simulation/mk_units.py, models/h200-mk4)
#   random1m:batched random 1M (1,049,088 vertices), every source: the calibrated models
# Nothing is computed (TUCCOMPI_SIM_COMPUTE=0): the graphs are stand-ins of 131,072 vertices whose
# vertices the sources repeat (the models carry the real graphs' times). Each run has
# TUCCOMPI_END_LOG=1: the MS round trips of every rank (least, mean, median) give the time requests
# queued at their masters. Writes OUTDIR/predict.csv (one line per run, appended: a run already
# there is not run again) and prints the table of docs/simulation.md (Markdown; MARKDOWN=1, which
# older commands give, changes nothing); the logs and the stand-ins go to CACHE (default
# OUTDIR/cache; not records). Efficiency against one node under the same policy: homogeneous
# rate(N) / (N x rate(1)); half without GPU rate(N) / (N/2 x (rate(1) + rate(1 without GPU))). The
# one-node rates are measured on the same sets (without GPU on K_NOGPU sources: its rate is steady,
# its run would be hours long).
# Environment: NODES ("2 4 8 16 32 64 128 256"), NETS ("flat100 eth1g"), HETEROS ("0 1"), POLICIES
# ("ms-tail"), WORKLOADS, K_NOGPU (131072), LIMIT (seconds per run, 1800), MSG_US and MSG_BUSY_US
# (run.sh's; a row per MSG_BUSY_US), SUMMARY_ONLY=1 (the table of an earlier predict.csv),
# GRAPHTOOL, APP (the real build's, for the stand-ins and PHAST's hierarchy).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: sim_predict.sh OUTDIR}
mkdir -p "$out"
cache=${CACHE:-$out/cache}
mkdir -p "$cache"
run=$here/simulation/run.sh
NODES=${NODES:-"2 4 8 16 32 64 128 256"}
NETS=${NETS:-"flat100 eth1g"}
HETEROS=${HETEROS:-"0 1"}
POLICIES=${POLICIES:-"ms-tail"}
WORKLOADS=${WORKLOADS:-"road4m:phast:road4m:4194304 road4m-mk4:phast:road4m-mk4:4194304 random1m:batched:h200:1049088"}
K_NOGPU=${K_NOGPU:-131072}
graph_tool=${GRAPHTOOL:-$here/apps/apsp/tuccompi-graph}
real_app=${APP:-$here/apps/apsp/tuccompi-apsp}
csv=$out/predict.csv
head="workload,net,policy,cluster,nodes,sources,seconds,sssp_per_s,requests,rtt_least_ms,rtt_mean_ms,queued_ms,queued_after_first_ms,syn_after_last_job_ms,queued_median_ms,msg_busy_us"
busy=${MSG_BUSY_US:-${MSG_US:-124}}
[ -s "$csv" ] || echo "$head" >"$csv"

# the models of a workload: h200 (calibrated) or road4m (PHAST's x 4)
models_of() {
	case $1 in
	h200) echo "$here/simulation/models/h200" ;;
	road4m)
		[ -d "$cache/models-road4m" ] ||
			python3 "$here/simulation/scale_models.py" "$here/simulation/models/h200" "$cache/models-road4m" \
				tuccompi_sssp-phast 4 >&2
		echo "$cache/models-road4m"
		;;
	road4m-mk4) # the GPU at MK 4 as 4 simulated GPUs (simulation/mk_units.py), then PHAST's times x 4
		if [ ! -d "$cache/models-road4m-mk4" ]; then
			python3 "$here/simulation/mk_units.py" "$here/simulation/models/h200" "$cache/models-mk4" 4 \
				"$here/simulation/models/h200-mk4" >&2
			python3 "$here/simulation/scale_models.py" "$cache/models-mk4" "$cache/models-road4m-mk4" \
				tuccompi_sssp-phast 4 >&2
		fi
		echo "$cache/models-road4m-mk4"
		;;
	esac
}

# one run: WORKLOAD NET POLICY CLUSTER(homogeneous|half-without-GPU|no-GPU) NODES SOURCES
one() {
	local w=$1 net=$2 pol=$3 cl=$4 n=$5 k=$6
	local name=${w%%:*} rest=${w#*:}
	local e=${rest%%:*} m=${rest#*:}
	m=${m%%:*}
	local g=road
	[ "$e" = phast ] || g=random
	# (one node sends no message: its run holds for every MSG_BUSY_US)
	if [ "$n" = 1 ]; then grep -q "^$name,$net,$pol,$cl,$n,$k," "$csv" && return; fi
	grep -q "^$name,$net,$pol,$cl,$n,$k,.*,$busy\$" "$csv" && return
	local log=$cache/$name-$net-$pol-$cl-n$n-k$k-b$busy.log
	local a=("$cache/$g.tgb" --engine "$e" --units all --mk 1 --policy "$pol" --sources "random:$k" --summary)
	[ "$e" != phast ] || a+=(--ch-cache "$cache/$g.ch")
	local env=(MODELS="$(models_of "$m")" TUCCOMPI_END_LOG=1)
	[ "$m" != road4m-mk4 ] || env+=(STARPU_NCUDA=4)
	[ "$cl" != half-without-GPU ] || env+=(HETERO=1)
	[ "$cl" != no-GPU ] || env+=(STARPU_NCUDA=0)
	echo "== $name $net $pol $cl $n nodes, $k sources, MS busy $busy us per message" >&2
	env "${env[@]}" MSG_BUSY_US="$busy" timeout "${LIMIT:-1800}" "$run" "$n" "$net" "${a[@]}" >"$log" 2>&1
	local s r
	read -r s r < <(grep -oE 'SSSP in [0-9.]+ s: [0-9.]+ SSSP/s' "$log" | tail -1 | awk '{print $3, $5}')
	[ -n "${r:-}" ] || { echo "$name $net $pol $cl $n: no result (see $log)" >&2; return; }
	# the remote ranks' round trips; SYN's time after the last job of the set (rank 0's clock)
	local q qm
	q=$(sed -n 's/.*MS round trips: \([0-9]*\), least \([0-9.]*\) ms, mean \([0-9.]*\) ms, most [0-9.]* ms, first \([0-9.]*\) ms: queued \([0-9.-]*\) ms.*after the first \([0-9.-]*\) ms.*/\1 \2 \3 \5 \6/p' "$log" |
		awk '{n += $1; l += $2; m += $3; q += $4; q2 += $5} END {if (NR) printf "%d,%.4f,%.4f,%.4f,%.4f", n, l/NR, m/NR, q/NR, q2/NR; else printf "0,,,,"}')
	# the median request's queueing, over the ranks: their medians' mean
	qm=$(sed -n 's/.*MS round trips: .*; median [0-9.]* ms (queued \([0-9.-]*\) ms.*/\1/p' "$log" |
		awk '{q += $1} END {if (NR) printf "%.4f", q/NR}')
	local last syn
	last=$(sed -n 's/.*last job ended at \([0-9.]*\) ms.*/\1/p' "$log" | sort -n | tail -1)
	syn=$(awk -v s="$s" -v l="${last:-0}" 'BEGIN {printf "%.1f", 1e3 * s - l}')
	echo "$name,$net,$pol,$cl,$n,$k,$s,$r,$q,$syn,$qm,$busy" >>"$csv"
}

[ "${SUMMARY_ONLY:-0}" = 1 ] && WORKLOADS=
for w in $WORKLOADS; do
	name=${w%%:*} rest=${w#*:}
	e=${rest%%:*} k=${w##*:}
	g=road
	[ "$e" = phast ] || g=random
	[ -s "$cache/$g.tgb" ] || "$graph_tool" gen "$g:131072" --seed 1 -o "$cache/$g.tgb" >/dev/null || exit 1
	if [ "$e" = phast ] && [ ! -s "$cache/$g.ch" ]; then
		"$real_app" "$cache/$g.tgb" --engine phast --ch-cache "$cache/$g.ch" --units cpu --sources random:16 -q || exit 1
	fi
	for pol in $POLICIES; do
		one "$w" flat100 "$pol" homogeneous 1 "$k"
		one "$w" flat100 "$pol" no-GPU 1 "$K_NOGPU"
		for net in $NETS; do
			for het in $HETEROS; do
				cl=homogeneous
				[ "$het" = 0 ] || cl=half-without-GPU
				for n in $NODES; do one "$w" "$net" "$pol" "$cl" "$n" "$k"; done
			done
		done
	done
done

# the table: efficiency per node count, and at the largest count its rate, the MS requests per
# second, their round trips and the time they queued (mean and median request)
awk -F, -v nodes="$NODES" 'NR > 1 {
	key = $1 FS $3
	b = $16 == "" ? 124 : $16
	if ($5 == 1 && $4 == "homogeneous") one[key] = $8
	else if ($5 == 1 && $4 == "no-GPU") cpu[key] = $8
	else { g = $1 FS $2 FS $3 FS $4 FS b; row[g FS $5] = $0; grp[g] = 1 }
}
END {
	nn = split(nodes, N, " ")
	printf "| workload | network | policy | cluster | MS busy (us) |"
	for (i = 1; i <= nn; i++) printf " %s |", N[i]
	printf " SSSP/s at %s | MS requests/s | least round trip (ms) | queued: mean, median (%% of the least) | SYN after the last job (ms) |\n", N[nn]
	printf "|---|---|---|---|---|"
	for (i = 1; i <= nn + 5; i++) printf "---|"
	printf "\n"
	for (gk in grp) order[++no] = gk
	for (i = 1; i <= no; i++) for (j = i + 1; j <= no; j++) if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
	for (o = 1; o <= no; o++) {
		gk = order[o]; split(gk, G, FS); key = G[1] FS G[3]
		printf "| %s | %s | %s | %s | %s |", G[1], G[2], G[3], G[4], G[5]
		last = ""
		for (i = 1; i <= nn; i++) {
			r = row[gk FS N[i]]
			if (r == "") { printf " |"; continue }
			split(r, f, FS)
			ideal = G[4] == "half-without-GPU" ? N[i] / 2 * (one[key] + cpu[key]) : N[i] * one[key]
			printf " %.3f |", (ideal > 0 ? f[8] / ideal : 0)
			last = r
		}
		if (last == "") { printf " | | | | |\n"; continue }
		split(last, f, FS)
		med = f[15] == "" ? "-" : sprintf("%.3f (%.0f%%)", f[15], (f[10] > 0 ? 100 * f[15] / f[10] : 0))
		printf " %d | %d | %.3f | %.3f (%.0f%%), %s | %.1f |\n", f[8], (f[7] > 0 ? f[9] / f[7] : 0), f[10], f[13], (f[10] > 0 ? 100 * f[13] / f[10] : 0), med, f[14]
	}
	printf "\nOne node (every unit, 12 CPU workers + the GPU, MK 1), SSSP/s:"
	for (key in one) { split(key, K, FS); printf " %s %s %.1f (without GPU: %.1f);", K[1], K[2], one[key], cpu[key] }
	printf "\n"
}' "$csv"
echo "SIMULATED; $csv" >&2
